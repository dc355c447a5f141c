import { describe, expect, it } from 'vitest';
import { SourceAcks } from './sourceAcks.js';

function acks() {
  const sent: [number, boolean][] = [];
  const a = new SourceAcks<number>((tag, multiple) => sent.push([tag, multiple]));
  const slots = Array.from({ length: 6 }, (_, i) => a.add(i + 1, i + 1));
  return { a, sent, slots };
}

describe('SourceAcks', () => {
  it('acks the confirmed run with one multiple ack and stops at a delivery still being published', () => {
    const { a, sent, slots } = acks();
    for (const i of [0, 1, 3]) slots[i]!.state = 'confirmed';
    expect(a.flush()).toEqual([1, 2]);
    expect(sent).toEqual([[2, true]]);
    slots[2]!.state = 'confirmed';
    expect(a.flush()).toEqual([3, 4]);
    expect(sent.at(-1)).toEqual([4, true]);
    expect(a.outstanding().map((s) => s.tag)).toEqual([5, 6]);
  });

  it('never covers a held delivery: confirmed ones behind it are acked one by one', () => {
    const { a, sent, slots } = acks();
    slots[0]!.state = 'confirmed';
    slots[1]!.state = 'held';
    slots[2]!.state = 'confirmed';
    slots[4]!.state = 'confirmed';
    expect(a.flush()).toEqual([1, 3]);
    expect(sent).toEqual([
      [1, true],
      [3, false],
    ]);
    slots[3]!.state = 'confirmed';
    slots[5]!.state = 'confirmed';
    expect(a.flush()).toEqual([4, 5, 6]);
    expect(sent.slice(2)).toEqual([
      [4, false],
      [5, false],
      [6, false],
    ]);
    expect(a.outstanding().map((s) => [s.tag, s.state])).toEqual([[2, 'held']]);
  });

  it('sends nothing while the first delivery is still being published', () => {
    const { a, sent, slots } = acks();
    slots[1]!.state = 'confirmed';
    expect(a.flush()).toEqual([]);
    expect(sent).toEqual([]);
  });
});
