import { describe, expect, it } from 'vitest';
import { templateDesign as design } from '../../testing/templateDesign.js';
import { exportAsyncApi } from './asyncapi.js';

type Doc = { channels: Record<string, Record<string, unknown>>; operations: Record<string, Record<string, unknown>> };

describe('asyncapi', () => {
  it('keeps dead-letter and TTL settings as x- extensions on the queue channel, with its bindings', () => {
    const doc = exportAsyncApi(design('dlx-ttl-wait-queue')) as unknown as Doc;
    expect(doc.channels['queue-orders_wait']).toMatchObject({
      address: 'orders.wait',
      bindings: { amqp: { is: 'queue', queue: { name: 'orders.wait', durable: true }, bindingVersion: '0.3.0' } },
      'x-message-ttl': 5000,
      'x-dead-letter-exchange': 'orders.requeue',
      'x-bindings': [{ exchange: 'orders.retry', routingKey: '#' }],
    });
  });

  it('publishers send, consumers receive and send their republishes; plugin exchange types route as their underlying type', () => {
    const doc = exportAsyncApi(design('delayed-exchange'), { vhost: 'v' }) as unknown as Doc;
    const retry = doc.channels['exchange-orders_retry']!;
    expect(retry.bindings).toMatchObject({
      amqp: { exchange: { type: 'direct', vhost: 'v' }, 'x-exchange-type': 'x-delayed-message' },
    });
    const ops = Object.values(doc.operations);
    expect(ops.filter((o) => o.action === 'receive').map((o) => o.channel)).toContainEqual({
      $ref: '#/channels/queue-orders_q',
    });
    expect(ops.filter((o) => o.action === 'send').map((o) => o.channel)).toEqual(
      expect.arrayContaining([{ $ref: '#/channels/exchange-orders' }, { $ref: '#/channels/exchange-orders_retry' }]),
    );
  });
});
