import { describe, expect, it } from 'vitest';
import { ProcessingCounts } from './processingCounts.js';

describe('ProcessingCounts', () => {
  it('numbers a message attempts across workers, each message on its own', () => {
    const c = new ProcessingCounts(() => true);
    expect([c.nextAttempt('m-1'), c.nextAttempt('m-1'), c.nextAttempt('m-2'), c.nextAttempt('m-1')]).toEqual([
      1, 2, 1, 3,
    ]);
  });

  it('a message processed twice on one queue is one duplicate (a third time adds none); on another queue it is not', () => {
    const c = new ProcessingCounts((id) => id !== 'm-9');
    c.processed('m-1', 'work');
    c.processed('m-1', 'retry');
    expect(c.duplicates).toBe(0);
    c.processed('m-1', 'work');
    c.processed('m-1', 'work');
    c.processed('m-9', 'work');
    c.processed('m-9', 'work');
    expect(c.duplicates).toBe(2);
    // only the messages the prediction covers are named
    expect([...c.duplicateIds]).toEqual(['m-1']);
    c.forget();
    expect(c.duplicates).toBe(2);
    expect(c.nextAttempt('m-1')).toBe(1);
  });
});
