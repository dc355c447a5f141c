import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Channel, Options } from 'amqplib';
import { amqpDefs } from './amqplibInternals.js';
import { interceptDeliveries, RawDelivery } from './rawDeliveries.js';

const require = createRequire(import.meta.url);
/** amqplib's own frame reader, which the tap wraps */
const { Connection } = require(join(dirname(require.resolve('amqplib')), 'lib', 'connection.js')) as {
  Connection: { prototype: { recvFrame: () => unknown } };
};

const deliver = (
  ch: number,
  tag: number,
  routingKey: string,
  props: Options.Publish,
  body: Buffer,
  bodyFrames = 1,
): Buffer[] => {
  const frames = [
    amqpDefs.encodeMethod(amqpDefs.BasicDeliver, ch, {
      consumerTag: 'ctag',
      deliveryTag: tag,
      redelivered: tag % 2 === 0,
      exchange: 'dlx',
      routingKey,
    }),
    amqpDefs.encodeProperties(amqpDefs.BasicProperties, ch, body.length, props),
  ];
  const step = Math.ceil(body.length / bodyFrames);
  for (let from = 0; from < body.length; from += step) {
    const part = body.subarray(from, from + step);
    const f = Buffer.alloc(8 + part.length);
    f[0] = 3;
    f.writeUInt16BE(ch, 1);
    f.writeUInt32BE(part.length, 3);
    part.copy(f, 7);
    f[7 + part.length] = 0xce;
    frames.push(f);
  }
  return frames;
};

const HEARTBEAT = Buffer.from([8, 0, 0, 0, 0, 0, 0, 0xce]);
const stream = Buffer.concat([
  ...deliver(
    1,
    1,
    'a',
    {
      headers: { 'x-death': [{ count: 1, reason: 'rejected', queue: 'q', exchange: '', 'routing-keys': ['q'] }] },
      messageId: 'one',
    },
    Buffer.alloc(5000, 'a'),
    3,
  ),
  amqpDefs.encodeMethod(amqpDefs.BasicAck, 2, { deliveryTag: 9, multiple: true }),
  HEARTBEAT,
  ...deliver(1, 2, 'b', {}, Buffer.alloc(0)),
  ...deliver(2, 7, 'other', { messageId: 'theirs' }, Buffer.from('not ours')),
  ...deliver(1, 3, 'c', { contentType: 'text/plain' }, Buffer.from('three')),
]);

/** feeds `chunks` one read at a time; returns what the tap took and what amqplib's reader returned, in order */
function read(chunks: Buffer[]): { ours: unknown[]; amqplib: unknown[] } {
  const queue = [...chunks];
  let ready: Buffer | null = null;
  const conn = {
    rest: Buffer.alloc(0),
    recvSinceLastCheck: false,
    maxFrameSize: 0,
    stream: { read: (): Buffer | null => [ready, (ready = null)][0] ?? null },
    recvFrame: Connection.prototype.recvFrame,
  };
  const ours: unknown[] = [];
  const amqplib: unknown[] = [];
  const ch = { ch: 1, connection: conn, once: () => undefined } as unknown as Channel;
  expect(interceptDeliveries(ch, (d) => ours.push(d))).toBe(true);
  while (queue.length > 0) {
    ready = queue.shift()!;
    for (let f = conn.recvFrame(); f; f = conn.recvFrame()) amqplib.push(f);
  }
  return {
    ours: ours.map((d) => {
      expect(d).toBeInstanceOf(RawDelivery);
      const r = d as RawDelivery;
      return {
        fields: JSON.parse(JSON.stringify(r.fields)),
        messageId: r.properties.messageId,
        xDeath: r.properties.headers?.['x-death'],
        body: r.content.toString(),
      };
    }),
    amqplib: amqplib.map((f) =>
      JSON.parse(JSON.stringify(f, (_k, v) => (v?.type === 'Buffer' ? Buffer.from(v.data).toString() : v))),
    ),
  };
}

describe('interceptDeliveries', () => {
  const whole = read([stream]);

  it("takes the channel's deliveries, body frames joined, and hands every other frame to amqplib in order", () => {
    expect(whole.ours).toEqual([
      {
        fields: { consumerTag: 'ctag', deliveryTag: 1, redelivered: false, exchange: 'dlx', routingKey: 'a' },
        messageId: 'one',
        xDeath: [{ count: 1, reason: 'rejected', queue: 'q', exchange: '', 'routing-keys': ['q'] }],
        body: 'a'.repeat(5000),
      },
      {
        fields: { consumerTag: 'ctag', deliveryTag: 2, redelivered: true, exchange: 'dlx', routingKey: 'b' },
        body: '',
      },
      {
        fields: { consumerTag: 'ctag', deliveryTag: 3, redelivered: false, exchange: 'dlx', routingKey: 'c' },
        body: 'three',
      },
    ]);
    // the ack and the other channel's delivery (method, header, body), decoded by amqplib; the heartbeat as amqplib gives it
    expect(whole.amqplib).toHaveLength(5);
    expect(whole.amqplib[0]).toMatchObject({
      id: amqpDefs.BasicAck,
      channel: 2,
      fields: { deliveryTag: 9, multiple: true },
    });
    expect(whole.amqplib[2]).toMatchObject({
      id: amqpDefs.BasicDeliver,
      channel: 2,
      fields: { deliveryTag: 7, routingKey: 'other' },
    });
    expect(whole.amqplib[3]).toMatchObject({ channel: 2, fields: { messageId: 'theirs' } });
    expect(whole.amqplib[4]).toMatchObject({ channel: 2, content: 'not ours' });
  });

  for (const size of [1, 2, 7, 8, 13, 64, 1000, 4099])
    it(`reads the same when the bytes come ${size} at a time`, () => {
      const chunks: Buffer[] = [];
      for (let i = 0; i < stream.length; i += size) chunks.push(stream.subarray(i, i + size));
      expect(read(chunks)).toEqual(whole);
    });
});
