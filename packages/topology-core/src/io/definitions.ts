/**
 * RabbitMQ definitions JSON (`rabbitmqctl export_definitions`, GET /api/definitions[/vhost])
 * <-> Topology / Design. Whole-broker exports carry `vhost` on every object and a `vhosts`
 * list; per-vhost exports carry none. Both read; both write.
 */
import type { OmittedField } from '../model/definitionFields.js';
import type { AmqpTable, BindingDef, ExchangeDef, PolicyDef, QueueDef, Topology } from '../model/definitions.js';
import type { Design } from '../model/design.js';
import { DESIGN_FORMAT, DESIGN_VERSION } from '../model/design.js';
import { isPlainObject, type ValidationIssue } from '../model/validateResult.js';
import { validateTopology } from '../model/validateTopology.js';
import { pathIndex } from '../model/names.js';
import {
  indexed,
  readBrokerObjects,
  type BrokerObjects,
  type ObjectKind,
  type SkippedBinding,
} from './brokerObjects.js';
import { describeVhostsWithObjects, objectCount, vhostContents, type VhostContents } from './definitionsVhosts.js';
import { notModelledSummary } from './notModelled.js';
import { userPasswordNotes } from './userPasswords.js';
import { vhostNotes } from './vhostNotes.js';
import { dropPluginPolicyKeys, type PluginPolicyKey } from './pluginPolicyKeys.js';

export interface ImportDefinitionsOptions {
  /** which vhost to read from a whole-broker export; default "/" when it holds objects, else the first vhost that does */
  readonly vhost?: string;
}

export type ImportDefinitionsResult =
  | {
      readonly ok: true;
      readonly topology: Topology;
      /** the vhost read (undefined for a vhost-less export) */
      readonly vhost?: string;
      /** every vhost the file mentions */
      readonly vhosts: readonly string[];
      /** every vhost with its object counts (the vhost-less objects of a per-vhost export as name undefined) */
      readonly contents: readonly VhostContents[];
      readonly rabbitVersion?: string;
      /** bindings skipped because the file does not declare one of their ends (each also a `binding-end-undeclared` warning) */
      readonly skippedBindings: readonly SkippedBinding[];
      /** queue and exchange fields the file leaves out (the defaults are filled in; 3.10.8 refuses some: model/definitionFields.ts) */
      readonly omittedFields: readonly OmittedField[];
      /** policy keys a plugin defines (federation), dropped: a broker without the plugin refuses the file */
      readonly pluginPolicyKeys: readonly PluginPolicyKey[];
      /** skipped objects, ignored fields and what is not imported are warnings with codes `skipped`, `field-ignored`, `not-imported` */
      readonly warnings: readonly ValidationIssue[];
    }
  | { readonly ok: false; readonly errors: readonly ValidationIssue[]; readonly warnings: readonly ValidationIssue[] };

/** Does this JSON look like a definitions export (rather than a design)? */
export function looksLikeDefinitions(v: unknown): boolean {
  if (!isPlainObject(v) || v.format !== undefined || v.topology !== undefined) return false;
  return [
    'exchanges',
    'queues',
    'bindings',
    'rabbit_version',
    'rabbitmq_version',
    'vhosts',
    'policies',
    'parameters',
    'users',
    'global_parameters',
    'permissions',
  ].some((k) => k in v);
}

const cleanArgs = (a: unknown): AmqpTable => (isPlainObject(a) ? (a as AmqpTable) : {});

/** The vhost to read when none is asked for: "/" when it holds objects, else the first that does (never an empty one beside a full one). */
function defaultVhost(contents: readonly VhostContents[]): string | undefined {
  const named = contents.filter((c) => c.name !== undefined);
  if (named.length === 0) return undefined;
  const full = named.filter((c) => objectCount(c) > 0);
  if (full.some((c) => c.name === '/') || full.length === 0)
    return named.some((c) => c.name === '/') ? '/' : named[0]!.name;
  return full[0]!.name;
}

