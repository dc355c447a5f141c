/**
 * Plan = diff of the (renamed) design against the broker's actual state, read over the
 * management HTTP API (no AMQP declarations, so nothing changes and no channel closes).
 * We diff ourselves rather than rely on a 406: RabbitMQ does not compare every argument on
 * redeclare (reliability-security.md §1). What can change in place (a policy) and what needs a
 * new queue (an argument) is the core's table (settingChanges.ts), the one the linter reads.
 */
import {
  POLICY_KEYS,
  brokerLine,
  refusedPolicyKeys,
  exchangeDeclarationChanges,
  policyChanges,
  queueDeclarationChanges,
  queueEffectiveSettings,
  sameAmqpValue,
  type AmqpTable,
  type BindingDef,
  type BrokerProfileId,
  type ExchangeDef,
  type PolicyApplyTo,
  type PolicyDef,
  type PolicySet,
  type QueueDef,
  type Topology,
} from '@retry-studio/topology-core/model';
import type { ManagementClient, MgmtBinding, MgmtExchange, MgmtPolicy, MgmtQueue } from '../broker/management.js';
import { readCluster, type ClusterView } from '../broker/cluster.js';
import { actualPlacement, expectedPlacement } from './queuePlacement.js';
import type { DeployPlan, ExchangeShape, PlanItem, PlanStatus, QueueShape } from '@retry-studio/contract';

/** the plan's wire types are the contract's (the web reads them as they are) */
export type { DeployPlan, ExchangeShape, PlanItem, PlanStatus, QueueShape } from '@retry-studio/contract';

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
  readonly policies: ReadonlyMap<string, PolicyDef>;
  readonly operatorPolicies: readonly PolicyDef[];
  readonly vhostExists: boolean;
  /** the broker line, for the few settings that combine differently on 4.x */
  readonly profile?: BrokerProfileId;
  readonly cluster?: ClusterView;
  /** the node the management API (so the deploy's connection) is on */
  readonly node?: string;
}

/** '4.x' from RabbitMQ 4.0 on (delivery-limit -1 rules), else '3.10'. */
export function profileOfVersion(version: string | undefined): BrokerProfileId {
  return Number(version?.split('.')[0]) >= 4 ? '4.x' : '3.10';
}

export function policyFromBroker(p: MgmtPolicy): PolicyDef {
  return {
    name: p.name,
    pattern: p.pattern,
    'apply-to': p['apply-to'] as PolicyApplyTo,
    priority: p.priority,
    definition: p.definition as AmqpTable,
  };
}

export async function readBrokerState(mgmt: ManagementClient, vhost: string): Promise<BrokerState> {
  const [overview, vhosts] = await Promise.all([mgmt.overview(), mgmt.listVhosts()]);
  const exchangeTypes = overview.exchange_types.map((t) => t.name);
  const profile = profileOfVersion(overview.rabbitmq_version);
  const cluster = await readCluster(mgmt, overview.cluster_name);
  const where = { cluster, ...(overview.node ? { node: overview.node } : {}) };
  if (!vhosts.some((v) => v.name === vhost)) {
    return {
      exchangeTypes,
      exchanges: new Map(),
      queues: new Map(),
      bindings: [],
      policies: new Map(),
      operatorPolicies: [],
      vhostExists: false,
      profile,
      ...where,
    };
  }
  const [exchanges, queues, bindings, policies, operatorPolicies] = await Promise.all([
    mgmt.listExchanges(vhost),
    mgmt.listQueues(vhost),
    mgmt.listBindings(vhost),
    mgmt.listPolicies(vhost),
    // needs the policymaker tag or more; without it the plan just cannot show operator limits
    mgmt.listOperatorPolicies(vhost).catch(() => []),
  ]);
  return {
    exchangeTypes,
    exchanges: new Map(exchanges.map((e) => [e.name, e])),
    queues: new Map(queues.map((q) => [q.name, q])),
    bindings,
    policies: new Map(policies.map((p) => [p.name, policyFromBroker(p)])),
    operatorPolicies: operatorPolicies.map(policyFromBroker),
    vhostExists: true,
    profile,
    ...where,
  };
}

