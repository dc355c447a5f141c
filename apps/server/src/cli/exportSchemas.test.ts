/**
 * Every template's operator, Terraform and AsyncAPI export checked against the format's own
 * schema: the messaging-topology-operator's CRD schemas (ajv), the RabbitMQ Terraform
 * provider's resource schemas (through a real HCL parser), and the official AsyncAPI parser.
 * The schemas are fixtures with their sources (fixtures/README.md).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parseAllDocuments } from 'yaml';
import { parse as parseHcl } from '@cdktf/hcl2json';
import { Parser as AsyncApiParser } from '@asyncapi/parser';
import { exportDesign, OPERATOR_API_VERSION } from '@retry-studio/topology-core/io';
import { type AmqpTable, type Design, type PolicyDef, type Topology } from '@retry-studio/topology-core/model';
import { listTemplates } from '@retry-studio/topology-core/templates';
import { templateDesign as template, typedDesign } from './exportFixtures.js';

const fixtures = path.join(__dirname, 'fixtures');
const readJson = (p: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(fixtures, p), 'utf8')) as Record<string, unknown>;

const designs: [string, Design][] = [
  ...listTemplates().map((t) => [t.id, template(t.id)] as [string, Design]),
  ['typed-fixture', typedDesign()],
];

// ---------------------------------------------------------------- operator
/**
 * Kubernetes prunes fields a structural schema does not define; the test makes that an error
 * (additionalProperties: false) everywhere except x-kubernetes-preserve-unknown-fields objects.
 */
function strict(s: unknown): unknown {
  if (typeof s !== 'object' || s === null) return s;
  const o = { ...(s as Record<string, unknown>) };
  if (o.properties && !o['x-kubernetes-preserve-unknown-fields']) {
    o.properties = Object.fromEntries(
      Object.entries(o.properties as Record<string, unknown>).map(([k, v]) => [k, strict(v)]),
    );
    o.additionalProperties = false;
  }
  for (const k of Object.keys(o)) if (k.startsWith('x-kubernetes-')) delete o[k];
  return o;
}
const ajv = new Ajv({ allErrors: true, strict: false });
const crdValidators = Object.fromEntries(
  ['exchanges', 'queues', 'bindings', 'policies'].map((p) => {
    const crd = readJson(`topology-operator/rabbitmq.com_${p}.json`);
    return [crd.kind as string, ajv.compile(strict(crd.openAPIV3Schema) as object)];
  }),
);
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

interface K8sDoc {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: Record<string, unknown>;
}
const operatorDocs = (yaml: string): K8sDoc[] =>
  parseAllDocuments(yaml).map((doc) => {
    if (doc.errors.length > 0) throw new Error(doc.errors.map((e) => e.message).join('\n'));
    return doc.toJS() as K8sDoc;
  });

/** The inverse mapping, for the round trip: the operator's resources back to a topology. */
function topologyFromOperator(docs: readonly K8sDoc[]): Topology {
  const of = (kind: string) => docs.filter((d) => d.kind === kind).map((d) => d.spec);
  return {
    exchanges: of('Exchange').map((s) => ({
      name: s.name as string,
      type: s.type as never,
      durable: s.durable as boolean,
      auto_delete: s.autoDelete as boolean,
      arguments: s.arguments as AmqpTable,
    })),
    queues: of('Queue').map((s) => ({
      name: s.name as string,
      durable: s.durable as boolean,
      auto_delete: s.autoDelete as boolean,
      arguments: {
        ...(s.arguments as AmqpTable),
        ...(s.type === 'classic' ? {} : { 'x-queue-type': s.type as string }),
      },
    })),
    bindings: of('Binding').map((s) => ({
      source: s.source as string,
      destination: s.destination as string,
      destination_type: s.destinationType as never,
      routing_key: s.routingKey as string,
      arguments: s.arguments as AmqpTable,
    })),
    policies: of('Policy').map((s) => ({
      name: s.name as string,
      pattern: s.pattern as string,
      'apply-to': s.applyTo as never,
      priority: s.priority as number,
      definition: s.definition as AmqpTable,
    })),
  };
}
/** What the operator can carry: internal is dropped (said in a comment), x-queue-type classic is the default. */
function operatorView(t: Topology): Topology {
  return {
    exchanges: t.exchanges.map((x) => ({
      name: x.name,
      type: x.type,
      durable: x.durable ?? true,
      auto_delete: x.auto_delete ?? false,
      arguments: x.arguments ?? {},
    })),
    queues: t.queues.map((q) => {
      const { 'x-queue-type': type, ...rest } = q.arguments ?? {};
      return {
        name: q.name,
        durable: q.durable ?? true,
        auto_delete: q.auto_delete ?? false,
        arguments: type === 'quorum' ? { ...rest, 'x-queue-type': type } : rest,
      };
    }),
    bindings: t.bindings.map((b) => ({ ...b, arguments: b.arguments ?? {} })),
    policies: (t.policies ?? []).map((p) => ({
      name: p.name,
      pattern: p.pattern,
      'apply-to': p['apply-to'] ?? 'all',
      priority: p.priority ?? 0,
      definition: p.definition,
    })),
  };
}