/** Each listed item must be an object, and its arguments (when given) an object too. */
function checkItemShapes(errors: ValidationIssue[], lists: { readonly [k in ObjectKind]: readonly unknown[] }): void {
  for (const [k, raw] of [
    ['exchanges', lists.exchanges],
    ['queues', lists.queues],
    ['bindings', lists.bindings],
    ['policies', lists.policies],
  ] as const)
    raw.forEach((item, i) => {
      if (!isPlainObject(item))
        errors.push({
          path: pathIndex(k, i),
          code: 'field-type',
          message: `${k.slice(0, -1).replace(/ie$/, 'y')} must be an object`,
        });
      else if (item.arguments !== undefined && !isPlainObject(item.arguments))
        errors.push({
          path: `${pathIndex(k, i)}.arguments`,
          code: 'table-type',
          message: 'arguments must be an object',
        });
    });
}

/**
 * The exchanges, queues and bindings as the model holds them, broker defaults filled in, and
 * which fields the file left out (a defaulted field is said, not silently assumed).
 */
function declaredObjects(kept: BrokerObjects['kept']): {
  exchanges: ExchangeDef[];
  queues: QueueDef[];
  bindings: BindingDef[];
  omittedFields: OmittedField[];
} {
  const omittedFields: OmittedField[] = [];
  const omitted = (
    kind: OmittedField['kind'],
    o: Record<string, unknown>,
    fields: readonly OmittedField['field'][],
  ) => {
    for (const field of fields) if (o[field] === undefined) omittedFields.push({ kind, name: o.name as string, field });
  };
  for (const { item } of kept.exchanges) omitted('exchange', item, ['durable', 'auto_delete', 'internal', 'arguments']);
  for (const { item } of kept.queues) omitted('queue', item, ['durable', 'auto_delete', 'arguments']);
  const exchanges: ExchangeDef[] = kept.exchanges.map(({ item: x }) => ({
    name: x.name as string,
    type: x.type as ExchangeDef['type'],
    durable: x.durable === undefined ? true : (x.durable as boolean),
    auto_delete: (x.auto_delete as boolean) ?? false,
    internal: (x.internal as boolean) ?? false,
    arguments: cleanArgs(x.arguments),
  }));
  const queues: QueueDef[] = kept.queues.map(({ item: q }) => {
    let args = cleanArgs(q.arguments);
    // 3.13+ exports carry `type`; older ones only the argument
    if (typeof q.type === 'string' && q.type !== 'classic' && args['x-queue-type'] === undefined)
      args = { ...args, 'x-queue-type': q.type };
    return {
      name: q.name as string,
      durable: q.durable === undefined ? true : (q.durable as boolean),
      auto_delete: (q.auto_delete as boolean) ?? false,
      arguments: args,
    };
  });
  const bindings: BindingDef[] = kept.bindings.map(({ item: b }) => ({
    source: b.source as string,
    destination: b.destination as string,
    destination_type: b.destination_type as BindingDef['destination_type'],
    routing_key: (b.routing_key as string) ?? '',
    arguments: cleanArgs(b.arguments),
  }));
  return { exchanges, queues, bindings, omittedFields };
}