export function exchangeShape(e: ExchangeDef): ExchangeShape {
  return {
    type: e.type,
    durable: e.durable ?? true,
    auto_delete: e.auto_delete ?? false,
    internal: e.internal ?? false,
    arguments: e.arguments ?? {},
  };
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
    sameAmqpValue(b.arguments ?? {}, m.arguments ?? {})
  );
}

/**
 * `real` is the design's topology renamed onto the broker (prefix applied), index-aligned with
 * `design` (the original), so every item names both. `ownedPolicies`: the broker names of the
 * policies this tool created at this target (the manifest); those no longer in the design are
 * removed.
 */
/** a queue that exists with other settings: kept as it is, with what it holds */
export function queueConflictMessage(name: string, differences: readonly string[], messages: number): string {
  return (
    `queue '${name}' exists with other settings (${differences.join(', ')}) and holds ${messages} message(s); ` +
    `queue arguments are immutable, so it is neither deleted nor redeclared (use a new prefix or vhost, or a policy)`
  );
}

/** An exchange's plan: unsupported when the broker lacks its type (its bindings follow), else create, keep or conflict. */
function exchangePlanItem(e: ExchangeDef, designName: string, state: BrokerState): PlanItem {
  const desired = exchangeShape(e);
  const existing = state.exchanges.get(e.name);
  if (!state.exchangeTypes.includes(e.type)) {
    const p = PLUGIN_FOR_TYPE[e.type];
    return {
      kind: 'exchange',
      status: 'unsupported',
      designName,
      name: e.name,
      desired,
      message: p
        ? `exchange type '${e.type}' needs the ${p.plugin} plugin, which this broker does not have`
        : `exchange type '${e.type}' is not known to this broker (it has: ${state.exchangeTypes.join(', ')})`,
      ...(p ? { plugin: p.plugin, alternative: p.alternative } : {}),
    };
  }
  if (!existing) return { kind: 'exchange', status: 'create', designName, name: e.name, desired };
  const actual: ExchangeShape = {
    type: existing.type,
    durable: existing.durable,
    auto_delete: existing.auto_delete,
    internal: existing.internal,
    arguments: (existing.arguments ?? {}) as AmqpTable,
  };
  const diffs = exchangeDeclarationChanges(actual, desired).map((c) => c.field);
  return diffs.length === 0
    ? { kind: 'exchange', status: 'unchanged', designName, name: e.name, desired, actual }
    : {
        kind: 'exchange',
        status: 'conflict',
        designName,
        name: e.name,
        desired,
        actual,
        message: `exchange '${e.name}' exists with other settings (${diffs.join(', ')}); it is left as it is`,
      };
}

/** A queue's plan: create, keep or conflict (arguments are immutable), with its effective settings and placement. */
function queuePlanItem(q: QueueDef, designName: string, state: BrokerState, policySet: PolicySet): PlanItem {
  const desired = queueShape(q);
  const effective = queueEffectiveSettings(q, policySet, state.profile ? { profile: state.profile } : {});
  const existing = state.queues.get(q.name);
  if (!existing) {
    const placement = state.cluster ? expectedPlacement(desired.arguments, state.cluster, state.node) : undefined;
    return {
      kind: 'queue',
      status: 'create',
      designName,
      name: q.name,
      desired,
      effective,
      ...(placement ? { placement } : {}),
    };
  }
  const placement = state.cluster ? actualPlacement(existing) : undefined;
  const actual = {
    durable: existing.durable,
    auto_delete: existing.auto_delete,
    arguments: (existing.arguments ?? {}) as AmqpTable,
    messages: existing.messages ?? 0,
    consumers: existing.consumers ?? 0,
  };
  const diffs = queueDeclarationChanges(actual, desired).map((c) => c.field);
  return diffs.length === 0
    ? {
        kind: 'queue',
        status: 'unchanged',
        designName,
        name: q.name,
        desired,
        actual,
        effective,
        ...(placement ? { placement } : {}),
      }
    : {
        kind: 'queue',
        status: 'conflict',
        designName,
        name: q.name,
        desired,
        actual,
        effective,
        ...(placement ? { placement } : {}),
        differences: diffs,
        message: queueConflictMessage(q.name, diffs, actual.messages),
      };
}

