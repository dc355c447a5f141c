import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelModel } from 'amqplib';
import { parseAmqpUrl } from './amqpUrl.js';
import { BrokerConnectError, ManagedConnection, openConnection, withThrowawayChannel } from './connection.js';
import { BROKER_310 } from '../testing/testBrokers.js';
import { waitUntil } from '../testing/waitUntil.js';

const url = parseAmqpUrl(process.env.AMQP_URL);
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) await c.close().catch(() => undefined);
});

describe('openConnection (real broker)', () => {
  it('connects and exposes server properties', async () => {
    const conn = await openConnection(url, { purpose: 'apply' });
    opened.push(conn);
    expect(String(conn.connection.serverProperties.product)).toMatch(/RabbitMQ/);
  });

  it('reports a refused port clearly, without the password', async () => {
    const bad = { ...url, port: 1, password: 'hunter2' };
    const err = await openConnection(bad, { purpose: 'apply', timeoutMs: 2000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokerConnectError);
    expect((err as BrokerConnectError).kind).toBe('unreachable');
    expect((err as Error).message).toContain('amqp://guest:***@127.0.0.1:1/');
    expect((err as Error).message).not.toContain('hunter2');
  });

  it('reports bad credentials as a login refusal', async () => {
    const err = await openConnection({ ...url, password: 'wrong-password' }, { purpose: 'apply' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BrokerConnectError);
    expect((err as BrokerConnectError).kind).toBe('auth');
    expect((err as Error).message).not.toContain('wrong-password');
  });

  it('reports a missing vhost', async () => {
    const err = await openConnection({ ...url, vhost: 'retry-studio-no-such-vhost' }, { purpose: 'apply' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BrokerConnectError);
    expect((err as BrokerConnectError).kind).toBe('vhost');
  });

  it('an unknown exchange type kills only its own connection, not the other purpose', async () => {
    const apply = new ManagedConnection(url, 'apply', { backoff: { maxAttempts: 0 } });
    const trace = new ManagedConnection(url, 'trace');
    opened.push(apply, trace);
    await apply.start();
    const traceConn: ChannelModel = await trace.start();
    const lost = new Promise((r) => apply.once('disconnected', r));
    const ch = await apply.createChannel();
    await expect(ch.assertExchange('retry-studio.test.bogus', 'x-no-such-type')).rejects.toThrow();
    await lost;
    expect(apply.isOpen).toBe(false);
    // the trace connection still works
    const ok = await withThrowawayChannel(
      traceConn,
      async (c) => (await c.checkQueue((await c.assertQueue('', { exclusive: true })).queue)).queue,
    );
    expect(ok).toMatch(/^amq\.gen-/);
    expect(trace.isOpen).toBe(true);
  });

  it('reconnects after the connection is forcibly closed (one loop, even with error + close)', async () => {
    const mc = new ManagedConnection(url, 'trace', { backoff: { initialDelayMs: 50 } });
    opened.push(mc);
    await mc.start();
    let connects = 0;
    mc.on('connected', () => (connects += 1));
    const back = new Promise((r) => mc.once('connected', r));
    // a connection-level error (unknown exchange type) closes the connection: error then close
    const ch = await mc.createChannel();
    await ch.assertExchange('retry-studio.test.bogus2', 'x-no-such-type').catch(() => undefined);
    await back;
    await new Promise((r) => setTimeout(r, 300));
    expect(connects).toBe(1);
    expect(mc.isOpen).toBe(true);
    const ch2 = await mc.createChannel();
    await ch2.close();
  });
});

describe('ManagedConnection against a server-side close (as on a broker restart)', () => {
  it('reconnects with backoff after CONNECTION_FORCED, and channels work again', async () => {
    const { ManagementClient } = await import('./management.js');
    const mgmt = new ManagementClient(url, { baseUrl: BROKER_310.managementUrl });
    const label = `forced-${process.pid}-${Date.now()}`;
    const mc = new ManagedConnection(url, 'trace', { label, backoff: { initialDelayMs: 100 } });
    opened.push(mc);
    await mc.start();
    const events: string[] = [];
    mc.on('disconnected', () => events.push('disconnected'));
    mc.on('reconnecting', () => events.push('reconnecting'));
    mc.on('connected', () => events.push('connected'));
    // the management API lists a connection a moment after it opens
    // (its statistics come every 5 s: 10 s of polling raced them on a loaded machine)
    let name: string | undefined;
    await waitUntil(
      async () =>
        (name = (await mgmt.listConnections()).find(
          (c) => c.client_properties?.connection_name === `retry-studio:trace:${label}`,
        )?.name) !== undefined,
      'the connection listed by the management API',
      { timeoutMs: 30_000, everyMs: 200 },
    );
    const back = new Promise((r) => mc.once('connected', r));
    await mgmt.closeConnection(name!);
    await back;
    expect(events[0]).toBe('disconnected');
    expect(events.filter((e) => e === 'connected')).toHaveLength(1);
    const ch = await mc.createChannel();
    const q = await ch.assertQueue('', { exclusive: true });
    expect(q.queue).toMatch(/^amq\.gen-/);
    await ch.close();
  });
});

describe('ManagedConnection.start({ waitMs })', () => {
  it('gives up after waitMs with the first clear error when the broker never answers', async () => {
    const mc = new ManagedConnection({ ...url, port: 1 }, 'apply', { backoff: { initialDelayMs: 50 } });
    const t0 = Date.now();
    const err = await mc.start({ waitMs: 500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokerConnectError);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
    expect(mc.isOpen).toBe(false);
  });
});

describe('ManagedConnection.close() against a broker gone silent', () => {
  it('ends within seconds instead of waiting for a close-ok that never comes', async () => {
    const { startSilentProxy } = await import('../testing/silentProxy.js');
    const proxy = await startSilentProxy(url.port);
    try {
      const m = new ManagedConnection({ ...url, port: proxy.port }, 'probe');
      await m.start();
      proxy.silence();
      const t0 = Date.now();
      await m.close();
      // 5 s of waiting for the close-ok, then the socket is dropped (before: for ever, or until
      // the heartbeat noticed)
      expect(Date.now() - t0).toBeLessThan(8_000);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(4_500);
    } finally {
      await proxy.close();
    }
  }, 20_000);
});
