/**
 * `import-app`: an application's retry configuration (one or more files, with the environment and
 * profiles it runs with) as a design. Each input is read by its framework's reader (detected, or
 * as told: frameworks/registry.ts); the topology is what the framework declares, or the
 * --definitions file's (the readers' own objects added where the definitions lack them). A
 * listener whose queues are named elsewhere (Spring Boot's container, a Java factory with no
 * @RabbitListener) reads the work queues of the definitions, else of the topology read, else a
 * stand-in queue.
 */
import type { ConsumerSpec } from '../model/consumer.js';
import type { BrokerProfileId, Design } from '../model/design.js';
import type { Topology } from '../model/definitions.js';
import type { AppFramework, NodeSource } from '../model/source.js';
import { DESIGN_FORMAT, DESIGN_VERSION } from '../model/design.js';
import { consumerNodeId, queueNodeId } from '../model/nodeIds.js';
import { parseDesign } from '../model/validateDesign.js';
import { formatIssues } from '../model/validateResult.js';
import { importDefinitions } from '../io/definitions.js';
import { parseJsonText } from '../io/load.js';
import { profileForVersion } from '../sim/profileForVersion.js';
import { assumedConsumers } from '../lint/assumedConsumers.js';
import { FRAMEWORKS, frameworkDef } from '../frameworks/registry.js';
import { publishersReaching } from '../frameworks/read/publishersReaching.js';
import {
  AppConfigFailure,
  type AppFile,
  type AppInput,
  type AppReading,
  type ListenerTemplate,
  type RunnableConsumer,
} from '../frameworks/types.js';
import { appInputs, type ImportInputOptions } from './appInputs.js';

export interface ImportAppOptions extends ImportInputOptions {
  readonly framework?: AppFramework;
  readonly definitions?: AppFile;
  readonly vhost?: string;
  readonly profile?: BrokerProfileId;
  readonly name?: string;
}