describe('operator export: every resource valid against its CRD schema', () => {
  it.each(designs)('%s', (_id, design) => {
    const docs = operatorDocs(exportDesign(design, 'operator', { cluster: 'prod-rabbit', vhost: 'retry' }));
    const t = design.topology;
    expect(docs).toHaveLength(t.exchanges.length + t.queues.length + t.bindings.length + (t.policies ?? []).length);
    for (const d of docs) {
      expect(d.apiVersion).toBe(OPERATOR_API_VERSION);
      const validate = crdValidators[d.kind];
      expect(validate, d.kind).toBeDefined();
      expect(validate!(d) ? [] : validate!.errors, `${d.kind} ${d.metadata.name}`).toEqual([]);
      expect(d.metadata.name).toMatch(DNS1123_LABEL);
      expect(d.metadata.name.length).toBeLessThanOrEqual(63);
      expect(d.spec).toMatchObject({ vhost: 'retry', rabbitmqClusterReference: { name: 'prod-rabbit' } });
    }
    for (const kind of ['Exchange', 'Queue', 'Binding', 'Policy']) {
      const names = docs.filter((d) => d.kind === kind).map((d) => d.metadata.name);
      expect(new Set(names).size).toBe(names.length);
    }
    // round trip: nothing the operator can carry is lost
    expect(topologyFromOperator(docs)).toEqual(operatorView(t));
  });

  it('the strict CRD check can fail: a field the CRD lacks is an error, as pruning would lose it', () => {
    const [doc] = operatorDocs(exportDesign(typedDesign(), 'operator'));
    expect(crdValidators.Exchange!({ ...doc, spec: { ...doc!.spec, internal: true } })).toBe(false);
  });

  it('says in a comment what the CRDs cannot carry', () => {
    const y = exportDesign(typedDesign(), 'operator');
    expect(y).toContain(
      `# internal: the Exchange CRD has no such field, so It's \${internal} is created as an ordinary exchange`,
    );
    expect(y).toContain('# type and arguments cannot be updated once the queue exists (a classic -> quorum change');
  });
});

// ---------------------------------------------------------------- terraform
interface AttrSchema {
  type: 'string' | 'bool' | 'int' | 'map_string' | 'json_string';
  required: boolean;
}
interface BlockSchema {
  required: boolean;
  maxItems: number;
  attributes: Record<string, AttrSchema>;
  conflicts?: string[][];
}
interface ResourceSchema {
  attributes: Record<string, AttrSchema>;
  blocks: Record<string, BlockSchema>;
  conflicts?: string[][];
}
const providerSchema = readJson('terraform-provider-rabbitmq/resources.json') as unknown as Record<
  string,
  ResourceSchema
>;
const isInterpolation = (v: unknown): boolean => typeof v === 'string' && /^\$\{[^]*\}$/.test(v);

