import { describe, expect, it } from 'vitest';
import { copyIdentity, messageIdentity } from './messageIdentity.js';

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

describe('copyIdentity', () => {
  it('matches a re-driven copy to its original: the marker and a dropped user-id left out', () => {
    const original = msg('a', { tenant: 't1', 'x-redrive-count': 1, 'x-redrive-last-at-ms': 1 }, { userId: 'alice' });
    const copy = msg('a', { tenant: 't1', 'x-redrive-count': 2, 'x-redrive-last-at-ms': 2 });
    expect(copyIdentity(copy)).toBe(copyIdentity(original));
    expect(messageIdentity(copy)).not.toBe(messageIdentity(original));
  });

  it('still tells apart what a copy keeps', () => {
    const base = copyIdentity(msg('a', { tenant: 't1' }));
    expect(copyIdentity(msg('a', { tenant: 't2' }))).not.toBe(base);
    expect(copyIdentity(msg('a', { tenant: 't1' }, { messageId: 'x' }))).not.toBe(base);
  });
});
