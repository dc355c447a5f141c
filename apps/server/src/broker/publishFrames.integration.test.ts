import { describe, expect, it } from 'vitest';
import type { Message, Options } from 'amqplib';
import { encodePropertyList, FramePublisher } from './publishFrames.js';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { withTestConnection } from '../testing/testConnection.js';

const props: Options.Publish[] = [
  {},
  {
    contentType: 'application/json',
    headers: { 'x-death': [{ count: 1, reason: 'expired', queue: 'w', exchange: '', 'routing-keys': ['w'] }] },
    deliveryMode: 2,
  },
  { messageId: 'm', priority: 2 },
];

describe.each(TEST_BROKERS)('publishing by the batch on RabbitMQ $name', (b) => {
  it('confirms each copy in order, returns an unroutable one, and lands bodies of any size intact', async () => {
    await withTestConnection(b, 'publish-frames', async (conn, q) => {
      const ch = await conn.createConfirmChannel();
      ch.on('error', () => undefined);
      await ch.assertQueue(q, { durable: false });
      const frames = FramePublisher.attach(ch)!;
      expect(frames).toBeDefined();
      const returned: Message[] = [];
      ch.on('return', (m: Message) => returned.push(m));
      const confirmed: (string | null)[] = [];
      const n = 300;
      const bodies = Array.from({ length: n }, (_, i) =>
        i === 7 ? Buffer.alloc(300 * 1024, 'b') : i === 8 ? Buffer.alloc(0) : Buffer.from(`m${i}`),
      );
      for (let i = 0; i < n; i++)
        if (
          !frames.publish('', q, true, { base: encodePropertyList(props[i % 3]!) }, bodies[i]!, (err) =>
            confirmed.push(err ? String(err) : null),
          )
        )
          frames.flush();
      frames.publish(
        '',
        `${q}.nowhere`,
        true,
        { base: encodePropertyList({ messageId: 'lost?' }) },
        Buffer.from('x'),
        (err) => confirmed.push(err ? String(err) : null),
      );
      expect(confirmed).toHaveLength(0); // nothing leaves before the batch does
      frames.flush();
      await ch.waitForConfirms();
      expect(confirmed).toEqual(Array(n + 1).fill(null));
      expect(returned.map((m) => [m.fields.routingKey, m.properties.messageId])).toEqual([[`${q}.nowhere`, 'lost?']]);
      const got: Message[] = [];
      for (let m = await ch.get(q, { noAck: true }); m; m = await ch.get(q, { noAck: true })) got.push(m);
      expect(got.map((m) => m.content.equals(bodies[got.indexOf(m)]!))).toEqual(Array(n).fill(true));
      expect(got.map((m) => m.properties.messageId)).toEqual(bodies.map((_, i) => props[i % 3]!.messageId));
      expect(got[1]!.properties.headers?.['x-death']?.[0]).toMatchObject({ reason: 'expired', queue: 'w' });
      await ch.deleteQueue(q);
      await ch.close();
      expect(() =>
        frames.publish('', q, true, { base: encodePropertyList({}) }, Buffer.from('late'), () => undefined),
      ).toThrow(/channel closed/i);
    });
  });
});
