/**
 * Where a design is deployed: a vhost and a name prefix. Two designs never collide because
 * each gets its own prefix (default: derived from the design name) or its own vhost.
 * Renaming covers every place a name is referenced: bindings, `x-dead-letter-exchange`,
 * `alternate-exchange`, a DLRK that names a queue through the default exchange, publishers,
 * consumers and their republish actions.
 */
import type {
  AmqpTable,
  BindingDef,
  ConsumerAction,
  ConsumerBehaviour,
  ConsumerSpec,
  Counter,
  Design,
  ExchangeDef,
  PublisherSpec,
  QueueDef,
  Rule,
  Topology,
  ValueExpr,
  Condition,
} from '@retry-studio/topology-core';
import { renamePolicy } from './renamePolicy.js';

export interface DeployTarget {
  readonly vhost: string;
  readonly prefix: string;
}

export function slugify(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return s === '' ? 'design' : s;
}

/** Explicit prefix or vhost wins; otherwise `rs.<slug>.` in `/`. */
export function resolveTarget(designName: string, opts: { prefix?: string; vhost?: string; urlVhost?: string }): DeployTarget {
  if (opts.vhost !== undefined) return { vhost: opts.vhost, prefix: opts.prefix ?? '' };
  return { vhost: opts.urlVhost ?? '/', prefix: opts.prefix ?? `rs.${slugify(designName)}.` };
}

export function deploymentId(t: DeployTarget): string {
  return `${t.vhost}|${t.prefix}`;
}

export class Renamer {
  constructor(readonly prefix: string) {}
  /** the default exchange ('') is never renamed */
  name(n: string): string {
    return n === '' ? '' : this.prefix + n;
  }
  /** strip the prefix from a real broker name (names the design does not own pass through) */
  back(n: string): string {
    return this.prefix !== '' && n.startsWith(this.prefix) ? n.slice(this.prefix.length) : n;
  }
  owns(n: string): boolean {
    return this.prefix === '' || n.startsWith(this.prefix);
  }
}

function renameArgs(args: AmqpTable | undefined, r: Renamer, keys: readonly string[]): AmqpTable | undefined {
  if (!args) return args;
  const out: Record<string, AmqpTable[string]> = {};
  for (const [k, v] of Object.entries(args)) out[k] = keys.includes(k) && typeof v === 'string' ? r.name(v) : v;
  // a DLRK through the default exchange names a queue
  if (args['x-dead-letter-exchange'] === '' && typeof args['x-dead-letter-routing-key'] === 'string') {
    out['x-dead-letter-routing-key'] = r.name(args['x-dead-letter-routing-key']);
  }
  return out;
}

export function renameTopology(t: Topology, r: Renamer): Topology {
  const exchanges: ExchangeDef[] = t.exchanges.map((e) => ({ ...e, name: r.name(e.name), arguments: renameArgs(e.arguments, r, ['alternate-exchange']) }));
  const queues: QueueDef[] = t.queues.map((q) => ({ ...q, name: r.name(q.name), arguments: renameArgs(q.arguments, r, ['x-dead-letter-exchange']) }));
  const bindings: BindingDef[] = t.bindings.map((b) => ({ ...b, source: r.name(b.source), destination: r.name(b.destination) }));
  return { exchanges, queues, bindings, ...(t.policies ? { policies: t.policies.map((p) => renamePolicy(p, r, t)) } : {}) };
}

function renameCounter(c: Counter, r: Renamer): Counter {
  return c.kind === 'deathCount' && c.queue !== undefined ? { ...c, queue: r.name(c.queue) } : c;
}
function renameExpr(v: ValueExpr, r: Renamer): ValueExpr {
  if (typeof v !== 'object') return v;
  if ('by' in v) return { ...v, by: renameCounter(v.by, r) } as ValueExpr;
  return v;
}
function renameCondition(c: Condition, r: Renamer): Condition {
  return 'counter' in c ? { ...c, counter: renameCounter(c.counter, r) } : c;
}
export function renameAction(a: ConsumerAction, r: Renamer): ConsumerAction {
  switch (a.kind) {
    case 'republish': {
      const headers = a.headers ? Object.fromEntries(Object.entries(a.headers).map(([k, v]) => [k, isExpr(v) ? renameExpr(v, r) : v])) : undefined;
      return {
        ...a,
        exchange: r.name(a.exchange),
        ...(a.routingKey !== undefined ? { routingKey: a.exchange === '' ? r.name(a.routingKey) : a.routingKey } : {}),
        ...(headers ? { headers } : {}),
        ...(a.expiration !== undefined ? { expiration: renameExpr(a.expiration, r) } : {}),
      };
    }
    case 'retryInProcess':
      return { ...a, recover: renameAction(a.recover, r) };
    default:
      return a;
  }
}
function isExpr(v: unknown): v is ValueExpr {
  return typeof v === 'string' || typeof v === 'number' || (typeof v === 'object' && v !== null && 'kind' in v);
}
function renameRule(rule: Rule, r: Renamer): Rule {
  return { ...(rule.when ? { when: renameCondition(rule.when, r) } : {}), then: renameAction(rule.then, r) };
}
export function renameBehaviour(b: ConsumerBehaviour, r: Renamer): ConsumerBehaviour {
  switch (b.kind) {
    case 'script':
      return { ...b, actions: b.actions.map((a) => renameAction(a, r)) };
    case 'worker':
      return { ...b, ...(b.onSuccess ? { onSuccess: renameAction(b.onSuccess, r) } : {}), onFailure: b.onFailure.map((x) => renameRule(x, r)) };
    case 'router':
      return { ...b, rules: b.rules.map((x) => renameRule(x, r)) };
  }
}
export function renameConsumer(c: ConsumerSpec, r: Renamer): ConsumerSpec {
  return { ...c, queue: r.name(c.queue), behaviour: renameBehaviour(c.behaviour, r) };
}
export function renamePublisher(p: PublisherSpec, r: Renamer): PublisherSpec {
  return { ...p, exchange: r.name(p.exchange), routingKey: p.exchange === '' ? r.name(p.routingKey) : p.routingKey };
}

/** The design as it lives on the broker (topology, consumers and publishers renamed). */
export function renameDesign(d: Design, r: Renamer): Design {
  return {
    ...d,
    topology: renameTopology(d.topology, r),
    consumers: d.consumers.map((c) => renameConsumer(c, r)),
    publishers: d.publishers.map((p) => renamePublisher(p, r)),
  };
}
