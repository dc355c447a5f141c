import { describe, expect, it } from 'vitest';
import { messageIdentity } from './messageIdentity.js';

const msg = (body: string, headers: Record<string, unknown> = {}, props: Record<string, unknown> = {}) => ({
  content: Buffer.from(body),
  properties: { contentType: 'text/plain', deliveryMode: 2, ...props, headers } as never,
});

describe('messageIdentity', () => {
  it('is the same for a redelivery whose per-delivery counters moved on', () => {
    const first = msg('a', { tenant: 't1', 'x-delivery-count': 0 });
    const again = msg('a', { tenant: 't1', 'x-delivery-count': 3, 'x-acquired-count': 4 });
    expect(messageIdentity(again)).toBe(messageIdentity(first));
  });

  it('tells apart bodies, headers and properties', () => {
    const base = messageIdentity(msg('a', { tenant: 't1' }));
    expect(messageIdentity(msg('b', { tenant: 't1' }))).not.toBe(base);
    expect(messageIdentity(msg('a', { tenant: 't2' }))).not.toBe(base);
    expect(messageIdentity(msg('a', { tenant: 't1' }, { messageId: 'x' }))).not.toBe(base);
    expect(messageIdentity(msg('a', { tenant: 't1' }, { deliveryMode: 1 }))).not.toBe(base);
  });
});