export function importDefinitions(input: unknown, opts: ImportDefinitionsOptions = {}): ImportDefinitionsResult {
  const warnings: ValidationIssue[] = [];
  if (!isPlainObject(input))
    return {
      ok: false,
      errors: [{ path: '', code: 'definitions-type', message: 'definitions must be a JSON object' }],
      warnings,
    };
  const errors: ValidationIssue[] = [];
  const arr = (k: string): unknown[] => {
    const v = input[k];
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      errors.push({ path: k, code: 'field-type', message: `${k} must be an array` });
      return [];
    }
    return v;
  };
  const rawEx = arr('exchanges');
  const rawQ = arr('queues');
  const rawB = arr('bindings');
  const rawP = arr('policies');
  const contents = vhostContents(input);
  const vhosts = contents.flatMap((c) => (c.name === undefined ? [] : [c.name]));
  let vhost: string | undefined = opts.vhost;
  if (vhost === undefined) {
    vhost = defaultVhost(contents);
    const full = contents.filter((c) => c.name !== undefined && objectCount(c) > 0);
    if (full.length > 1)
      warnings.push({
        path: 'vhosts',
        code: 'vhost-chosen',
        message: `the file has objects in ${full.length} vhosts: ${describeVhostsWithObjects(contents)}; reading "${vhost}" (choose one with the vhost option)`,
      });
  } else if (vhosts.length > 0 && !vhosts.includes(vhost)) {
    errors.push({
      path: 'vhosts',
      code: 'vhost-missing',
      message: `vhost "${vhost}" is not in the file; its vhosts with objects: ${describeVhostsWithObjects(contents)}`,
    });
    return { ok: false, errors, warnings };
  }
  const inVhost = (item: { readonly [k: string]: unknown }): boolean =>
    item.vhost === undefined || vhost === undefined || item.vhost === vhost;

  checkItemShapes(errors, { exchanges: rawEx, queues: rawQ, bindings: rawB, policies: rawP });
  const pick = (raw: unknown[]) => indexed(raw).filter(({ item }) => inVhost(item));
  const read = readBrokerObjects({
    exchanges: pick(rawEx),
    queues: pick(rawQ),
    bindings: pick(rawB),
    policies: pick(rawP),
  });
  warnings.push(...read.notes);
  const notModelled = notModelledSummary(input, inVhost);
  warnings.push(...userPasswordNotes(input), ...vhostNotes(input, contents, vhost));
  if (notModelled) warnings.push({ path: '', code: 'not-imported', message: notModelled });

  const { exchanges, queues, bindings, omittedFields } = declaredObjects(read.kept);
  const plugin = dropPluginPolicyKeys(
    read.kept.policies.map(({ item: p, index }) => ({
      index,
      policy: {
        name: p.name as string,
        pattern: p.pattern as string,
        definition: cleanArgs(p.definition),
        ...(p['apply-to'] !== undefined ? { 'apply-to': p['apply-to'] as PolicyDef['apply-to'] } : {}),
        ...(p.priority !== undefined ? { priority: p.priority as number } : {}),
      } as PolicyDef,
    })),
  );
  warnings.push(...plugin.notes);
  const policies: PolicyDef[] = plugin.kept.map((k) => k.policy);
  const topology: Topology = { exchanges, queues, bindings, ...(policies.length > 0 ? { policies } : {}) };
  const v = validateTopology(topology);
  const indexOf = {
    exchanges: read.kept.exchanges,
    queues: read.kept.queues,
    bindings: read.kept.bindings,
    policies: plugin.kept,
  };
  const remap = (iss: ValidationIssue): ValidationIssue => ({
    ...iss,
    path: iss.path.replace(
      /^(exchanges|queues|bindings|policies)\[(\d+)\]/,
      (_m, k: keyof typeof indexOf, n: string) => `${k}[${indexOf[k][Number(n)]?.index ?? n}]`,
    ),
  });
  errors.push(...v.errors.map(remap));
  warnings.push(...v.warnings.map(remap));
  if (errors.length > 0) return { ok: false, errors, warnings };
  // nothing read while the file has objects: say where they are, never a silent empty "/"
  const total = contents.reduce((n, c) => n + objectCount(c), 0);
  const read1 = exchanges.length + queues.length + bindings.length + policies.length;
  if (total === 0)
    return {
      ok: false,
      errors: [
        {
          path: 'vhosts',
          code: 'definitions-empty',
          message: `the file has no exchanges, queues, bindings or policies${notModelled ? ` (${notModelled})` : ''}`,
        },
      ],
      warnings,
    };
  if (read1 === 0) {
    const skipped =
      read.notes.length > 0 ? ` (everything there is skipped: ${read.notes.map((n) => n.message).join('; ')})` : '';
    const where = vhost === undefined ? 'the file' : `vhost "${vhost}"`;
    return {
      ok: false,
      errors: [
        {
          path: 'vhosts',
          code: 'vhost-empty',
          message: `${where} has nothing to import${skipped}; the file's vhosts with objects: ${describeVhostsWithObjects(contents)}`,
        },
      ],
      warnings,
    };
  }
  const rv =
    typeof input.rabbit_version === 'string'
      ? input.rabbit_version
      : typeof input.rabbitmq_version === 'string'
        ? input.rabbitmq_version
        : undefined;
  return {
    ok: true,
    topology,
    vhosts,
    contents,
    warnings,
    skippedBindings: read.skippedBindings,
    omittedFields,
    pluginPolicyKeys: plugin.dropped,
    ...(vhost !== undefined ? { vhost } : {}),
    ...(rv ? { rabbitVersion: rv } : {}),
  };
}

