/**
 * The deployed design as the broker has it now (real names), read through the management API:
 * the design's exchanges and queues with the broker's arguments, the bindings that really
 * exist between them, and the vhost's policies (the core's queueConfig applies them by
 * RabbitMQ's precedence; the queue listing's own `effective_policy_definition` lags by the
 * statistics interval). The trace routes, mirrors and infers
 * with this, never with the design: a binding deleted out of band, a TTL set by a policy or a
 * queue redeclared with another dead-letter exchange is what the broker does, and the
 * comparison with the prediction (made from the design) shows the difference.
 */
import {
  brokerPolicyPins,
  POLICY_APPLY_TO,
  policyMatches,
  policyTargetOf,
  type AmqpTable,
  type ExchangeType,
  type PolicyApplyTo,
  type PolicyDef,
  type Topology,
} from '@retry-studio/topology-core/model';
import { decodeAmqpTable, type ManagementClient, type MgmtPolicy } from '../broker/index.js';

/** The broker's topology, with the operator policies in force (the core's queueConfig combines them). */
export interface BrokerTopology extends Topology {
  readonly operatorPolicies: readonly PolicyDef[];
}

/** the broker's `apply-to` when it is one the core knows (RabbitMQ's default `all` otherwise) */
function applyTo(v: string): { 'apply-to'?: PolicyApplyTo } {
  const known = POLICY_APPLY_TO.find((a) => a === v);
  return known ? { 'apply-to': known } : {};
}

const asPolicy = (p: MgmtPolicy): PolicyDef => ({
  name: p.name,
  pattern: p.pattern,
  ...applyTo(p['apply-to']),
  priority: p.priority,
  definition: decodeAmqpTable(p.definition),
});

/** `real`: the design's topology with broker names (what should be there). */
export async function readBrokerTopology(
  mgmt: ManagementClient,
  vhost: string,
  real: Topology,
): Promise<BrokerTopology> {
  const [exchanges, queues, bindings, policies, operatorPolicies] = await Promise.all([
    mgmt.listExchanges(vhost),
    mgmt.listQueues(vhost),
    mgmt.listBindings(vhost),
    mgmt.listPolicies(vhost),
    mgmt.listOperatorPolicies(vhost),
  ]);
  const xNames = new Set(real.exchanges.map((x) => x.name));
  const qNames = new Set(real.queues.map((q) => q.name));
  const outQueues = queues
    .filter((q) => qNames.has(q.name))
    .map((q) => ({
      name: q.name,
      durable: q.durable,
      auto_delete: q.auto_delete,
      arguments: decodeAmqpTable(q.arguments),
    }));
  // only the policies that apply to one of ours (others in the vhost are none of this trace's business)
  const ours = (p: PolicyDef): boolean =>
    outQueues.some((q) => policyMatches(p, q.name, policyTargetOf(q.arguments['x-queue-type']))) ||
    real.exchanges.some((x) => policyMatches(p, x.name, 'exchange'));
  const ourPolicies = policies.map(asPolicy).filter(ours);
  // the broker's own choice of policy per queue, where its listing already says (ties decided as it decided them)
  const pins = brokerPolicyPins(
    queues.filter((q) => qNames.has(q.name)),
    ourPolicies,
  );
  return {
    exchanges: exchanges
      .filter((x) => xNames.has(x.name))
      .map((x) => ({
        name: x.name,
        type: x.type as ExchangeType,
        durable: x.durable,
        auto_delete: x.auto_delete,
        internal: x.internal,
        arguments: decodeAmqpTable(x.arguments),
      })),
    queues: outQueues,
    bindings: bindings
      .filter(
        (b) =>
          b.source !== '' &&
          xNames.has(b.source) &&
          (b.destination_type === 'queue' ? qNames.has(b.destination) : xNames.has(b.destination)),
      )
      .map((b) => ({
        source: b.source,
        destination: b.destination,
        destination_type: b.destination_type,
        routing_key: b.routing_key,
        arguments: decodeAmqpTable(b.arguments),
      })),
    policies: ourPolicies,
    ...(pins ? { policyPins: pins } : {}),
    operatorPolicies: operatorPolicies.map(asPolicy).filter(ours),
  };
}

const table = (t: AmqpTable | undefined): string =>
  JSON.stringify(Object.entries(t ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)));

function keys(t: BrokerTopology): Map<string, string> {
  const m = new Map<string, string>();
  for (const x of t.exchanges) m.set(`exchange '${x.name}'`, `${x.type} ${table(x.arguments)}`);
  for (const q of t.queues) m.set(`queue '${q.name}'`, table(q.arguments));
  for (const b of t.bindings)
    m.set(
      `binding '${b.source}' -> '${b.destination}' key '${b.routing_key}'${b.arguments && Object.keys(b.arguments).length ? ' ' + table(b.arguments) : ''}`,
      '',
    );
  for (const p of t.policies ?? [])
    m.set(`policy '${p.name}'`, `${p.pattern} ${p['apply-to'] ?? 'all'} ${p.priority ?? 0} ${table(p.definition)}`);
  return m;
}

/** What changed between two readings ("binding a -> b 'k' removed", ...), empty when nothing did. */
export function topologyChanges(
  before: BrokerTopology,
  after: BrokerTopology,
  back: (name: string) => string = (n) => n,
): string[] {
  const a = keys(before);
  const b = keys(after);
  const out: string[] = [];
  const name = (k: string) => k.replace(/'([^']*)'/g, (_m, n: string) => `'${back(n)}'`);
  for (const [k, v] of a) {
    if (!b.has(k)) out.push(`${name(k)} removed`);
    else if (b.get(k) !== v) out.push(`${name(k)} changed`);
  }
  for (const k of b.keys()) if (!a.has(k)) out.push(`${name(k)} added`);
  return out;
}
