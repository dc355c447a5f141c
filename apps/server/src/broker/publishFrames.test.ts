import { describe, expect, it } from 'vitest';
import type { Options } from 'amqplib';
import { amqpDefs } from './amqplibInternals.js';
import { encodePropertyList, encodeTableEntries, withHeaderEntries } from './publishFrames.js';
import { wireXDeath } from '../testing/wireFixtures.js';

const decode = (list: Buffer): Record<string, unknown> => {
  const p = amqpDefs.decode(amqpDefs.BasicProperties, list) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
};

const xDeath = [wireXDeath('orders.work', 'rejected', 'orders', ['order.created'], 2)];

const cases: Record<string, Options.Publish> = {
  'no properties': {},
  'no headers, strings on both sides of the table': {
    contentType: 'application/json',
    contentEncoding: 'gzip',
    deliveryMode: 2,
    messageId: 'm-1',
    appId: 'shop',
    timestamp: 1_700_000_000,
  },
  'headers only': { headers: { 'x-exception': 'boom' } },
  'x-death and everything after the table': {
    contentType: 'text/plain',
    headers: { 'x-death': xDeath, 'x-first-death-queue': 'orders.work', n: 1 },
    deliveryMode: 1,
    priority: 3,
    correlationId: 'c',
    replyTo: 'r',
    expiration: '1000',
    type: 't',
  },
};

describe('withHeaderEntries', () => {
  for (const [name, props] of Object.entries(cases))
    it(`adds entries to the headers as amqplib would encode them: ${name}`, () => {
      const marker = { 'x-redrive-count': 1, 'x-redrive-last-at-ms': 1_764_000_000_123 };
      const spliced = withHeaderEntries(encodePropertyList(props), encodeTableEntries(marker));
      const whole = encodePropertyList({ ...props, headers: { ...props.headers, ...marker } });
      expect(spliced.equals(whole)).toBe(true);
      expect(decode(spliced).headers).toMatchObject(marker);
    });

  it('refuses property flags with a continuation bit (no RabbitMQ property uses one)', () => {
    expect(() => withHeaderEntries(Buffer.from([0, 1, 0, 0]), encodeTableEntries({ a: 1 }))).toThrow(/continuation/);
  });
});
