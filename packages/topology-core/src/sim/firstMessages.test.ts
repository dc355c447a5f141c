import { describe, expect, it } from 'vitest';
import type { SimEvent } from './events.js';
import { firstMessages } from './firstMessages.js';

let seq = 0;
const acked = (msgId: string): SimEvent => ({
  kind: 'acked',
  t: seq,
  seq: ++seq,
  msgId,
  body: msgId,
  queue: 'q',
  consumer: 'w',
});
const depth = (): SimEvent =>
  ({ kind: 'depth', t: seq, seq: ++seq, msgId: '', body: '', queue: 'q', ready: 1, unacked: 0 }) as SimEvent;

describe('firstMessages', () => {
  it('keeps the events of the first n messages, in order, and those about no message', () => {
    const evs = [acked('a'), depth(), acked('b'), acked('c'), acked('a'), acked('c')];
    expect(firstMessages(evs, 2).map((e) => e.msgId)).toEqual(['a', '', 'b', 'a']);
    expect(firstMessages(evs, 0).map((e) => e.msgId)).toEqual(['']);
    expect(firstMessages(evs, 5)).toHaveLength(evs.length);
  });
});
