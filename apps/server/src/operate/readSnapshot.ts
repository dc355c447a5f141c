/** A vhost's definitions read through the management API, as the core's BrokerSnapshot. */
import type { AmqpTable, BrokerSnapshot } from '@retry-studio/topology-core';
import type { OperateTarget } from './operateTarget.js';
import { brokerVersion } from './operateTarget.js';

export async function readSnapshot(t: OperateTarget): Promise<BrokerSnapshot> {
  const [v, exchanges, queues, bindings, policies] = await Promise.all([
    brokerVersion(t),
    t.management.listExchanges(t.vhost),
    t.management.listQueues(t.vhost),
    t.management.listBindings(t.vhost),
    t.management.listPolicies(t.vhost),
  ]);
  return {
    rabbitVersion: v.version,
    vhost: t.vhost,
    exchanges: exchanges.map((x) => ({ name: x.name, type: x.type, durable: x.durable, auto_delete: x.auto_delete, internal: x.internal, arguments: x.arguments as AmqpTable })),
    queues: queues.map((q) => ({
      name: q.name,
      durable: q.durable,
      auto_delete: q.auto_delete,
      exclusive: q.exclusive === true,
      arguments: q.arguments as AmqpTable,
      ...(typeof q.type === 'string' ? { type: q.type } : {}),
      ...(typeof q.consumers === 'number' ? { consumers: q.consumers } : {}),
    })),
    bindings: bindings.map((b) => ({ source: b.source, destination: b.destination, destination_type: b.destination_type, routing_key: b.routing_key, arguments: b.arguments as AmqpTable })),
    policies: policies.map((p) => ({ name: p.name, pattern: p.pattern, definition: p.definition as AmqpTable, ...(p['apply-to'] ? { 'apply-to': p['apply-to'] } : {}), ...(p.priority !== undefined ? { priority: p.priority } : {}) })),
  };
}