export interface ExportDefinitionsOptions {
  /** write a whole-broker file (vhost on every object + a vhosts entry), for `rabbitmqctl import_definitions` */
  readonly vhost?: string;
  readonly rabbitVersion?: string;
}

export interface DefinitionsJson {
  readonly rabbit_version: string;
  readonly rabbitmq_version: string;
  readonly product_name: string;
  readonly product_version: string;
  readonly users: readonly never[];
  readonly vhosts?: readonly { readonly name: string }[];
  readonly permissions: readonly never[];
  readonly topic_permissions: readonly never[];
  readonly parameters: readonly never[];
  readonly global_parameters: readonly never[];
  readonly policies: readonly Record<string, unknown>[];
  readonly queues: readonly Record<string, unknown>[];
  readonly exchanges: readonly Record<string, unknown>[];
  readonly bindings: readonly Record<string, unknown>[];
}

/** Topology -> definitions JSON with every field the importer requires written out. */
export function exportDefinitions(topology: Topology, opts: ExportDefinitionsOptions = {}): DefinitionsJson {
  const vh = opts.vhost !== undefined ? { vhost: opts.vhost } : {};
  const version = opts.rabbitVersion ?? '3.10.8';
  return {
    rabbit_version: version,
    rabbitmq_version: version,
    product_name: 'RabbitMQ',
    product_version: version,
    users: [],
    ...(opts.vhost !== undefined ? { vhosts: [{ name: opts.vhost }] } : {}),
    permissions: [],
    topic_permissions: [],
    parameters: [],
    global_parameters: [],
    policies: (topology.policies ?? []).map((p) => ({
      ...vh,
      name: p.name,
      pattern: p.pattern,
      'apply-to': p['apply-to'] ?? 'all',
      definition: { ...p.definition },
      priority: p.priority ?? 0,
    })),
    queues: topology.queues.map((q) => ({
      name: q.name,
      ...vh,
      durable: q.durable ?? true,
      auto_delete: q.auto_delete ?? false,
      arguments: { ...(q.arguments ?? {}) },
    })),
    exchanges: topology.exchanges.map((x) => ({
      name: x.name,
      ...vh,
      type: x.type,
      durable: x.durable ?? true,
      auto_delete: x.auto_delete ?? false,
      internal: x.internal ?? false,
      arguments: { ...(x.arguments ?? {}) },
    })),
    bindings: topology.bindings.map((b) => ({
      source: b.source,
      ...vh,
      destination: b.destination,
      destination_type: b.destination_type,
      routing_key: b.routing_key,
      arguments: { ...(b.arguments ?? {}) },
    })),
  };
}

/** A design with no consumers or publishers around an imported topology. */
export function designFromTopology(topology: Topology, name = 'imported'): Design {
  return { format: DESIGN_FORMAT, version: DESIGN_VERSION, name, topology, consumers: [], publishers: [] };
}

/** Several vhosts' topologies -> one whole-broker definitions file, every object with its own vhost. */
export function exportDefinitionsVhosts(
  parts: readonly { readonly vhost: string; readonly topology: Topology }[],
  opts: { readonly rabbitVersion?: string } = {},
): DefinitionsJson {
  const each = parts.map((p) => exportDefinitions(p.topology, { vhost: p.vhost, ...opts }));
  const first = exportDefinitions(
    { exchanges: [], queues: [], bindings: [] },
    { vhost: parts[0]?.vhost ?? '/', ...opts },
  );
  return {
    ...first,
    vhosts: parts.map((p) => ({ name: p.vhost })),
    policies: each.flatMap((d) => d.policies),
    queues: each.flatMap((d) => d.queues),
    exchanges: each.flatMap((d) => d.exchanges),
    bindings: each.flatMap((d) => d.bindings),
  };
}