export interface AppNote {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

export interface ImportedApp {
  readonly design: Design;
  readonly frameworks: readonly AppFramework[];
  /** what the readers saw and did not model, each with its file and line */
  readonly notes: readonly AppNote[];
  /** files read as the application's environment (--env, a Deployment, a Helm values file) */
  readonly environment?: readonly string[];
  /** consumer id -> what the real framework is handed to run it (Rascal, NestJS: prove-app) */
  readonly runnable?: { readonly [consumerId: string]: RunnableConsumer };
}

function definitionsTopology(
  f: AppFile,
  vhost: string | undefined,
): { topology: Topology; vhost?: string; profile?: BrokerProfileId } {
  const parsed = parseJsonText(f.text);
  if (!parsed.ok) throw new AppConfigFailure({ file: f.name, message: parsed.error.message });
  const r = importDefinitions(parsed.value, vhost !== undefined ? { vhost } : {});
  if (!r.ok) throw new AppConfigFailure({ file: f.name, message: `invalid definitions\n${formatIssues(r.errors)}` });
  const profile = profileForVersion(r.rabbitVersion);
  return {
    topology: r.topology,
    ...(r.vhost !== undefined ? { vhost: r.vhost } : {}),
    ...(profile ? { profile } : {}),
  };
}

const LOOKED_FOR = (): string => FRAMEWORKS.map((f) => f.looksFor).join(', ');

/** Each input with the framework it is read as; two frameworks without --framework is an error. */
function frameworksOf(
  inputs: readonly AppInput[],
  opts: ImportAppOptions,
): { input: AppInput; framework: AppFramework }[] {
  const out: { input: AppInput; framework: AppFramework }[] = [];
  const hasCode = inputs.some((i) => i.kind !== 'config');
  for (const input of inputs) {
    if (opts.framework) {
      const def = frameworkDef(opts.framework);
      if (def.fileKinds.includes(input.kind)) {
        if (input.kind === 'config') input.config(); // the file's own syntax errors first
        out.push({ input, framework: opts.framework });
      } else if (input.kind !== 'config')
        // configuration beside a code framework is its property source (placeholders), not a framework of its own
        throw new AppConfigFailure({
          file: input.file.name,
          message: `--framework ${opts.framework} is read from ${def.fileKinds.join(' or ')} files, not this one`,
        });
      continue;
    }
    const found = FRAMEWORKS.filter((f) => f.fileKinds.includes(input.kind) && f.detect(input)).map((f) => f.id);
    if (found.length === 0) {
      if (input.kind === 'config' && hasCode) continue; // properties for the code beside it
      throw new AppConfigFailure({
        file: input.file.name,
        message: `no RabbitMQ listener or binding found (${LOOKED_FOR()})`,
      });
    }
    if (found.length > 1)
      throw new AppConfigFailure({
        file: input.file.name,
        message: `configures ${found.join(' and ')}: say which with --framework`,
      });
    out.push({ input, framework: found[0]! });
  }
  const distinct = [...new Set(out.map((o) => o.framework))];
  if (distinct.length > 1)
    throw new AppConfigFailure({
      file: out.find((o) => o.framework === distinct[1])!.input.file.name,
      message: `the files configure ${distinct.join(' and ')} (${out.map((o) => `${o.input.file.name}: ${o.framework}`).join(', ')}): read one framework per run, or say which with --framework`,
    });
  if (out.length === 0)
    throw new AppConfigFailure({
      file: inputs[0]?.file.name ?? '',
      message: `no RabbitMQ listener or binding found (${LOOKED_FOR()})`,
    });
  return out;
}

interface Merged {
  readonly topology: {
    exchanges: Topology['exchanges'][number][];
    queues: Topology['queues'][number][];
    bindings: Topology['bindings'][number][];
    policies: NonNullable<Topology['policies']>[number][];
  };
  readonly consumers: ConsumerSpec[];
  readonly publishers: Design['publishers'][number][];
  readonly sources: Record<string, NodeSource>;
  readonly notes: AppNote[];
}

const bindingKey = (b: Topology['bindings'][number]): string =>
  JSON.stringify([b.source, b.destination, b.destination_type, b.routing_key]);

/** A listener template on the work queues of the definitions, else of the topology read, else on its stand-in. */
function expandListener(
  t: ListenerTemplate,
  reading: AppReading,
  m: Merged,
  defs: Topology | undefined,
  definitionsFile: string | undefined,
): void {
  const pick = (topo: Topology): string[] => {
    const roles = assumedConsumers(topo).roles;
    return topo.queues.filter((q) => roles[q.name] === 'work' || roles[q.name] === 'idle').map((q) => q.name);
  };
  let queues: string[];
  if (defs) {
    queues = pick(defs);
    if (queues.length === 0)
      throw new AppConfigFailure({
        file: definitionsFile!,
        message: `the definitions have no work queue for the ${frameworkDef(reading.framework).title} listener to read`,
      });
  } else if (reading.queues.length > 0) {
    queues = pick({
      exchanges: [...reading.exchanges],
      queues: [...reading.queues],
      bindings: [...reading.bindings],
      policies: [],
    } as unknown as Topology);
    // none looks consumed (a TTL on the work queue reads as a wait queue): the listener reads where messages enter
    if (queues.length === 0)
      queues = reading.queues
        .filter((q) =>
          reading.bindings.some((b) => b.destination === q.name && b.destination_type === 'queue' && b.source !== ''),
        )
        .map((q) => q.name);
  } else queues = [];
  if (queues.length === 0) {
    queues = [t.standIn];
    m.topology.queues.push({ name: t.standIn, durable: true, auto_delete: false, arguments: {} });
    m.notes.push({ file: t.source.file, line: t.source.line, text: t.standInNote });
    m.publishers.push({ id: `publish-${t.standIn}`, exchange: '', routingKey: t.standIn, bodyPrefix: t.standIn });
  }
  for (const q of queues) {
    const id = t.idFor(q);
    m.consumers.push({ ...t.consumer, id, queue: q });
    m.sources[consumerNodeId(id)] = t.source;
    m.sources[queueNodeId(q)] ??= { framework: reading.framework, file: t.source.file, line: t.source.line };
  }
}

function merge(
  readings: readonly { input: AppInput; reading: AppReading }[],
  m: Merged,
  defs: Topology | undefined,
  opts: ImportAppOptions,
): void {
  for (const { input, reading } of readings) {
    m.notes.push(...reading.notes.map((n) => ({ file: n.file ?? input.file.name, line: n.line, text: n.text })));
    for (const x of reading.exchanges)
      if (!m.topology.exchanges.some((e) => e.name === x.name)) m.topology.exchanges.push(x);
    for (const q of reading.queues) if (!m.topology.queues.some((e) => e.name === q.name)) m.topology.queues.push(q);
    for (const b of reading.bindings)
      if (!m.topology.bindings.some((e) => bindingKey(e) === bindingKey(b))) m.topology.bindings.push(b);
    const before = m.consumers.length;
    if (reading.listener) expandListener(reading.listener, reading, m, defs, opts.definitions?.name);
    for (const c of [...m.consumers.splice(before), ...reading.consumers]) {
      if (m.consumers.some((x) => x.id === c.id))
        throw new AppConfigFailure({
          file: input.file.name,
          line: (reading.sources[consumerNodeId(c.id)] ?? m.sources[consumerNodeId(c.id)])?.line ?? 1,
          message: `consumer "${c.id}" is configured twice`,
        });
      m.consumers.push(c);
    }
    for (const p of reading.publishers) if (!m.publishers.some((x) => x.id === p.id)) m.publishers.push(p);
    for (const [k, s] of Object.entries(reading.sources)) m.sources[k] ??= s;
  }
}

export function importAppConfig(files: readonly AppFile[], opts: ImportAppOptions = {}): ImportedApp {
  if (files.length === 0) throw new AppConfigFailure({ file: '', message: 'no application configuration file given' });
  const { inputs, envFiles } = appInputs(files, opts);
  const readings = frameworksOf(inputs, opts).map(({ input, framework }) => ({
    input,
    reading: frameworkDef(framework).read(input),
  }));
  const defs = opts.definitions ? definitionsTopology(opts.definitions, opts.vhost) : undefined;
  const m: Merged = {
    topology: {
      exchanges: [...(defs?.topology.exchanges ?? [])],
      queues: [...(defs?.topology.queues ?? [])],
      bindings: [...(defs?.topology.bindings ?? [])],
      policies: [...(defs?.topology.policies ?? [])],
    },
    consumers: [],
    publishers: [],
    sources: {},
    notes: [],
  };
  merge(readings, m, defs?.topology, opts);
  // a publisher for every consumer the readers left without one (the definitions' entry points)
  m.publishers.push(...publishersReaching(m.consumers, m.topology.exchanges, m.topology.bindings, m.publishers, false));
  for (const c of m.consumers)
    if (
      !m.topology.bindings.some((b) => b.destination === c.queue && b.destination_type === 'queue') &&
      !m.publishers.some((p) => p.exchange === '' && p.routingKey === c.queue)
    )
      m.publishers.push({ id: `publish-${c.queue}`, exchange: '', routingKey: c.queue, bodyPrefix: c.queue });
  const frameworks = [...new Set(readings.map((r) => r.reading.framework))];
  const profile = opts.profile ?? defs?.profile;
  const raw = {
    format: DESIGN_FORMAT,
    version: DESIGN_VERSION,
    name: opts.name ?? files[0]!.name.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, ''),
    description: `Read from ${files.map((f) => f.name).join(', ')} (${frameworks.join(', ')})${opts.definitions ? ` with ${opts.definitions.name}` : ''} by retry-studio import-app`,
    ...(profile && profile !== '3.10' ? { profile } : {}),
    ...(defs?.vhost !== undefined ? { vhost: defs.vhost } : opts.vhost !== undefined ? { vhost: opts.vhost } : {}),
    topology: m.topology,
    consumers: m.consumers,
    publishers: m.publishers,
    sources: m.sources,
  };
  const r = parseDesign(raw);
  if (!r.ok)
    throw new AppConfigFailure({
      file: files[0]!.name,
      message: `the design read is not valid (a reader's mistake, please report it)\n${formatIssues(r.errors)}`,
    });
  const runnable = Object.assign({}, ...readings.map((x) => x.reading.runnable ?? {})) as Record<
    string,
    RunnableConsumer
  >;
  return {
    design: r.design,
    frameworks,
    notes: [...m.notes, ...fileNotes(m.sources)],
    ...(Object.keys(runnable).length ? { runnable } : {}),
    ...(envFiles.length || opts.envFiles?.length
      ? { environment: [...(opts.envFiles ?? []).map((f) => f.name), ...envFiles] }
      : {}),
  };
}

/** The notes kept on consumers (ignored keys, code not understood, traps), once each. */
function fileNotes(sources: Record<string, NodeSource>): AppNote[] {
  const seen = new Set<string>();
  const out: AppNote[] = [];
  for (const s of Object.values(sources))
    for (const n of s.notes ?? []) {
      const file = n.file ?? s.file;
      const k = `${file}:${n.line}:${n.text}`;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push({ file, line: n.line, text: n.text });
    }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}