/** A policy's plan: refused by this broker line, created, kept, or updated in place. */
function policyPlanItem(p: PolicyDef, designName: string, state: BrokerState): PlanItem {
  const actual = state.policies.get(p.name);
  // a key this broker line refuses ("are not recognised policy settings"): say so before apply fails on it
  const refused = state.profile ? refusedPolicyKeys(p.definition, state.profile) : [];
  if (state.profile && refused.length > 0)
    return {
      kind: 'policy',
      status: 'unsupported',
      designName,
      name: p.name,
      desired: p,
      ...(actual ? { actual } : {}),
      message: `RabbitMQ ${brokerLine(state.profile)} does not accept the policy key${refused.length > 1 ? 's' : ''} ${refused.join(', ')} (${refused.map((k) => `${k}: ${POLICY_KEYS[k]!.only} only`).join('; ')}); the policy is not applied`,
    };
  if (!actual) return { kind: 'policy', status: 'create', designName, name: p.name, desired: p };
  const changes = policyChanges(actual, p);
  return changes.length === 0
    ? { kind: 'policy', status: 'unchanged', designName, name: p.name, desired: p, actual }
    : {
        kind: 'policy',
        status: 'update',
        designName,
        name: p.name,
        desired: p,
        actual,
        changes,
        message: `policy '${p.name}' is updated in place (${changes.map((c) => c.field).join(', ')}): the queues it matches keep their messages`,
      };
}

export function diffTopology(
  design: Topology,
  real: Topology,
  state: BrokerState,
  target: { vhost: string; prefix: string },
  ownedPolicies: readonly string[] = [],
): DeployPlan {
  const items: PlanItem[] = [];
  const unsupportedExchanges = new Set<string>();
  real.exchanges.forEach((e, i) => {
    const item = exchangePlanItem(e, design.exchanges[i]!.name, state);
    if (item.status === 'unsupported') unsupportedExchanges.add(e.name);
    items.push(item);
  });
  const policySet = { policies: real.policies ?? [], operatorPolicies: state.operatorPolicies };
  real.queues.forEach((q, i) => items.push(queuePlanItem(q, design.queues[i]!.name, state, policySet)));
  real.bindings.forEach((b, i) => {
    const designBinding = design.bindings[i]!;
    const name = `${b.source} -> ${b.destination_type === 'queue' ? 'queue' : 'exchange'} ${b.destination} [${b.routing_key}]`;
    const designName = `${designBinding.source} -> ${designBinding.destination} [${designBinding.routing_key}]`;
    if (
      unsupportedExchanges.has(b.source) ||
      (b.destination_type === 'exchange' && unsupportedExchanges.has(b.destination))
    ) {
      items.push({
        kind: 'binding',
        status: 'unsupported',
        designName,
        name,
        binding: b,
        designBinding,
        message: 'depends on an exchange this broker cannot declare',
      });
      return;
    }
    const exists = state.bindings.some((m) => bindingMatches(b, m));
    items.push({
      kind: 'binding',
      status: exists ? 'unchanged' : 'create',
      designName,
      name,
      binding: b,
      designBinding,
    });
  });
  const designPolicies = new Set<string>();
  (real.policies ?? []).forEach((p, i) => {
    designPolicies.add(p.name);
    items.push(policyPlanItem(p, design.policies![i]!.name, state));
  });
  for (const name of ownedPolicies) {
    const actual = state.policies.get(name);
    if (designPolicies.has(name) || !actual) continue;
    items.push({
      kind: 'policy',
      status: 'remove',
      designName: name.startsWith(target.prefix) ? name.slice(target.prefix.length) : name,
      name,
      actual,
      message: `policy '${name}' is no longer in the design`,
    });
  }
  const summary: Record<PlanStatus, number> = {
    create: 0,
    update: 0,
    remove: 0,
    unchanged: 0,
    conflict: 0,
    unsupported: 0,
  };
  for (const it of items) summary[it.status] += 1;
  return {
    vhost: target.vhost,
    prefix: target.prefix,
    items,
    summary,
    vhostMissing: !state.vhostExists,
    ...(state.cluster ? { cluster: state.cluster } : {}),
  };
}
