import { describe, expect, it } from 'vitest';
import { MAX_MIRROR_SHARDS, mirrorPlan, Observer, ownsCopy } from './observer.js';
import { bindQ } from '../http/testing.js';

describe('observation mirrors', () => {
  it('copy each distinct binding key/arguments of an exchange; a direct exchange sharded by key; no mirror for an exchange without bindings', () => {
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
          bindQ('hdr', 'b', '', { 'x-match': 'any', type: 'y' }),
          { source: 'direct', destination: 'hdr', destination_type: 'exchange', routing_key: 'k3' },
        ],
      },
      't1',
    );
    expect(m).toEqual([
      { queue: 'rs-trace.t1.obs.0', exchange: 'direct', type: 'direct', shard: 0, bindings: [{ key: 'k1', args: {} }] },
      {
        queue: 'rs-trace.t1.obs.0.1',
        exchange: 'direct',
        type: 'direct',
        shard: 1,
        bindings: [{ key: 'k2', args: {} }],
      },
      {
        queue: 'rs-trace.t1.obs.0.2',
        exchange: 'direct',
        type: 'direct',
        shard: 2,
        bindings: [{ key: 'k3', args: {} }],
      },
      // headers bindings are not keys: one queue
      {
        queue: 'rs-trace.t1.obs.1',
        exchange: 'hdr',
        type: 'headers',
        shard: 0,
        bindings: [
          { key: '', args: { 'x-match': 'any', type: 'x' } },
          { key: '', args: { 'x-match': 'any', type: 'y' } },
        ],
      },
    ]);
  });

  it(`at most ${MAX_MIRROR_SHARDS} shards per exchange, every binding in one of them`, () => {
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
    const m = mirrorPlan(
      {
        exchanges: [{ name: 'x', type: 'direct' }],
        queues: [{ name: 'q' }],
        bindings: keys.map((k) => bindQ('x', 'q', k)),
      },
      't',
    );
    expect(m).toHaveLength(MAX_MIRROR_SHARDS);
    expect(m.flatMap((s) => s.bindings.map((b) => b.key)).sort()).toEqual([...keys].sort());
  });

  it('a copy that matched several shards (CC, overlapping topic patterns) is observed once, at the lowest; one that matches none where it is', () => {
    const direct = mirrorPlan(
      {
        exchanges: [{ name: 'x', type: 'direct' }],
        queues: [{ name: 'q' }],
        bindings: ['a', 'b', 'c'].map((k) => bindQ('x', 'q', k)),
      },
      't',
    );
    // asked only of a shard that received the copy (one of its keys matched there)
    expect(ownsCopy(direct[1]!, direct, ['b'])).toBe(true);
    expect([ownsCopy(direct[1]!, direct, ['c', 'b']), ownsCopy(direct[2]!, direct, ['c', 'b'])]).toEqual([true, false]);
    expect(ownsCopy(direct[2]!, direct, ['a', 'c'])).toBe(false);
    expect(ownsCopy(direct[2]!, direct, ['bcc-only'])).toBe('unknown');
    const topic = mirrorPlan(
      {
        exchanges: [{ name: 'x', type: 'topic' }],
        queues: [{ name: 'q' }],
        bindings: ['orders.#', '*.eu', 'audit'].map((k) => bindQ('x', 'q', k)),
      },
      't',
    );
    // orders.eu is in shards 0 (orders.#) and 1 (*.eu)
    expect([ownsCopy(topic[0]!, topic, ['orders.eu']), ownsCopy(topic[1]!, topic, ['orders.eu'])]).toEqual([
      true,
      false,
    ]);
    expect(ownsCopy(topic[1]!, topic, ['billing.eu'])).toBe(true);
  });
});

describe('Observer.mirrorOf: the shard that will see a copy, named from its keys', () => {
  const observer = new Observer(
    {
      exchanges: [
        { name: 'direct', type: 'direct' },
        { name: 'hdr', type: 'headers' },
      ],
      queues: [{ name: 'a' }, { name: 'b' }],
      bindings: [
        bindQ('direct', 'a', 'k1'),
        bindQ('direct', 'b', 'k2'),
        bindQ('hdr', 'a', '', { 'x-match': 'any', type: 'x' }),
      ],
    },
    't1',
    () => undefined,
  );

  it("a direct exchange's copy by key k2 is its k2 shard's; a key no shard binds has none", () => {
    expect(observer.mirrorOf('direct', ['k2'])?.queue).toBe('rs-trace.t1.obs.0.1');
    expect(observer.mirrorOf('direct', ['k9'])).toBeUndefined();
  });

  it('a headers exchange (its copies match by headers) and an exchange without a mirror have none', () => {
    expect(observer.mirrorOf('hdr', [''])).toBeUndefined();
    expect(observer.mirrorOf('nowhere', ['k1'])).toBeUndefined();
  });
});
