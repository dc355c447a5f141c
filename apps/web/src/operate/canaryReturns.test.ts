// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { DeadLetterMessage } from '@retry-studio/topology-core/operate';
import { canaryReturns } from './canaryReturns';

const message = (seq: number, headers: DeadLetterMessage['headers'] = {}): DeadLetterMessage => ({
  seq,
  exchange: '',
  routingKey: 'orders.dlq',
  redelivered: false,
  body: `msg-${seq}`,
  bodyBytes: 5,
  headers,
  xDeath: [],
});

describe('the copies a canary sent back', () => {
  const listing = [message(0), message(1, { 'x-redrive-count': 1 }), message(2, { 'x-redrive-count': 1 }), message(3)];

  it('counted by depth only: named from the browse after the run (they carry x-redrive-count)', () => {
    const r = canaryReturns({ back: 2, returned: [] }, listing);
    expect(r.unnamed).toBe(2);
    expect(r.listed.map((m) => m.seq)).toEqual([1, 2]);
  });
  it('seen by the tap: nothing to look up', () => {
    const tapped = { batch: 1, body: 'msg-1', queue: 'orders.q', reason: 'rejected', redriveCount: 1 };
    expect(canaryReturns({ back: 1, returned: [tapped] }, listing)).toEqual({ unnamed: 0, listed: [] });
  });
  it('while it runs (no browse after it yet): only how many', () => {
    expect(canaryReturns({ back: 2, returned: [] }, undefined)).toEqual({ unnamed: 2, listed: [] });
  });
});
