/**
 * A whole-broker export of the size users bring (10,000 queues in several vhosts, with
 * dead-letter routes, TTL wait queues, policies, bindings and vendor fields): built, never
 * committed. `targetBytes` pads each queue's vendor `description` to reach a file size.
 */
export interface LargeExportOptions {
  readonly queues: number;
  readonly vhosts?: number;
  readonly targetBytes?: number;
}

export function largeExport(o: LargeExportOptions): Record<string, unknown> {
  const vhostCount = o.vhosts ?? 4;
  const vhosts = Array.from({ length: vhostCount }, (_, i) => (i === 0 ? '/' : `tenant-${i}`));
  const perQueueBytes = o.targetBytes ? Math.max(0, Math.floor(o.targetBytes / o.queues) - 700) : 0;
  const pad = 'x'.repeat(perQueueBytes);
  const queues: Record<string, unknown>[] = [];
  const bindings: Record<string, unknown>[] = [];
  const exchanges: Record<string, unknown>[] = [];
  const policies: Record<string, unknown>[] = [];
  for (const vhost of vhosts) {
    exchanges.push({
      name: 'events',
      vhost,
      type: 'topic',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    });
    exchanges.push({
      name: 'events.dlx',
      vhost,
      type: 'direct',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    });
    exchanges.push({
      name: 'events.retry',
      vhost,
      type: 'direct',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    });
    policies.push({
      vhost,
      name: 'ttl-wait',
      pattern: '\\.wait$',
      'apply-to': 'queues',
      priority: 1,
      definition: { 'message-ttl': 5000 },
    });
    policies.push({
      vhost,
      name: 'limits',
      pattern: '.*',
      'apply-to': 'queues',
      priority: 0,
      definition: { 'max-length': 100000 },
    });
  }
  for (let i = 0; i < o.queues; i++) {
    const vhost = vhosts[i % vhostCount]!;
    const kind = i % 3; // work, wait, dlq
    const name = `svc${Math.floor(i / 3)}.${['work', 'wait', 'dlq'][kind]}`;
    const args =
      kind === 0
        ? {
            'x-queue-type': 'quorum',
            'x-dead-letter-exchange': 'events.retry',
            'x-dead-letter-routing-key': name.replace('.work', '.wait'),
            'x-delivery-limit': 10,
          }
        : kind === 1
          ? { 'x-dead-letter-exchange': 'events', 'x-dead-letter-routing-key': name.replace('.wait', '.retry') }
          : { 'x-queue-type': 'quorum' };
    queues.push({
      name,
      vhost,
      durable: true,
      auto_delete: false,
      arguments: args,
      ...(pad ? { description: pad } : {}),
    });
    if (kind === 0) {
      bindings.push({
        source: 'events',
        vhost,
        destination: name,
        destination_type: 'queue',
        routing_key: `${name}.#`,
        arguments: {},
      });
      bindings.push({
        source: 'events',
        vhost,
        destination: name,
        destination_type: 'queue',
        routing_key: name.replace('.work', '.retry'),
        arguments: {},
      });
    }
    if (kind === 1)
      bindings.push({
        source: 'events.retry',
        vhost,
        destination: name,
        destination_type: 'queue',
        routing_key: name,
        arguments: {},
      });
    if (kind === 2)
      bindings.push({
        source: 'events.dlx',
        vhost,
        destination: name,
        destination_type: 'queue',
        routing_key: name,
        arguments: {},
      });
  }
  return {
    rabbit_version: '3.13.7',
    users: [{ name: 'admin', password_hash: 'x', tags: ['administrator'] }],
    vhosts: vhosts.map((name) => ({ name })),
    permissions: vhosts.map((vhost) => ({ user: 'admin', vhost, configure: '.*', write: '.*', read: '.*' })),
    parameters: [{ vhost: '/', component: 'shovel', name: 'move-dlq', value: {} }],
    global_parameters: [{ name: 'cluster_name', value: 'big' }],
    policies,
    queues,
    exchanges,
    bindings,
  };
}
