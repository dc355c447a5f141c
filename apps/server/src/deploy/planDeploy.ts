/**
 * Plan = diff of the (renamed) design against the broker's actual state, read over the
 * management HTTP API (no AMQP declarations, so nothing changes and no channel closes).
 * We diff ourselves rather than rely on a 406: RabbitMQ does not compare every argument on
 * redeclare (reliability-security.md §1).
 */
import type { AmqpTable, BindingDef, ExchangeDef, QueueDef, Topology } from '@retry-studio/topology-core';
import type { ManagementClient, MgmtBinding, MgmtExchange, MgmtQueue } from '../broker/management.js';

export type PlanStatus = 'create' | 'unchanged' | 'conflict' | 'unsupported';

interface PlanItemBase {
  readonly status: PlanStatus;
  /** the name in the design */
  readonly designName: string;
  /** the name on the broker (prefix applied) */
  readonly name: string;
  /** why: conflict details, missing plugin, ... */
  readonly message?: string;
}

export interface ExchangeShape {
  readonly type: string;
  readonly durable: boolean;
  readonly auto_delete: boolean;
  readonly internal: boolean;
  readonly arguments: AmqpTable;
}
export interface QueueShape {
  readonly durable: boolean;
  readonly auto_delete: boolean;
  readonly arguments: AmqpTable;
}

export type PlanItem =
  | (PlanItemBase & {
      readonly kind: 'exchange';
      readonly desired: ExchangeShape;
      readonly actual?: ExchangeShape;
      /** for unsupported: the plugin that provides the type and the portable alternative */
      readonly plugin?: string;
      readonly alternative?: string;
    })
  | (PlanItemBase & {
      readonly kind: 'queue';
      readonly desired: QueueShape;
      readonly actual?: QueueShape & { readonly messages: number; readonly consumers: number };
      /** the argument keys that differ */
      readonly differences?: readonly string[];
    })
  | (PlanItemBase & { readonly kind: 'binding'; readonly binding: BindingDef; readonly designBinding: BindingDef });

export interface DeployPlan {
  readonly vhost: string;
  readonly prefix: string;
  readonly items: readonly PlanItem[];
  readonly summary: Readonly<Record<PlanStatus, number>>;
  /** the vhost does not exist yet (deploy creates it) */
  readonly vhostMissing: boolean;
}

export const PLUGIN_FOR_TYPE: Readonly<Record<string, { plugin: string; alternative: string }>> = {
  'x-delayed-message': {
    plugin: 'rabbitmq_delayed_message_exchange',
    alternative:
      'compile the delay to portable TTL queues: a per-delay wait queue with x-message-ttl and x-dead-letter-exchange back to the work exchange (works on any broker)',
  },
  radlx: {
    plugin: 'rabbitmq-retry-aware-dlx (radlx, RabbitMQ 3.13.2+)',
    alternative:
      'compile the retry limit to a consumer-side check of x-death count with a parking-lot queue (portable), or a quorum queue x-delivery-limit',
  },
};

export interface BrokerState {
  readonly exchangeTypes: readonly string[];
  readonly exchanges: ReadonlyMap<string, MgmtExchange>;
  readonly queues: ReadonlyMap<string, MgmtQueue>;
  readonly bindings: readonly MgmtBinding[];
  readonly vhostExists: boolean;
}

export async function readBrokerState(mgmt: ManagementClient, vhost: string): Promise<BrokerState> {
  const [overview, vhosts] = await Promise.all([mgmt.overview(), mgmt.listVhosts()]);
  const exchangeTypes = overview.exchange_types.map((t) => t.name);
  if (!vhosts.some((v) => v.name === vhost)) {
    return { exchangeTypes, exchanges: new Map(), queues: new Map(), bindings: [], vhostExists: false };
  }
  const [exchanges, queues, bindings] = await Promise.all([mgmt.listExchanges(vhost), mgmt.listQueues(vhost), mgmt.listBindings(vhost)]);
  return {
    exchangeTypes,
    exchanges: new Map(exchanges.map((e) => [e.name, e])),
    queues: new Map(queues.map((q) => [q.name, q])),
    bindings,
    vhostExists: true,
  };
}

/** Deep equality of AMQP values, key order ignored; 5 and 5.0 are equal (JSON has one number). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameValue((a as never)[k], (b as never)[k]));
  }
  return false;
}

/** Keys whose values differ between two argument tables; `x-queue-type: classic` equals absent. */
export function argDifferences(desired: AmqpTable, actual: Record<string, unknown>): string[] {
  const norm = (t: Record<string, unknown>): Record<string, unknown> => {
    const o = { ...t };
    if (o['x-queue-type'] === 'classic') delete o['x-queue-type'];
    return o;
  };
  const d = norm(desired);
  const a = norm(actual);
  const keys = new Set([...Object.keys(d), ...Object.keys(a)]);
  return [...keys].filter((k) => !sameValue(d[k], a[k])).sort();
}

/** What differs between a desired and an existing entity: the named fields, then each argument (`arguments.k`). */
function shapeDifferences<K extends string>(fields: readonly K[], desired: Record<K, unknown> & { arguments: AmqpTable }, actual: Record<K, unknown> & { arguments: AmqpTable }): string[] {
  return [...fields.filter((k) => desired[k] !== actual[k]), ...argDifferences(desired.arguments, actual.arguments).map((k) => `arguments.${k}`)];
}

