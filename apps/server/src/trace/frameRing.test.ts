import { describe, expect, it } from 'vitest';
import { FrameRing } from './frameRing.js';

const push = (r: FrameRing, seq: number, json = `{"n":${seq}}`, rxAt = NaN) =>
  r.push(seq, false, `id: ${seq}\ndata: `, json, rxAt, true);

describe('FrameRing', () => {
  it('keeps each frame and its JSON, side by side, and grows past its first arrays', () => {
    const r = new FrameRing(10_000, 1 << 30);
    for (let i = 1; i <= 3000; i++) push(r, i, `{"n":${i}}`, i / 2);
    expect([r.start, r.end]).toEqual([0, 3000]);
    expect(r.frame(41).toString()).toBe('id: 42\ndata: {"n":42}\n\n');
    expect(r.json(41).toString()).toBe('{"n":42}');
    expect([r.seq(41), r.rxAt(41), r.isDelivery(41), r.isNotice(41)]).toEqual([42, 21, true, false]);
    // consecutive frames in one slab are one slice
    expect(r.span(10, 13)?.toString()).toBe(
      'id: 11\ndata: {"n":11}\n\nid: 12\ndata: {"n":12}\n\nid: 13\ndata: {"n":13}\n\n',
    );
  });

  it('evicts the oldest past its count or its bytes, and frees whole slabs', () => {
    const byCount = new FrameRing(100, 1 << 30);
    for (let i = 1; i <= 5000; i++) push(byCount, i);
    expect([byCount.start, byCount.end]).toEqual([4900, 5000]);
    expect(byCount.json(4900).toString()).toBe('{"n":4901}');
    const byBytes = new FrameRing(1_000_000, 100_000);
    const big = `{"x":"${'y'.repeat(1000)}"}`;
    for (let i = 1; i <= 1000; i++) push(byBytes, i, big);
    expect(byBytes.bytes).toBeLessThanOrEqual(100_000);
    expect(byBytes.end - byBytes.start).toBe(Math.floor(100_000 / byBytes.frame(999).length));
    expect(byBytes.seq(byBytes.end - 1)).toBe(1000);
    byBytes.trim(10_000);
    expect(byBytes.end - byBytes.start).toBe(Math.floor(10_000 / byBytes.frame(999).length));
  });

  it('a frame above half a slab gets one of its own; a multi-byte JSON is counted in bytes', () => {
    const r = new FrameRing(100, 1 << 30);
    push(r, 1, `{"s":"${'é'.repeat(100_000)}"}`);
    push(r, 2);
    expect(r.json(0).toString()).toBe(`{"s":"${'é'.repeat(100_000)}"}`);
    expect(r.frame(0).length).toBe(Buffer.byteLength(`id: 1\ndata: {"s":"${'é'.repeat(100_000)}"}\n\n`));
    expect(r.span(0, 2)).toBeUndefined();
    expect(r.json(1).toString()).toBe('{"n":2}');
  });
});
