/**
 * binary-delay-levels on the real broker: the delay written in binary in the routing key
 * makes the message wait in the levels whose bit is 1 and arrive after about that delay,
 * through exchange-to-exchange bindings and TTL dead-lettering, as the simulator predicts.
 * (retry-scenario/1 cannot express this template's header-stripping republish; this test
 * checks its topology directly.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { exportDefinitions } from '@retry-studio/topology-core/io';
import { designToSimulation, simulate } from '@retry-studio/topology-core/sim';
import { binaryDelayRoutingKey, buildTemplate } from '@retry-studio/topology-core/templates';
import { DEFAULT_AMQP_URL, ManagementClient, openConnection, parseAmqpUrl, withVhost } from '../broker/index.js';
import { BROKER_310 } from '../testing/testBrokers.js';

const url = parseAmqpUrl(DEFAULT_AMQP_URL);
const mgmt = new ManagementClient(url, { baseUrl: BROKER_310.managementUrl });
const vhost = `retry-binary-delay-${process.pid}`;
afterAll(() => mgmt.deleteVhost(vhost));

describe('binary delay levels on RabbitMQ', () => {
  it('a message published with delay d (in units) arrives after d units', async () => {
    const r = buildTemplate('binary-delay-levels', { levels: 4, unitMs: 100, delaysMs: [500] });
    if (!r.ok) throw new Error('build');
    const t = r.template.design.topology;
    await mgmt.createVhost(vhost);
    const conn = await openConnection(withVhost(url, vhost), { purpose: 'cli', label: 'binary-delay-test' });
    try {
      const ch = await conn.createConfirmChannel();
      const defs = exportDefinitions(t);
      for (const x of defs.exchanges)
        await ch.assertExchange(x.name as string, x.type as string, {
          durable: true,
          arguments: x.arguments as object,
        });
      for (const q of defs.queues)
        await ch.assertQueue(q.name as string, { durable: true, arguments: q.arguments as object });
      for (const b of t.bindings)
        if (b.destination_type === 'queue') await ch.bindQueue(b.destination, b.source, b.routing_key, b.arguments);
        else await ch.bindExchange(b.destination, b.source, b.routing_key, b.arguments);
      const arrivals: number[] = [];
      const start = Date.now();
      await ch.consume('orders.q', (m) => {
        if (!m) return;
        arrivals.push(Date.now() - start);
        ch.ack(m);
      });
      const key = binaryDelayRoutingKey(5, 4, 'orders.q'); // 0.1.0.1.orders.q: levels 2 (400 ms) and 0 (100 ms)
      expect(key).toBe('0.1.0.1.orders.q');
      ch.publish('orders.delay.03', key, Buffer.from('m'), {});
      await ch.waitForConfirms();
      const deadline = Date.now() + 5000;
      while (arrivals.length === 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
      expect(arrivals).toHaveLength(1);
      expect(arrivals[0]!).toBeGreaterThanOrEqual(450);
      expect(arrivals[0]!).toBeLessThan(1500);
      // the simulator says the same: 500 ms
      const sim = simulate({
        ...designToSimulation(r.template.design, { messages: 0 }),
        consumers: [{ id: 'c', queue: 'orders.q', behaviour: { kind: 'script', actions: [{ kind: 'ack' }] } }],
        steps: [{ kind: 'publish', exchange: 'orders.delay.03', routingKey: key, body: 'm' }],
      });
      expect(sim.events.find((e) => e.kind === 'delivered')?.t).toBe(500);
      await ch.close();
    } finally {
      await conn.close();
    }
  }, 30_000);
});