/** Problems of one HCL body (as hcl2json gives it) against attributes and blocks of a schema. */
function checkBody(
  where: string,
  body: Record<string, unknown>,
  s: { attributes: Record<string, AttrSchema>; blocks?: Record<string, BlockSchema>; conflicts?: string[][] },
): string[] {
  const problems: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    const a = s.attributes[k];
    const b = s.blocks?.[k];
    if (b) {
      if (!Array.isArray(v) || v.length > b.maxItems) problems.push(`${where}.${k}: a block, at most ${b.maxItems}`);
      else for (const item of v) problems.push(...checkBody(`${where}.${k}`, item as Record<string, unknown>, b));
      continue;
    }
    if (!a) {
      problems.push(`${where}.${k}: not an attribute of the provider`);
      continue;
    }
    const ok =
      a.type === 'string'
        ? typeof v === 'string'
        : a.type === 'bool'
          ? typeof v === 'boolean'
          : a.type === 'int'
            ? Number.isInteger(v)
            : a.type === 'json_string'
              ? isInterpolation(v) && (v as string).startsWith('${jsonencode(')
              : typeof v === 'object' &&
                v !== null &&
                !Array.isArray(v) &&
                Object.values(v).every((x) => typeof x === 'string');
    if (!ok) problems.push(`${where}.${k}: expected ${a.type}, got ${JSON.stringify(v)}`);
  }
  for (const [k, a] of Object.entries(s.attributes))
    if (a.required && !(k in body)) problems.push(`${where}.${k}: required`);
  for (const [k, b] of Object.entries(s.blocks ?? {}))
    if (b.required && !(k in body)) problems.push(`${where}.${k}: required block`);
  for (const pair of s.conflicts ?? [])
    if (pair.every((k) => k in body)) problems.push(`${where}: ${pair.join(' and ')} conflict`);
  return problems;
}

