import { describe, expect, it } from 'vitest';
import { messageIndexOf } from './testPublisher.js';

describe('messageIndexOf', () => {
  it("reads the number after the id's last '-', as the simulator names test messages", () => {
    expect(['p1-1', 'p1-2000', 'p-10000', 'a-b-3', 'untraced-5'].map(messageIndexOf)).toEqual([1, 2000, 10000, 3, 5]);
    expect(['x', 'p1-', 'p1-1a', '12', ''].map(messageIndexOf)).toEqual([0, 0, 0, 0, 0]);
  });
});