export function exchangeShape(e: ExchangeDef): ExchangeShape {
  return { type: e.type, durable: e.durable ?? true, auto_delete: e.auto_delete ?? false, internal: e.internal ?? false, arguments: e.arguments ?? {} };
}
export function queueShape(q: QueueDef): QueueShape {
  return { durable: q.durable ?? true, auto_delete: q.auto_delete ?? false, arguments: q.arguments ?? {} };
}

function bindingMatches(b: BindingDef, m: MgmtBinding): boolean {
  return (
    m.source === b.source &&
    m.destination === b.destination &&
    m.destination_type === b.destination_type &&
    m.routing_key === b.routing_key &&
    sameValue(b.arguments ?? {}, m.arguments ?? {})
  );
}

/**
 * `real` is the design's topology renamed onto the broker (prefix applied), index-aligned with
 * `design` (the original), so every item names both.
 */
export function diffTopology(design: Topology, real: Topology, state: BrokerState, target: { vhost: string; prefix: string }): DeployPlan {
  const items: PlanItem[] = [];
  const unsupportedExchanges = new Set<string>();
  real.exchanges.forEach((e, i) => {
    const designName = design.exchanges[i]!.name;
    const desired = exchangeShape(e);
    const existing = state.exchanges.get(e.name);
    if (!state.exchangeTypes.includes(e.type)) {
      unsupportedExchanges.add(e.name);
      const p = PLUGIN_FOR_TYPE[e.type];
      items.push({
        kind: 'exchange',
        status: 'unsupported',
        designName,
        name: e.name,
        desired,
        message: p
          ? `exchange type '${e.type}' needs the ${p.plugin} plugin, which this broker does not have`
          : `exchange type '${e.type}' is not known to this broker (it has: ${state.exchangeTypes.join(', ')})`,
        ...(p ? { plugin: p.plugin, alternative: p.alternative } : {}),
      });
      return;
    }
    if (!existing) return void items.push({ kind: 'exchange', status: 'create', designName, name: e.name, desired });
    const actual: ExchangeShape = {
      type: existing.type,
      durable: existing.durable,
      auto_delete: existing.auto_delete,
      internal: existing.internal,
      arguments: (existing.arguments ?? {}) as AmqpTable,
    };
    const diffs = shapeDifferences(['type', 'durable', 'auto_delete', 'internal'], desired, actual);
    items.push(
      diffs.length === 0
        ? { kind: 'exchange', status: 'unchanged', designName, name: e.name, desired, actual }
        : {
            kind: 'exchange',
            status: 'conflict',
            designName,
            name: e.name,
            desired,
            actual,
            message: `exchange '${e.name}' exists with other settings (${diffs.join(', ')}); it is left as it is`,
          },
    );
  });
  real.queues.forEach((q, i) => {
    const designName = design.queues[i]!.name;
    const desired = queueShape(q);
    const existing = state.queues.get(q.name);
    if (!existing) return void items.push({ kind: 'queue', status: 'create', designName, name: q.name, desired });
    const actual = {
      durable: existing.durable,
      auto_delete: existing.auto_delete,
      arguments: (existing.arguments ?? {}) as AmqpTable,
      messages: existing.messages ?? 0,
      consumers: existing.consumers ?? 0,
    };
    const diffs = shapeDifferences(['durable', 'auto_delete'], desired, actual);
    items.push(
      diffs.length === 0
        ? { kind: 'queue', status: 'unchanged', designName, name: q.name, desired, actual }
        : {
            kind: 'queue',
            status: 'conflict',
            designName,
            name: q.name,
            desired,
            actual,
            differences: diffs,
            message:
              `queue '${q.name}' exists with other settings (${diffs.join(', ')}) and holds ${actual.messages} message(s); ` +
              `queue arguments are immutable, so it is neither deleted nor redeclared (use a new prefix or vhost, or a policy)`,
          },
    );
  });
  real.bindings.forEach((b, i) => {
    const designBinding = design.bindings[i]!;
    const name = `${b.source} -> ${b.destination_type === 'queue' ? 'queue' : 'exchange'} ${b.destination} [${b.routing_key}]`;
    const designName = `${designBinding.source} -> ${designBinding.destination} [${designBinding.routing_key}]`;
    if (unsupportedExchanges.has(b.source) || (b.destination_type === 'exchange' && unsupportedExchanges.has(b.destination))) {
      items.push({ kind: 'binding', status: 'unsupported', designName, name, binding: b, designBinding, message: 'depends on an exchange this broker cannot declare' });
      return;
    }
    const exists = state.bindings.some((m) => bindingMatches(b, m));
    items.push({ kind: 'binding', status: exists ? 'unchanged' : 'create', designName, name, binding: b, designBinding });
  });
  const summary: Record<PlanStatus, number> = { create: 0, unchanged: 0, conflict: 0, unsupported: 0 };
  for (const it of items) summary[it.status] += 1;
  return { vhost: target.vhost, prefix: target.prefix, items, summary, vhostMissing: !state.vhostExists };
}
