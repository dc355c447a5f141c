import { describe, expect, it } from 'vitest';
import { parseAmqpUrl } from './amqpUrl.js';
import { ManagementClient, ManagementError } from './management.js';
import { openConnection } from './connection.js';
import { BROKER_310 } from '../testing/testBrokers.js';

const url = parseAmqpUrl(process.env.AMQP_URL);

describe('ManagementClient (real broker)', () => {
  it('reads the overview with exchange types', async () => {
    const m = new ManagementClient(url, { baseUrl: BROKER_310.managementUrl });
    const ov = await m.overview();
    expect(ov.exchange_types.map((t) => t.name)).toEqual(
      expect.arrayContaining(['direct', 'fanout', 'topic', 'headers']),
    );
  });

  it('creates a vhost usable over AMQP, lists its objects, deletes it', async () => {
    const m = new ManagementClient(url, { baseUrl: BROKER_310.managementUrl });
    const vhost = `retry-studio-test-${process.pid}-${Date.now()}`;
    await m.createVhost(vhost);
    try {
      expect((await m.listVhosts()).map((v) => v.name)).toContain(vhost);
      const conn = await openConnection({ ...url, vhost }, { purpose: 'apply' });
      const ch = await conn.createChannel();
      await ch.assertExchange('x1', 'topic', { durable: false });
      await ch.assertQueue('q1', { durable: false, arguments: { 'x-message-ttl': 1000 } });
      await ch.bindQueue('q1', 'x1', 'a.#');
      ch.sendToQueue('q1', Buffer.from('m'));
      await conn.close();
      expect((await m.listExchanges(vhost)).map((e) => e.name)).toContain('x1');
      expect((await m.listQueues(vhost)).find((q) => q.name === 'q1')?.arguments).toEqual({ 'x-message-ttl': 1000 });
      expect(
        (await m.listBindings(vhost)).some(
          (b) => b.source === 'x1' && b.destination === 'q1' && b.routing_key === 'a.#',
        ),
      ).toBe(true);
      const details = await m.queue(vhost, 'q1');
      expect(details?.name).toBe('q1');
      expect(await m.queue(vhost, 'nope')).toBeUndefined();
    } finally {
      await m.deleteVhost(vhost);
    }
    expect((await m.listVhosts()).map((v) => v.name)).not.toContain(vhost);
    await m.deleteVhost(vhost); // idempotent
  });

  it('gives clear errors for bad credentials and an unreachable API', async () => {
    const bad = new ManagementClient({ ...url, password: 'nope' }, { baseUrl: BROKER_310.managementUrl });
    await expect(bad.overview()).rejects.toThrow(/refused user 'guest' \(401\)/);
    const away = new ManagementClient(url, { baseUrl: 'http://127.0.0.1:1', timeoutMs: 1000 });
    const err = await away.overview().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ManagementError);
    expect((err as Error).message).toMatch(/not reachable/);
    expect(await away.available()).toBe(false);
  });
});
