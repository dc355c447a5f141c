import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, ChannelModel } from 'amqplib';
import { parseAmqpUrl } from './amqpUrl.js';
import { openConnection } from './connection.js';
import { decodeAmqpTable, decodeXDeath } from './amqpValues.js';

const url = parseAmqpUrl(process.env.AMQP_URL);
let conn: ChannelModel;
let ch: Channel;
const q = `retry-studio.test.amqp-values.${process.pid}`;
const dead = `${q}.dead`;

beforeAll(async () => {
  conn = await openConnection(url, { purpose: 'apply' });
  ch = await conn.createChannel();
  await ch.assertQueue(dead, { durable: false });
  await ch.assertQueue(q, {
    durable: false,
    arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': dead },
  });
});
afterAll(async () => {
  await ch.deleteQueue(q).catch(() => undefined);
  await ch.deleteQueue(dead).catch(() => undefined);
  await conn.close().catch(() => undefined);
});

async function getOne(queue: string): Promise<Exclude<Awaited<ReturnType<Channel['get']>>, false>> {
  // 1 s of polling raced a dead letter on a loaded machine: a generous deadline
  for (const end = Date.now() + 20_000; Date.now() < end;) {
    const m = await ch.get(queue, { noAck: true });
    if (m) return m;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`nothing arrived on ${queue} within 20 s`);
}

describe('decoding what amqplib delivers (real broker)', () => {
  it('timestamps, decimals, binaries and nested tables round-trip to plain JSON; x-death decodes', async () => {
    const headers = {
      ts: { '!': 'timestamp', value: 1700000000 },
      dec: { '!': 'decimal', value: { places: 2, digits: 150 } },
      bin: Buffer.from('hi'),
      nested: { n: 7, list: ['a', 1] },
    };
    ch.sendToQueue(q, Buffer.from('x'), { headers, expiration: '0' });
    const m = await getOne(dead);
    const t = decodeAmqpTable(m.properties.headers);
    expect(t).toMatchObject({ ts: 1700000000, dec: 1.5, bin: 'hi', nested: { n: 7, list: ['a', 1] } });
    expect(decodeAmqpTable(m.properties.headers, { binary: 'base64' }).bin).toBe('base64:aGk=');
    const deaths = t['x-death'] as unknown[];
    expect(deaths.map(decodeXDeath)).toEqual([
      {
        queue: q,
        reason: 'expired',
        count: 1,
        exchange: '',
        'routing-keys': [q],
        time: expect.any(Number),
        'original-expiration': '0',
      },
    ]);
  });
});
