/**
 * `import-app`: an application's retry configuration (one or more files) as a design. Each file
 * is read by its framework's reader (detected, or as told); the topology is what the framework
 * declares, or the --definitions file's (the readers' own objects added where the definitions
 * lack them). A Spring Boot listener with definitions reads every work queue of them.
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
import { detectFrameworks, fileKind, FRAMEWORK_FILE_KINDS } from './detect.js';
import { readSpringBoot } from './springBoot.js';
import { readSpringCloudStream } from './springCloudStream.js';
import { readSpringAmqpJava } from './springAmqpJava.js';
import { readMassTransit } from './massTransit.js';
import { readNServiceBus } from './nServiceBus.js';
import { readCelery } from './celery.js';
import { AppConfigFailure, type AppFile, type AppReading, type ReadOptions } from './types.js';

const READERS: Record<AppFramework, (f: AppFile, o: ReadOptions) => AppReading> = {
  'spring-boot': readSpringBoot,
  'spring-cloud-stream': readSpringCloudStream,
  'spring-amqp': (f) => readSpringAmqpJava(f),
  masstransit: (f) => readMassTransit(f),
  nservicebus: (f) => readNServiceBus(f),
  celery: (f) => readCelery(f),
};

export interface ImportAppOptions extends ReadOptions {
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

/** Each file with the framework it is read as; two frameworks without --framework is an error. */
function frameworksOf(files: readonly AppFile[], opts: ImportAppOptions): { file: AppFile; framework: AppFramework }[] {
  const out: { file: AppFile; framework: AppFramework }[] = [];
  for (const f of files) {
    const kind = fileKind(f.name);
    if (kind === 'json')
      throw new AppConfigFailure({
        file: f.name,
        message:
          'a JSON file is a design or definitions export, not application configuration: give it with --definitions',
      });
    if (opts.framework) {
      if (kind !== FRAMEWORK_FILE_KINDS[opts.framework])
        throw new AppConfigFailure({
          file: f.name,
          message: `--framework ${opts.framework} is read from ${FRAMEWORK_FILE_KINDS[opts.framework]} files, not this one`,
        });
      detectFrameworks(f, opts); // the file's own syntax errors first
      out.push({ file: f, framework: opts.framework });
      continue;
    }
    const found = detectFrameworks(f, opts);
    if (found.length === 0)
      throw new AppConfigFailure({
        file: f.name,
        message:
          'no RabbitMQ listener or binding found (spring.rabbitmq.listener.*, spring.cloud.stream bindings, @RabbitListener/RetryInterceptorBuilder, ReceiveEndpoint, EndpointConfiguration, a Celery task)',
      });
    if (found.length > 1)
      throw new AppConfigFailure({
        file: f.name,
        message: `configures ${found.join(' and ')}: say which with --framework`,
      });
    out.push({ file: f, framework: found[0]! });
  }
  const distinct = [...new Set(out.map((o) => o.framework))];
  if (distinct.length > 1)
    throw new AppConfigFailure({
      file: out.find((o) => o.framework === distinct[1])!.file.name,
      message: `the files configure ${distinct.join(' and ')} (${out.map((o) => `${o.file.name}: ${o.framework}`).join(', ')}): read one framework per run, or say which with --framework`,
    });
  return out;
}

