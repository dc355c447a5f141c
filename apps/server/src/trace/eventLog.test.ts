import { describe, expect, it } from 'vitest';
import { EventLog, percentile } from './eventLog.js';
import type { SimEvent } from '@retry-studio/topology-core/sim';

const ev = (log: EventLog, i: number, kind: 'acked' | 'delivered' = 'acked'): SimEvent =>
  kind === 'delivered'
    ? {
        kind,
        msgId: `m-${i}`,
        body: 'b',
        queue: 'q',
        consumer: 'c',
        redelivered: false,
        headers: {},
        routingKey: 'k',
        exchange: 'x',
        t: i,
        seq: log.nextSeq(),
      }
    : { kind, msgId: `m-${i}`, body: 'b', queue: 'q', consumer: 'c', t: i, seq: log.nextSeq() };

/** the SSE frames of what a subscriber was written */
const framesOf = (writes: readonly string[]): string[] =>
  writes
    .join('')
    .split('\n\n')
    .filter((f) => f !== '');
const turn = () => new Promise((r) => setImmediate(r));
/** every later turn a subscriber's writes were spread over has run */
const settle = async () => {
  for (let i = 0; i < 200; i++) await turn();
};

describe('event log', () => {
  it('keeps a bounded ring and replays after Last-Event-ID', () => {
    const log = new EventLog(10);
    for (let i = 0; i < 25; i++) log.emit(ev(log, i));
    expect(log.events().map((e) => e.seq)).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
    const got: string[] = [];
    log.subscribe({ write: (f) => (got.push(String(f)), true) }, 22);
    expect(framesOf(got).map((f) => /^id: (\d+)/.exec(f)?.[1])).toEqual(['23', '24', '25']);
  });

  it('what one callback produced goes out in one write when it returns, in order; many go out sooner', async () => {
    const log = new EventLog();
    const got: string[] = [];
    log.subscribe({ write: (f) => (got.push(String(f)), true) });
    for (let i = 0; i < 5; i++) log.emit(ev(log, i));
    log.notice({ level: 'info', code: 'x', message: 'm', t: 0 });
    log.emit(ev(log, 5));
    expect(got).toEqual([]);
    await turn();
    expect(got).toHaveLength(1);
    expect(framesOf(got).map((f) => (f.startsWith('event: notice') ? 'notice' : /^id: (\d+)/.exec(f)?.[1]))).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      'notice',
      '6',
    ]);
    for (let i = 6; i < 8; i++) log.emit(ev(log, i));
    await turn();
    expect(got).toHaveLength(2);
    // a long callback does not hold its first events back until it ends
    for (let i = 8; i < 1008; i++) log.emit(ev(log, i));
    expect(got.length).toBeGreaterThanOrEqual(2 + 4);
    await turn();
    expect(framesOf(got)).toHaveLength(1009);
  });

  it('each write-out is handed to the socket at once (flush after its writes), also in the middle of a long callback', async () => {
    const log = new EventLog();
    const calls: string[] = [];
    log.subscribe({ timing: true, write: () => (calls.push('write'), true), flush: () => (calls.push('flush'), true) });
    calls.length = 0;
    for (let i = 0; i < 1000; i++) log.emit(ev(log, i, 'delivered'));
    // the long callback is still running: what went out sooner is already flushed, each run of writes once
    const flushes = calls.filter((c) => c === 'flush').length;
    expect(flushes).toBeGreaterThanOrEqual(4);
    expect(calls.at(-1)).toBe('flush');
    expect(calls.filter((c, i) => c === 'flush' && calls[i - 1] === 'flush')).toHaveLength(0);
    await turn();
    expect(calls.at(-1)).toBe('flush');
  });

  it('a write above the socket mark that the OS took at once (flush says so) does not block; one it did not take does', () => {
    const taken = { writes: 0 };
    const log = new EventLog();
    log.subscribe({ write: () => (taken.writes++, false), flush: () => true });
    for (let i = 0; i < 1000; i++) log.emit(ev(log, i));
    // every run of 200 went out in the middle of the callback
    expect(taken.writes).toBeGreaterThanOrEqual(5);
    const held = { writes: 0 };
    const slow = new EventLog();
    slow.subscribe({ write: () => (held.writes++, false), flush: () => false });
    for (let i = 0; i < 1000; i++) slow.emit(ev(slow, i));
    expect(held.writes).toBe(1);
  });

  it('a batch subscriber gets one message per turn with the events as an array, id = the last seq; notices stay apart', async () => {
    const log = new EventLog();
    const got: string[] = [];
    log.subscribe({ batch: true, write: (f) => (got.push(String(f)), true) });
    for (let i = 0; i < 3; i++) log.emit(ev(log, i));
    log.notice({ level: 'warn', code: 'x', message: 'm', t: 0 });
    log.emit(ev(log, 3));
    await turn();
    const frames = framesOf(got);
    expect(frames).toHaveLength(3);
    expect(frames[0]!.split('\n').slice(0, 2)).toEqual(['id: 3', 'event: batch']);
    expect((JSON.parse(frames[0]!.split('\ndata: ')[1]!) as SimEvent[]).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(frames[1]).toMatch(/^event: notice\n/);
    expect(frames[2]!.split('\n').slice(0, 2)).toEqual(['id: 4', 'event: batch']);
  });

  it('timing: each live event carries its delivery time; replays do not', async () => {
    const log = new EventLog();
    log.emit(ev(log, 0, 'delivered'), performance.now());
    const got: string[] = [];
    log.subscribe({ timing: true, write: (f) => (got.push(String(f)), true) });
    const rx = performance.now();
    log.emit(ev(log, 1, 'delivered'), rx);
    await turn();
    const frames = framesOf(got);
    expect(frames[0]).toMatch(/^id: 1\n/);
    // a live chunk comes after the time it was handed to the socket
    expect(Number(/^: sent=([\d.]+)$/.exec(frames[1]!)?.[1])).toBeGreaterThanOrEqual(performance.timeOrigin + rx);
    expect(frames[2]).toMatch(new RegExp(`^: rx=${String(performance.timeOrigin + rx).replace('.', '\\.')}\nid: 2\n`));
    // the live delivery written is a latency figure; the replayed one is not
    expect(log.latencies).toHaveLength(1);
  });
});

