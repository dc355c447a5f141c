import { describe, expect, it } from 'vitest';
import { bindQ, design } from '../http/testing.js';
import { predict } from './prediction.js';

/** `in` has no consumer and dead-letters expired messages to `dead`; messages are published without expiration. */
const d = design({
  exchanges: [{ name: 'x', type: 'direct' }, { name: 'dlx', type: 'fanout' }],
  queues: [{ name: 'in', arguments: { 'x-dead-letter-exchange': 'dlx' } }, { name: 'dead' }],
  bindings: [bindQ('x', 'in', 'k'), bindQ('dlx', 'dead')],
  publishers: [{ id: 'p', exchange: 'x', routingKey: 'k', properties: { headers: { tenant: 'a' } } }],
});

describe('the trace prediction', () => {
  it('publishes with the trace overrides: an expiration set on the test messages is predicted', () => {
    const kinds = (o: Parameters<typeof predict>[1]) => predict(d, o).events.map((e) => e.kind);
    expect(kinds({ messages: 1 })).not.toContain('expired');
    const withTtl = predict(d, { messages: 1, overrides: { expiration: '100' } }).events;
    expect(withTtl.map((e) => e.kind)).toContain('expired');
    expect(withTtl.find((e) => e.kind === 'dead-lettered')).toMatchObject({ queue: 'in', reason: 'expired' });
  });

  it('header overrides are merged over the publisher headers', () => {
    const pub = predict(d, { messages: 1, overrides: { headers: { retry: 1 }, priority: 3 } }).events.find((e) => e.kind === 'published');
    expect(pub?.kind === 'published' && pub.headers).toEqual({ tenant: 'a', retry: 1 });
  });
});