export function importAppConfig(files: readonly AppFile[], opts: ImportAppOptions = {}): ImportedApp {
  if (files.length === 0) throw new AppConfigFailure({ file: '', message: 'no application configuration file given' });
  const readings = frameworksOf(files, opts).map(({ file, framework }) => ({
    file,
    reading: READERS[framework](file, opts),
  }));
  const defs = opts.definitions ? definitionsTopology(opts.definitions, opts.vhost) : undefined;
  const topology: {
    exchanges: Topology['exchanges'][number][];
    queues: Topology['queues'][number][];
    bindings: Topology['bindings'][number][];
    policies: NonNullable<Topology['policies']>[number][];
  } = {
    exchanges: [...(defs?.topology.exchanges ?? [])],
    queues: [...(defs?.topology.queues ?? [])],
    bindings: [...(defs?.topology.bindings ?? [])],
    policies: [...(defs?.topology.policies ?? [])],
  };
  const consumers: ConsumerSpec[] = [];
  const publishers: Design['publishers'][number][] = [];
  const sources: Record<string, NodeSource> = {};
  const notes: AppNote[] = [];
  const bindingKey = (b: Topology['bindings'][number]) =>
    JSON.stringify([b.source, b.destination, b.destination_type, b.routing_key]);
  for (const { file, reading } of readings) {
    notes.push(...reading.notes.map((n) => ({ file: file.name, ...n })));
    let rc = reading.consumers;
    let rq = reading.queues;
    let rp = reading.publishers;
    const rs: Record<string, NodeSource> = { ...reading.sources };
    if (defs && reading.framework === 'spring-boot') {
      // Boot's listener reads the definitions' work queues, not a stand-in
      const roles = assumedConsumers(defs.topology).roles;
      const work = defs.topology.queues
        .filter((q) => roles[q.name] === 'work' || roles[q.name] === 'idle')
        .map((q) => q.name);
      if (work.length === 0)
        throw new AppConfigFailure({
          file: opts.definitions!.name,
          message: 'the definitions have no work queue for the Spring Boot listener to read',
        });
      const template = rc[0]!;
      const src = rs[consumerNodeId(template.id)]!;
      delete rs[queueNodeId(template.queue)];
      delete rs[consumerNodeId(template.id)];
      rc = work.map((q) => ({ ...template, id: `listener-${q}`, queue: q }));
      for (const c of rc) rs[consumerNodeId(c.id)] = src;
      rq = [];
      rp = [];
      notes.splice(
        notes.findIndex((n) => n.text.startsWith('Spring Boot declares no queue')),
        1,
      );
    }
    for (const x of reading.exchanges)
      if (!topology.exchanges.some((e) => e.name === x.name)) topology.exchanges.push(x);
    for (const q of rq) if (!topology.queues.some((e) => e.name === q.name)) topology.queues.push(q);
    for (const b of reading.bindings)
      if (!topology.bindings.some((e) => bindingKey(e) === bindingKey(b))) topology.bindings.push(b);
    for (const c of rc) {
      if (consumers.some((x) => x.id === c.id))
        throw new AppConfigFailure({
          file: file.name,
          line: rs[consumerNodeId(c.id)]?.line ?? 1,
          message: `consumer "${c.id}" is configured twice`,
        });
      consumers.push(c);
    }
    for (const p of rp) if (!publishers.some((x) => x.id === p.id)) publishers.push(p);
    Object.assign(sources, rs);
  }
  // definitions-only entry points get a publisher each where the readers gave none
  if (defs && publishers.length === 0)
    for (const c of consumers) {
      const b = topology.bindings.find((x) => x.destination === c.queue && x.destination_type === 'queue');
      publishers.push(
        b
          ? {
              id: `publish-${c.queue}`,
              exchange: b.source,
              routingKey: b.routing_key.replace(/[#*]/g, 'x'),
              bodyPrefix: c.queue,
            }
          : { id: `publish-${c.queue}`, exchange: '', routingKey: c.queue, bodyPrefix: c.queue },
      );
    }
  const frameworks = [...new Set(readings.map((r) => r.reading.framework))];
  const profile = opts.profile ?? defs?.profile;
  const raw = {
    format: DESIGN_FORMAT,
    version: DESIGN_VERSION,
    name: opts.name ?? files[0]!.name.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, ''),
    description: `Read from ${files.map((f) => f.name).join(', ')} (${frameworks.join(', ')})${opts.definitions ? ` with ${opts.definitions.name}` : ''} by retry-studio import-app`,
    ...(profile && profile !== '3.10' ? { profile } : {}),
    ...(defs?.vhost !== undefined ? { vhost: defs.vhost } : opts.vhost !== undefined ? { vhost: opts.vhost } : {}),
    topology,
    consumers,
    publishers,
    sources,
  };
  const r = parseDesign(raw);
  if (!r.ok)
    throw new AppConfigFailure({
      file: files[0]!.name,
      message: `the design read is not valid (a reader's mistake, please report it)\n${formatIssues(r.errors)}`,
    });
  return { design: r.design, frameworks, notes: [...notes, ...fileNotes(sources)] };
}

/** The notes kept on consumers (ignored keys, code not understood), once each. */
function fileNotes(sources: Record<string, NodeSource>): AppNote[] {
  const seen = new Set<string>();
  const out: AppNote[] = [];
  for (const s of Object.values(sources))
    for (const n of s.notes ?? []) {
      const k = `${s.file}:${n.line}:${n.text}`;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push({ file: s.file, line: n.line, text: n.text });
    }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}
