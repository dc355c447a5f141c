/**
 * A vhost's definitions read through the management API, as the core's BrokerSnapshot: two
 * requests whatever the size (the vhost's definitions, and the queue listing for types and
 * consumer counts); the definitions carry no stats, so they stay cheap for thousands of queues.
 */
import type { AmqpTable } from '@retry-studio/topology-core/model';
import type { BrokerSnapshot } from '@retry-studio/topology-core/operate';
import type { MgmtVhostDefinitions } from '../broker/index.js';
import type { OperateTarget } from './operateTarget.js';
import { brokerVersion } from './operateTarget.js';

export async function readSnapshot(t: OperateTarget): Promise<BrokerSnapshot> {
  const [v, raw, live] = await Promise.all([
    brokerVersion(t),
    t.management.vhostDefinitions(t.vhost),
    t.management.queueDepths(t.vhost),
  ]);
  const defs = { exchanges: [], queues: [], bindings: [], ...raw } as unknown as MgmtVhostDefinitions;
  const byName = new Map(live.map((q) => [q.name, q]));
  return {
    rabbitVersion: v.version,
    vhost: t.vhost,
    exchanges: defs.exchanges.map((x) => ({
      name: x.name,
      type: x.type,
      durable: x.durable,
      auto_delete: x.auto_delete,
      internal: x.internal,
      arguments: x.arguments as AmqpTable,
    })),
    // exclusive queues are not in the definitions: they belong to one connection
    queues: defs.queues.map((q) => {
      const l = byName.get(q.name);
      const type = l?.type ?? q.type;
      return {
        name: q.name,
        durable: q.durable,
        auto_delete: q.auto_delete,
        arguments: q.arguments as AmqpTable,
        ...(typeof type === 'string' ? { type } : {}),
        ...(typeof l?.consumers === 'number' ? { consumers: l.consumers } : {}),
        // the broker's own choice of policy: the truth where equal priorities tie
        ...(typeof l?.policy === 'string' && l.policy !== '' ? { policy: l.policy } : {}),
      };
    }),
    bindings: defs.bindings.map((b) => ({
      source: b.source,
      destination: b.destination,
      destination_type: b.destination_type,
      routing_key: b.routing_key,
      arguments: b.arguments as AmqpTable,
    })),
    policies: (defs.policies ?? []).map((p) => ({
      name: p.name,
      pattern: p.pattern,
      definition: p.definition as AmqpTable,
      ...(p['apply-to'] ? { 'apply-to': p['apply-to'] } : {}),
      ...(p.priority !== undefined ? { priority: p.priority } : {}),
    })),
  };
}
