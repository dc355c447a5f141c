import { describe, expect, it } from 'vitest';
import { EventLog, percentile } from './eventLog.js';
import type { SimEvent } from '@retry-studio/topology-core';

const ev = (log: EventLog, i: number): SimEvent => ({ kind: 'acked', msgId: `m-${i}`, body: 'b', queue: 'q', consumer: 'c', t: i, seq: log.nextSeq() });

describe('event log', () => {
  it('keeps a bounded ring and replays after Last-Event-ID', () => {
    const log = new EventLog(10);
    for (let i = 0; i < 25; i++) log.emit(ev(log, i));
    expect(log.events().map((e) => e.seq)).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
    const got: string[] = [];
    log.subscribe({ write: (f) => (got.push(f), true) }, 22);
    expect(got.map((f) => /^id: (\d+)/.exec(f)?.[1])).toEqual(['23', '24', '25']);
  });

  it('a slow subscriber gets a bounded queue, then a notice of what it missed', () => {
    const log = new EventLog(100);
    const got: string[] = [];
    let open = false;
    const { handle } = log.subscribe({ write: (f) => (got.push(f), open) });
    for (let i = 0; i < 25_000; i++) log.emit(ev(log, i));
    expect(got.length).toBe(1); // the first write filled the socket
    open = true;
    log.drained(handle);
    expect(got[1]).toMatch(/events-dropped/);
    expect(got[1]).toMatch(/4999 events were dropped/);
    expect(got.length).toBe(2 + 20_000);
  });

  it('percentile', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([], 95)).toBeNaN();
  });
});
