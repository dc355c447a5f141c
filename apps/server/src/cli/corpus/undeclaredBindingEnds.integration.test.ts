/**
 * Issue 29.4, measured where the broker decides: a definitions file whose bindings name a queue or
 * an exchange it does not declare, loaded into a throwaway vhost on each test broker with
 * POST /api/definitions/VHOST. 3.10.8 skips those bindings and loads the rest (204); 4.3.6 loads the
 * rest too, every other binding included, and answers 400 resources_missing (not atomic: the answer can
 * come before the last bindings are in place). Our reading
 * holds what the broker holds and skips exactly those bindings (io/brokerObjects.ts).
 */
import { describe, expect, it } from 'vitest';
import { exportDefinitions, importDefinitions } from '@retry-studio/topology-core/io';
import type { BindingDef } from '@retry-studio/topology-core/model';
import { ManagementClient, parseAmqpUrl } from '../../broker/index.js';
import { TEST_BROKERS } from '../../testing/testBrokers.js';
import { waitUntil } from '../../testing/waitUntil.js';

const bind = (
  source: string,
  destination: string,
  routing_key: string,
  destination_type: BindingDef['destination_type'] = 'queue',
): BindingDef => ({ source, destination, destination_type, routing_key, arguments: {} });
const queue = (name: string) => ({ name, durable: true, auto_delete: false, arguments: {} });

/** the per-vhost file: bindings a and e are whole, b (queue), c (destination exchange) and d (source exchange) name nothing declared */
const FILE = exportDefinitions({
  exchanges: [{ name: 'ex', type: 'direct', durable: true, auto_delete: false, internal: false, arguments: {} }],
  queues: [queue('q1'), queue('q2')],
  bindings: [
    bind('ex', 'q1', 'a'),
    bind('ex', 'missing.q', 'b'),
    bind('ex', 'missing.x', 'c', 'exchange'),
    bind('missing.src', 'q2', 'd'),
    bind('ex', 'q2', 'e'),
  ],
});

describe.each(TEST_BROKERS)('a binding to an undeclared object on RabbitMQ $name', (broker) => {
  it('the broker loads the rest (and says so its own way); we read the same', { timeout: 60_000 }, async () => {
    const mgmt = new ManagementClient(parseAmqpUrl(broker.amqpUrl), {
      baseUrl: broker.managementUrl,
      timeoutMs: 20_000,
    });
    const vhost = `rs-undeclared-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    await mgmt.createVhost(vhost);
    try {
      let refused: string | undefined;
      await mgmt.loadDefinitions(vhost, FILE).catch((e: Error) => (refused = e.message));
      // 4.3.6 answers the 400 while its import workers may still be declaring the rest: read until it settles (bounded)
      const read = async () =>
        (await mgmt.listBindings(vhost))
          .filter((b) => b.source !== '')
          .map((b) => b.routing_key)
          .sort();
      let keys: string[] = [];
      await waitUntil(async () => (keys = await read()).length >= 2, 'the whole bindings declared', {
        timeoutMs: 20_000,
        everyMs: 250,
      }).catch(() => undefined);
      const queues = (await mgmt.listQueues(vhost)).map((q) => q.name).sort();
      // both brokers: every declared object and every whole binding is in place
      expect(queues).toEqual(['q1', 'q2']);
      expect(keys).toEqual(['a', 'e']);
      if (broker.name === '3.10') expect(refused).toBeUndefined();
      else expect(refused).toMatch(/resources_missing/);
      // our reading: what the broker holds, the three others skipped and named
      const r = importDefinitions(FILE);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      expect(r.topology.bindings.map((b) => b.routing_key).sort()).toEqual(keys);
      expect(r.skippedBindings.map((b) => b.routing_key)).toEqual(['b', 'c', 'd']);
    } finally {
      await mgmt.deleteVhost(vhost);
    }
  });
});
