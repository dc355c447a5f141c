import { describe, expect, it } from 'vitest';
import { QueueAvailability } from './queueAvailability.js';

describe('QueueAvailability', () => {
  it('says a queue unavailable once, blocks the trace while it is down, and counts what it lost once back', () => {
    let t = 100;
    const a = new QueueAvailability(() => t);
    expect(a.blocker()).toBeUndefined();
    expect(a.markReachable('work')).toBeUndefined();
    expect(a.markUnavailable('work', "state 'down'", 3)).toMatchObject({
      code: 'queue-unavailable',
      message: expect.stringMatching(/the 3 message\(s\)/),
    });
    expect(a.markUnavailable('work', "state 'down'", 3)).toBeUndefined();
    expect(a.isDown('work')).toBe(true);
    expect(a.blocker()).toMatch(/queue 'work' is unavailable/);
    t = 350;
    expect(a.markReachable('work')).toMatchObject({
      code: 'queue-available',
      message: expect.stringMatching(/after 250 ms/),
    });
    expect([a.isDown('work'), a.blocker()]).toEqual([false, undefined]);
    expect(a.snapshot()).toEqual({ work: { fromMs: 100, untilMs: 350 } });
    // down again later: said again
    expect(a.markUnavailable('work', 'x', 0)).toBeDefined();
    // the trace saw 5 resting there, the broker holds 2 ready + 1 unacked: 2 lost; other queues are not looked at
    expect(
      a.lostWhileUnavailable(
        { work: 5, parking: 9 },
        { work: { ready: 2, unacked: 1 }, parking: { ready: 0, unacked: 0 } },
      ),
    ).toEqual({ work: 2 });
  });
});
