import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelModel, ConfirmChannel } from 'amqplib';
import { parseAmqpUrl } from './amqpUrl.js';
import { openConnection } from './connection.js';
import { ConfirmTimeoutError, ChannelClosedError, publishConfirmed } from './confirmPublish.js';

const url = parseAmqpUrl(process.env.AMQP_URL);
let conn: ChannelModel;
let ch: ConfirmChannel;
const q = `retry-studio.test.confirm.${process.pid}`;

beforeAll(async () => {
  conn = await openConnection(url, { purpose: 'apply' });
  ch = await conn.createConfirmChannel();
  ch.on('error', () => undefined);
  await ch.assertQueue(q, { durable: false, arguments: { 'x-max-length': 1, 'x-overflow': 'reject-publish' } });
  await ch.purgeQueue(q);
});
afterAll(async () => {
  const c = await conn.createChannel();
  await c.deleteQueue(q).catch(() => undefined);
  await conn.close().catch(() => undefined);
});

describe('publishConfirmed (real broker)', () => {
  it('acks a routed publish and nacks one refused by reject-publish', async () => {
    expect(await publishConfirmed(ch, '', q, Buffer.from('a'))).toBe('acked');
    expect(await publishConfirmed(ch, '', q, Buffer.from('b'))).toBe('nacked');
  });

  it('honours backpressure for a burst (every confirm settles)', async () => {
    await ch.purgeQueue(q);
    const small = Buffer.from('x');
    let drains = 0;
    const onDrain = (): void => {
      drains += 1;
    };
    ch.on('drain', onDrain);
    // 5,000 publishes at once, each listening for close and drain: on purpose, unbounded here
    ch.setMaxListeners(0);
    const outcomes = await Promise.all(
      Array.from({ length: 5000 }, () =>
        publishConfirmed(ch, '', 'retry-studio.no-such-queue', small, {}, { timeoutMs: 20_000 }),
      ),
    );
    ch.off('drain', onDrain);
    expect(outcomes.every((o) => o === 'acked')).toBe(true);
    // 5000 frames exceed the channel's write buffer: publish() returned false and we waited for 'drain'
    expect(drains).toBeGreaterThan(0);
  });

  it('times out instead of hanging', async () => {
    const c2 = await conn.createConfirmChannel();
    c2.on('error', () => undefined);
    const err = await publishConfirmed(
      c2,
      '',
      'retry-studio.no-such-queue',
      Buffer.alloc(16 * 1024 * 1024, 1),
      {},
      { timeoutMs: 1 },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfirmTimeoutError);
    await c2.close().catch(() => undefined);
  });

  it('fails when the channel closes before the confirm', async () => {
    const c3 = await conn.createConfirmChannel();
    c3.on('error', () => undefined);
    // publishing to a missing exchange closes the channel with 404
    const err = await publishConfirmed(c3, 'retry-studio.no-such-exchange', 'k', Buffer.from('x')).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err).toBeInstanceOf(ChannelClosedError);
  });
});

describe('ConfirmedPublisher (real broker)', () => {
  it('keeps at most maxInFlight unconfirmed publishes during a flood, and every one is confirmed', async () => {
    const { ConfirmedPublisher } = await import('./confirmPublish.js');
    const c = await conn.createConfirmChannel();
    c.on('error', () => undefined);
    const p = new ConfirmedPublisher(c, { maxInFlight: 200 });
    const body = Buffer.alloc(64, 7);
    for (let i = 0; i < 20_000; i++) await p.publish('', 'retry-studio.no-such-queue', body);
    await p.flush();
    expect(p.stats).toMatchObject({ published: 20_000, acked: 20_000, nacked: 0, failed: 0 });
    expect(p.stats.maxInFlight).toBeLessThanOrEqual(200);
    await c.close();
  });
});
