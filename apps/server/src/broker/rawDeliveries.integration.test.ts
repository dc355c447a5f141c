import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ConsumeMessage, Options } from 'amqplib';
import { interceptDeliveries, RawDelivery } from './rawDeliveries.js';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { withTestConnection } from '../testing/testConnection.js';
import { wireXDeath } from '../testing/wireFixtures.js';
import { waitUntil } from '../testing/waitUntil.js';

const xDeath = [wireXDeath('orders.work', 'rejected', 'orders', ['order.created'], 3)];
/** empty, small, and larger than a frame (frameMax 128 KiB: three body frames) */
const messages: { body: Buffer; props: Options.Publish }[] = [
  { body: Buffer.alloc(0), props: {} },
  {
    body: Buffer.from('hello'),
    props: {
      contentType: 'text/plain',
      headers: { 'x-death': xDeath, 'x-exception': 'boom', n: 7 },
      messageId: 'm-1',
      deliveryMode: 2,
      priority: 1,
      timestamp: 1_700_000_000,
    },
  },
  { body: Buffer.alloc(300 * 1024, 'z'), props: { correlationId: 'c', replyTo: 'r', type: 't', appId: 'a' } },
];
/** the two queues' copies differ only in routing key; a body by its length and hash (a failure prints no 300 KB) */
const comparable = (m: ConsumeMessage): unknown => ({
  exchange: m.fields.exchange,
  queue: m.fields.routingKey.slice(-2),
  redelivered: m.fields.redelivered,
  properties: m.properties,
  content: [m.content.length, createHash('sha1').update(m.content).digest('hex')],
});

describe.each(TEST_BROKERS)('deliveries off the wire on RabbitMQ $name', (b) => {
  it('reads every delivery as amqplib would, frames split or empty, while other channels stay amqplib’s', async () => {
    await withTestConnection(b, 'raw-deliveries', async (conn, q) => {
      const setup = await conn.createConfirmChannel();
      for (const name of [`${q}.a`, `${q}.b`]) {
        await setup.assertQueue(name, { durable: false });
        for (const m of messages) setup.sendToQueue(name, m.body, m.props);
      }
      await setup.waitForConfirms();
      const raw: ConsumeMessage[] = [];
      const plain: ConsumeMessage[] = [];
      let tappedToAmqplib = 0;
      const tapped = await conn.createChannel();
      expect(interceptDeliveries(tapped, (m) => raw.push(m))).toBe(true);
      await tapped.consume(`${q}.a`, (m) => void (m && tappedToAmqplib++));
      const other = await conn.createChannel();
      await other.consume(`${q}.b`, (m) => void (m && plain.push(m)));
      // 2 s of polling raced the deliveries on a loaded machine: wait for them
      await waitUntil(() => raw.length >= 3 && plain.length >= 3, 'three deliveries on each channel', {
        timeoutMs: 20_000,
        everyMs: 20,
      });
      expect(tappedToAmqplib).toBe(0);
      expect(raw.every((m) => m instanceof RawDelivery)).toBe(true);
      expect(plain.some((m) => m instanceof RawDelivery)).toBe(false);
      expect(raw.map(comparable)).toEqual(plain.map(comparable).map((c) => ({ ...(c as object), queue: '.a' })));
      expect(raw.map((m) => m.fields.deliveryTag)).toEqual([1, 2, 3]);
      tapped.ackAll();

      // the tap ends with its channel: a new channel given the same number is amqplib's again
      const n = (tapped as unknown as { ch: number }).ch;
      await tapped.close();
      const next = await conn.createChannel();
      expect((next as unknown as { ch: number }).ch).toBe(n);
      const again: ConsumeMessage[] = [];
      await next.consume(`${q}.a`, (m) => void (m && again.push(m)));
      setup.sendToQueue(`${q}.a`, Buffer.from('after'), {});
      await setup.waitForConfirms();
      await waitUntil(() => again.length >= 1, 'the delivery on the new channel', { timeoutMs: 20_000, everyMs: 20 });
      expect(again.map((m) => m.content.toString())).toEqual(['after']);
      expect(raw).toHaveLength(3);

      // the broker's cancel (the queue deleted) still reaches amqplib's consumer callback
      const cancelled = await conn.createChannel();
      await cancelled.assertQueue(`${q}.c`, { durable: false });
      let gotNull = false;
      interceptDeliveries(cancelled, () => undefined);
      await cancelled.consume(`${q}.c`, (m) => void (m === null && (gotNull = true)));
      await setup.deleteQueue(`${q}.c`);
      await waitUntil(() => gotNull, "the broker's cancel", { timeoutMs: 20_000, everyMs: 20 });
      await setup.deleteQueue(`${q}.a`);
      await setup.deleteQueue(`${q}.b`);
    });
  });
});
