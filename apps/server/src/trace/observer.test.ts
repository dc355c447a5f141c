import { describe, expect, it } from 'vitest';
import { mirrorPlan } from './observer.js';
import { bindQ } from '../http/testing.js';

describe('observation mirrors', () => {
  it('copy each distinct binding key/arguments of an exchange; no mirror for an exchange without bindings', () => {
    const m = mirrorPlan(
      {
        exchanges: [
          { name: 'direct', type: 'direct' },
          { name: 'hdr', type: 'headers' },
          { name: 'lonely', type: 'fanout', arguments: { 'alternate-exchange': 'ae' } },
        ],
        queues: [{ name: 'a' }, { name: 'b' }],
        bindings: [
          bindQ('direct', 'a', 'k1'),
          bindQ('direct', 'b', 'k1'),
          bindQ('direct', 'b', 'k2'),
          bindQ('hdr', 'a', '', { 'x-match': 'any', type: 'x' }),
          { source: 'direct', destination: 'hdr', destination_type: 'exchange', routing_key: 'k3' },
        ],
      },
      't1',
    );
    expect(m).toEqual([
      { queue: 'rs-trace.t1.obs.0', exchange: 'direct', bindings: [{ key: 'k1', args: {} }, { key: 'k2', args: {} }, { key: 'k3', args: {} }] },
      { queue: 'rs-trace.t1.obs.1', exchange: 'hdr', bindings: [{ key: '', args: { 'x-match': 'any', type: 'x' } }] },
    ]);
  });
});