describe('event log: slow, blocked and late subscribers, the bounds', () => {
  it('a slow subscriber may fall 20,000 events behind, then skips the oldest with a notice of what it missed', async () => {
    const log = new EventLog(30_000);
    const got: string[] = [];
    let open = false;
    const { handle } = log.subscribe({ write: (f) => (got.push(String(f)), open) });
    for (let i = 0; i < 25_000; i++) log.emit(ev(log, i));
    await turn();
    // the first write filled the socket: the rest waits, up to 20,000 behind the newest; older ones are skipped
    expect(got).toHaveLength(1);
    const first = framesOf(got).length;
    open = true;
    log.drained(handle);
    await settle();
    const dropped = Number(/(\d+) events were dropped/.exec(got[1]!)?.[1]);
    const after = framesOf(got.slice(2));
    expect(after).toHaveLength(20_000);
    expect(first + after.length + dropped).toBe(25_000);
    expect(after.at(-1)).toMatch(/^id: 25000\n/);
    expect(after[0]).toMatch(/^id: 5001\n/);
  });

  it('the end comes after everything the subscriber still has to read, even a blocked one', async () => {
    const log = new EventLog();
    const got: string[] = [];
    let open = false;
    let ended = 0;
    const { handle } = log.subscribe({ write: (f) => (got.push(String(f)), open), ended: () => ended++ });
    for (let i = 0; i < 2500; i++) log.emit(ev(log, i));
    await turn();
    log.end();
    expect(ended).toBe(0);
    open = true;
    log.drained(handle);
    await settle();
    const frames = framesOf(got);
    expect(frames).toHaveLength(2501);
    expect(frames.at(-1)).toBe('event: end\ndata: {}');
    expect(ended).toBe(1);
    // a reader that comes after the end gets the ring, then the end
    const late: string[] = [];
    log.subscribe({ write: (f) => (late.push(String(f)), true), ended: () => ended++ });
    // 2,500 events are ten chunks: written over two turns, the end last
    expect(framesOf(late)).toHaveLength(2000);
    await settle();
    expect(framesOf(late)).toHaveLength(2501);
    expect(framesOf(late).at(-1)).toBe('event: end\ndata: {}');
    expect(ended).toBe(2);
  });

  it('a late subscriber reads the ring by cursor: the bound applies from its first event, and 300 stalled ones hold no copy', async () => {
    const log = new EventLog(50_000);
    for (let i = 0; i < 50_000; i++) log.emit(ev(log, i));
    const writes: number[] = [];
    for (let k = 0; k < 300; k++) log.subscribe({ write: (f) => (writes.push(f.length), false) });
    // each stalled subscriber was written one chunk (the socket then said full), not the ring
    expect(writes).toHaveLength(300 + 300);
    const notices = writes.filter((_, i) => i % 2 === 0);
    expect(new Set(notices).size).toBe(1);
    const chunks = writes.filter((_, i) => i % 2 === 1);
    expect(Math.max(...chunks)).toBeLessThan(250 * 200);
  });

  it('bounds the ring by bytes too: large events are kept fewer, the newest always', () => {
    const log = new EventLog(50_000, 20_000, 5_000);
    for (let i = 0; i < 100; i++) log.emit(ev(log, i));
    const kept = log.events();
    // each frame is about 100 bytes: about 50 fit in 5,000
    expect(kept.length).toBeGreaterThan(30);
    expect(kept.length).toBeLessThan(70);
    expect(kept.at(-1)?.seq).toBe(100);
    const big = { ...ev(log, 100), body: 'x'.repeat(20_000) } as SimEvent;
    log.emit(big);
    expect(log.events().map((e) => e.seq)).toEqual([101]);
  });

  it('percentile', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([], 95)).toBeNaN();
  });
});