type TfResources = Record<string, Record<string, Record<string, unknown>[]>>;
/** A value as hcl2json gives it: literal strings with `$${` kept escaped, expressions as `${...}`. */
function tfValue(v: unknown, res: TfResources): unknown {
  if (typeof v !== 'string') return v;
  if (!isInterpolation(v)) return v.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{');
  const expr = v.slice(2, -1);
  const ref = /^(rabbitmq_[a-z]+)\.([A-Za-z0-9_-]+)\.name$/.exec(expr);
  if (ref) return tfValue(res[ref[1]!]![ref[2]!]![0]!.name, res);
  const json = /^jsonencode\(([^]*)\)$/.exec(expr);
  if (!json) throw new Error(`unexpected expression ${expr}`);
  // the writer's object syntax, one entry a line, back to JSON
  const text = json[1]!
    .replace(/\b(rabbitmq_[a-z]+)\.([A-Za-z0-9_-]+)\.name\b/g, (_m, type: string, name: string) =>
      JSON.stringify(res[type]![name]![0]!.name),
    )
    .replace(/^(\s*"(?:[^"\\]|\\.)*") = /gm, '$1: ')
    .replace(/([^{[,\s])\n(\s*")/g, '$1,\n$2');
  return JSON.parse(text.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{'));
}
function topologyFromTerraform(res: TfResources): Topology {
  const all = (type: string) => Object.values(res[type] ?? {}).map((b) => b[0]!);
  const args = (body: Record<string, unknown>) =>
    (tfValue(body.arguments_json, res) ??
      Object.fromEntries(
        Object.entries((body.arguments as Record<string, unknown>) ?? {}).map(([k, v]) => [k, tfValue(v, res)]),
      )) as AmqpTable;
  return {
    exchanges: all('rabbitmq_exchange').map((r) => {
      const st = (r.settings as Record<string, unknown>[])[0]!;
      return {
        name: tfValue(r.name, res) as string,
        type: st.type as never,
        durable: st.durable as boolean,
        auto_delete: st.auto_delete as boolean,
        arguments: args(st),
      };
    }),
    queues: all('rabbitmq_queue').map((r) => {
      const st = (r.settings as Record<string, unknown>[])[0]!;
      return {
        name: tfValue(r.name, res) as string,
        durable: st.durable as boolean,
        auto_delete: st.auto_delete as boolean,
        arguments: args(st),
      };
    }),
    bindings: all('rabbitmq_binding').map((r) => ({
      source: tfValue(r.source, res) as string,
      destination: tfValue(r.destination, res) as string,
      destination_type: r.destination_type as never,
      routing_key: tfValue(r.routing_key, res) as string,
      arguments: args(r),
    })),
    policies: all('rabbitmq_policy').map((r) => {
      const p = (r.policy as Record<string, unknown>[])[0]!;
      // the provider turns integer-looking definition strings back into integers
      const def = Object.fromEntries(
        Object.entries(p.definition as Record<string, string>).map(([k, v]) => [
          k,
          /^-?\d+$/.test(v) ? Number(v) : tfValue(v, res),
        ]),
      );
      return {
        name: tfValue(r.name, res) as string,
        pattern: tfValue(p.pattern, res) as string,
        'apply-to': p.apply_to as never,
        priority: p.priority as number,
        definition: def as AmqpTable,
      };
    }),
  };
}
/** What the provider can carry: no internal flag, string exchange arguments only. */
function terraformView(t: Topology): Topology {
  return {
    ...t,
    exchanges: t.exchanges.map((x) => ({
      ...x,
      internal: false,
      arguments: Object.fromEntries(Object.entries(x.arguments ?? {}).filter(([, v]) => typeof v === 'string')),
    })),
  };
}

describe('terraform export: parsed by a real HCL parser, every resource matches the provider schema', () => {
  it.each(designs)('%s', async (_id, design) => {
    const hcl = exportDesign(design, 'terraform', { vhost: 'retry' });
    const parsed = (await parseHcl('main.tf', hcl)) as {
      terraform: { required_providers: { rabbitmq: { source: string } }[] }[];
      resource: Record<string, Record<string, Record<string, unknown>[]>>;
    };
    expect(parsed.terraform[0]!.required_providers[0]!.rabbitmq.source).toBe('cyrilgdn/rabbitmq');
    const problems: string[] = [];
    const declared = new Set<string>();
    for (const [type, byName] of Object.entries(parsed.resource)) {
      expect(providerSchema[type], type).toBeDefined();
      for (const [name, bodies] of Object.entries(byName)) {
        expect(bodies).toHaveLength(1);
        declared.add(`${type}.${name}`);
        problems.push(...checkBody(`${type}.${name}`, bodies[0]!, providerSchema[type]!));
      }
    }
    expect(problems).toEqual([]);
    const t = design.topology;
    const count = (type: string) => Object.keys(parsed.resource[type] ?? {}).length;
    expect([
      count('rabbitmq_vhost'),
      count('rabbitmq_exchange'),
      count('rabbitmq_queue'),
      count('rabbitmq_binding'),
      count('rabbitmq_policy'),
    ]).toEqual([1, t.exchanges.length, t.queues.length, t.bindings.length, (t.policies ?? []).length]);
    // every reference names a declared resource (that is what orders the apply)
    for (const ref of hcl.matchAll(/\b(rabbitmq_[a-z]+)\.([A-Za-z0-9_-]+)\.name\b/g))
      expect(declared, ref[0]).toContain(`${ref[1]}.${ref[2]}`);
    // round trip: what the provider can carry reads back as the design, typed arguments typed
    expect(topologyKey(topologyFromTerraform(parsed.resource))).toEqual(topologyKey(terraformView(t)));
  });

  it('the provider check can fail: an attribute the provider lacks is reported', () => {
    expect(checkBody('r', { name: 'x', internal: true }, providerSchema.rabbitmq_vhost!)).toEqual([
      'r.internal: not an attribute of the provider',
    ]);
  });
});

// ---------------------------------------------------------------- asyncapi
interface AsyncApiChannel {
  bindings: {
    amqp: {
      is: 'routingKey' | 'queue';
      exchange?: { name: string; type: string; durable: boolean; autoDelete: boolean };
      queue?: { name: string; durable: boolean; autoDelete: boolean };
      'x-exchange-type'?: string;
      'x-internal'?: boolean;
    };
  };
  'x-bindings'?: { exchange: string; routingKey: string; arguments?: AmqpTable }[];
  'x-other-arguments'?: AmqpTable;
  [ext: string]: unknown;
}
/** The inverse mapping, for the round trip: channels, their x- extensions and x-bindings back to a topology. */
function topologyFromAsyncApi(doc: {
  channels: Record<string, AsyncApiChannel>;
  'x-policies'?: PolicyDef[];
}): Topology {
  const args = (c: AsyncApiChannel): AmqpTable => ({
    ...(Object.fromEntries(
      Object.entries(c).filter(([k]) => k.startsWith('x-') && k !== 'x-bindings' && k !== 'x-other-arguments'),
    ) as AmqpTable),
    ...(c['x-other-arguments'] ?? {}),
  });
  const chans = Object.values(doc.channels);
  const bindingsOf = (c: AsyncApiChannel, destination: string, destination_type: 'queue' | 'exchange') =>
    (c['x-bindings'] ?? []).map((b) => ({
      source: b.exchange,
      destination,
      destination_type,
      routing_key: b.routingKey,
      arguments: b.arguments ?? {},
    }));
  return {
    exchanges: chans.flatMap((c) => {
      const x = c.bindings.amqp.exchange;
      return x
        ? [
            {
              name: x.name,
              type: (c.bindings.amqp['x-exchange-type'] ?? x.type) as never,
              durable: x.durable,
              auto_delete: x.autoDelete,
              internal: c.bindings.amqp['x-internal'] ?? false,
              arguments: args(c),
            },
          ]
        : [];
    }),
    queues: chans.flatMap((c) => {
      const q = c.bindings.amqp.queue;
      return q ? [{ name: q.name, durable: q.durable, auto_delete: q.autoDelete, arguments: args(c) }] : [];
    }),
    bindings: chans.flatMap((c) =>
      c.bindings.amqp.queue
        ? bindingsOf(c, c.bindings.amqp.queue.name, 'queue')
        : bindingsOf(c, c.bindings.amqp.exchange!.name, 'exchange'),
    ),
    policies: doc['x-policies'] ?? [],
  };
}
const sortBy = <T>(xs: readonly T[]): T[] => [...xs].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
const topologyKey = (t: Topology) => ({
  exchanges: sortBy(
    t.exchanges.map((x) => ({
      name: x.name,
      type: x.type,
      durable: x.durable ?? true,
      auto_delete: x.auto_delete ?? false,
      internal: x.internal ?? false,
      arguments: x.arguments ?? {},
    })),
  ),
  queues: sortBy(
    t.queues.map((q) => ({
      name: q.name,
      durable: q.durable ?? true,
      auto_delete: q.auto_delete ?? false,
      arguments: q.arguments ?? {},
    })),
  ),
  bindings: sortBy(
    t.bindings.map((b) => ({
      source: b.source,
      destination: b.destination,
      destination_type: b.destination_type,
      routing_key: b.routing_key,
      arguments: b.arguments ?? {},
    })),
  ),
  policies: sortBy(
    (t.policies ?? []).map((p) => ({
      name: p.name,
      pattern: p.pattern,
      'apply-to': p['apply-to'] ?? 'all',
      priority: p.priority ?? 0,
      definition: p.definition,
    })),
  ),
});

describe('asyncapi export: valid for the official AsyncAPI parser', () => {
  const parser = new AsyncApiParser();
  it.each(designs)(
    '%s',
    async (_id, design) => {
      const text = exportDesign(design, 'asyncapi');
      const { document, diagnostics } = await parser.parse(text);
      expect(diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
      expect(document).toBeDefined();
      expect(document!.channels().length).toBe(design.topology.exchanges.length + design.topology.queues.length);
      expect(document!.operations().filter((o) => o.action() === 'receive').length).toBe(
        design.consumers.filter((c) => design.topology.queues.some((q) => q.name === c.queue)).length,
      );
      // round trip: exchanges, queues (every argument) and bindings read back from the document
      expect(topologyKey(topologyFromAsyncApi(JSON.parse(text)))).toEqual(topologyKey(design.topology));
    },
    60_000,
  );

  it('the parser check can fail: an exchange type the AMQP binding does not know is an error', async () => {
    const doc = JSON.parse(exportDesign(template('dlx-ttl-wait-queue'), 'asyncapi')) as {
      channels: Record<string, { bindings: { amqp: { exchange?: { type: string } } } }>;
    };
    const ch = Object.values(doc.channels).find((c) => c.bindings.amqp.exchange)!;
    ch.bindings.amqp.exchange!.type = 'x-delayed-message';
    const { diagnostics } = await parser.parse(JSON.stringify(doc));
    expect(diagnostics.some((d) => d.severity === 0)).toBe(true);
  }, 60_000);
});
