import { describe, expect, it } from 'vitest';
import { A, C, S, T, run } from '../../testing/builders.js';

// rabbitmq-semantics.md §2 "Max-length", §6 items 16-19 (rabbit_amqqueue_process.erl L714-821)
const topo = (o: Parameters<typeof T.queue>[1]) =>
  T.topology(T.exchange('X'), T.queue('Q', { dlx: 'X', dlrk: 'D', ...o }), T.queue('D'), T.bind('X', 'D', 'D'));
const three = [S.publish('', 'Q', 'm1'), S.publish('', 'Q', 'm2'), S.publish('', 'Q', 'm3')];

describe('x-max-length / x-overflow', () => {
  it('item 16: drop-head dead-letters the oldest with reason maxlen', () => {
    const r = run({ topology: topo({ maxLength: 1 }), steps: three });
    expect(r.left('Q')).toEqual(['m3']);
    expect(r.left('D')).toEqual(['m1', 'm2']);
    expect(r.observed.final['D']?.[0]?.['x-death']?.[0]?.reason).toBe('maxlen');
    expect(r.publishNacked).toEqual([]);
  });

  it('item 17: reject-publish-dlx dead-letters the new message and nacks it', () => {
    const r = run({ topology: topo({ maxLength: 1, overflow: 'reject-publish-dlx' }), steps: three });
    expect(r.left('Q')).toEqual(['m1']);
    expect(r.left('D')).toEqual(['m2', 'm3']);
    expect(r.publishNacked).toEqual(['m2', 'm3']);
  });

  it('item 18: reject-publish nacks and does not dead-letter', () => {
    const r = run({ topology: topo({ maxLength: 1, overflow: 'reject-publish' }), steps: three });
    expect(r.left('Q')).toEqual(['m1']);
    expect(r.left('D')).toEqual([]);
    expect(r.publishNacked).toEqual(['m2', 'm3']);
  });

  it('item 19: unacked messages do not count toward the limit', () => {
    const r = run({
      topology: topo({ maxLength: 1, overflow: 'reject-publish' }),
      consumers: [C.worker('Q', [], { processingMs: 1000 })],
      steps: [S.publish('', 'Q', 'm1'), S.publish('', 'Q', 'm2')],
      settleMs: 10,
    });
    expect(r.publishNacked).toEqual([]);
    expect(r.delivered('Q')).toEqual(['m1']);
    expect(r.left('Q')).toEqual(['m2']);
  });

  it('x-max-length-bytes counts body bytes of ready messages (drop-head)', () => {
    const r = run({
      topology: topo({ maxBytes: 5 }),
      steps: [S.publish('', 'Q', 'abc'), S.publish('', 'Q', 'de'), S.publish('', 'Q', 'f')],
    });
    expect(r.left('Q')).toEqual(['de', 'f']);
    expect(r.left('D')).toEqual(['abc']);
  });

  it('a quorum queue treats reject-publish-dlx as drop-head (rabbit_quorum_queue.erl L1647-1653)', () => {
    const r = run({ topology: topo({ maxLength: 1, overflow: 'reject-publish-dlx', quorum: true }), steps: three });
    expect(r.left('Q')).toEqual(['m3']);
    expect(r.left('D')).toEqual(['m1', 'm2']);
    expect(r.publishNacked).toEqual([]);
  });

  it('mandatory: a queue refusing by overflow nacks, it does not return', () => {
    const r = run({
      topology: topo({ maxLength: 0, overflow: 'reject-publish' }),
      steps: [S.publish('', 'Q', 'm', { mandatory: true })],
    });
    expect(r.returned).toEqual([]);
    expect(r.publishNacked).toEqual(['m']);
  });

  it('drop-head also runs after a requeue pushes the length over the limit', () => {
    // m1 is held by the consumer (does not count); m2 fills the queue; m1 requeued in front -> m1 dropped as the head
    const r = run({
      topology: topo({ maxLength: 1 }),
      consumers: [C.worker('Q', [{ then: A.requeue }], { failure: { kind: 'failFirst', n: 1 }, processingMs: 100 })],
      steps: [S.publish('', 'Q', 'm1'), S.publish('', 'Q', 'm2')],
    });
    expect(r.left('D')).toEqual(['m1']);
    // m2 also fails its first attempt (failFirst is per message) and is redelivered
    expect(r.delivered('Q')).toEqual(['m1', 'm2', 'm2']);
  });
});

describe('drop-head queues evicting into each other', () => {
  // a rejection in the x-death spares them the cycle check (rabbit_dead_letter.erl): each eviction
  // dead-letters back into the full queues, which evict again, without end. The broker storms; the
  // simulator must run it to its event bound, not overflow its call stack (a fuzz topology did).
  const storm = T.topology(
    T.exchange('F', 'fanout'),
    T.queue('W', { dlx: 'F' }),
    T.queue('P1', { dlx: 'F', maxLength: 1 }),
    T.queue('P2', { dlx: 'F', maxLength: 1 }),
    T.bind('F', 'P1', ''),
    T.bind('F', 'P2', ''),
  );
  it('runs as a storm to the event bound: truncated, still evicting, no stack overflow', () => {
    const r = run({
      topology: storm,
      consumers: [C.worker('W', [{ then: A.reject }], { failure: { kind: 'always' } })],
      steps: [S.publish('', 'W', 'm1'), S.publish('', 'W', 'm2')],
      maxEvents: 50_000,
    });
    expect(r.truncated).toBe(true);
    expect(r.of('dead-lettered').filter((e) => e.reason === 'maxlen').length).toBeGreaterThan(5_000);
  });
  it('a short chain is unchanged: evicted at once, in order', () => {
    const r = run({ topology: storm, steps: [S.publish('', 'P1', 'a'), S.publish('', 'P1', 'b')] });
    // b evicts a (x-death P1 maxlen): P1 is a fully automatic cycle for it, P2 takes it
    expect(r.left('P1')).toEqual(['b']);
    expect(r.left('P2')).toEqual(['a']);
    expect(r.truncated).toBe(false);
  });
});
