import { describe, expect, it } from 'vitest';
import type { SimEvent } from '@retry-studio/topology-core/sim';
import { LiveTraceBuffer } from './liveTraceBuffer';
import { traceDurationMs } from '../broker/traceDuration';

let seq = 0;
const ev = (msgId: string, kind: 'acked' | 'depth' = 'acked'): SimEvent =>
  kind === 'depth'
    ? ({ kind: 'depth', msgId: '', body: '', queue: 'q', ready: 1, unacked: 0, t: seq, seq: ++seq } as SimEvent)
    : ({ kind: 'acked', msgId, body: msgId, queue: 'q', consumer: 'w', t: seq, seq: ++seq } as SimEvent);

describe('live trace buffer', () => {
  it('keeps every event of the first N messages, counts the rest', () => {
    const b = new LiveTraceBuffer({ maxMessages: 2 });
    const added = ['p-1', 'p-2', 'p-1', 'p-3', 'p-2', 'p-4'].map((m) => b.add(ev(m)));
    expect(added).toEqual([true, true, true, false, true, false]);
    expect(b.events.map((e) => e.msgId)).toEqual(['p-1', 'p-2', 'p-1', 'p-2']);
    expect(b.received).toBe(6);
    expect([b.messagesShown, b.messagesSeen]).toEqual([2, 4]);
  });

  it('an update is due only when a shown message got events; depth samples are kept without one', () => {
    const b = new LiveTraceBuffer({ maxMessages: 1 });
    expect(b.add(ev('', 'depth'))).toBe(false);
    expect(b.pending).toBe(false);
    b.add(ev('p-1'));
    expect(b.pending).toBe(true);
    b.taken();
    b.add(ev('p-2'));
    b.add(ev('', 'depth'));
    expect(b.pending).toBe(false);
    expect(b.events.map((e) => e.kind)).toEqual(['depth', 'acked', 'depth']);
  });

  it('waits between updates in proportion to what the last one cost, within bounds', () => {
    const b = new LiveTraceBuffer({ minDelayMs: 150, maxDelayMs: 2000, costFactor: 8 });
    expect(b.delayMs).toBe(150);
    b.cost(50);
    expect(b.delayMs).toBe(400);
    b.cost(1000);
    expect(b.delayMs).toBe(2000);
    b.cost(1);
    expect(b.delayMs).toBe(150);
  });

  it('a trace may run longer than the default minute when it has many messages', () => {
    expect(traceDurationMs(3)).toBe(60_000);
    expect(traceDurationMs(10_000)).toBe(300_000);
    expect(traceDurationMs(100_000)).toBe(30 * 60_000);
  });
});
