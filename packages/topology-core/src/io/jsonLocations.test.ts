import { describe, expect, it } from 'vitest';
import { jsonLocations } from './jsonLocations.js';

describe('jsonLocations', () => {
  it('gives each value its line and column by JSON pointer', () => {
    const text = '{\n  "queues": [\n    {"name": "a"},\n    {\n      "name": "b\\"c"\n    }\n  ],\n  "x/y": 1\n}\n';
    const m = jsonLocations(text)!;
    expect(m.get('')).toEqual({ line: 1, column: 1 });
    expect(m.get('/queues')).toEqual({ line: 2, column: 13 });
    expect(m.get('/queues/0')).toEqual({ line: 3, column: 5 });
    expect(m.get('/queues/1')).toEqual({ line: 4, column: 5 });
    expect(m.get('/queues/1/name')).toEqual({ line: 5, column: 15 });
    expect(m.get('/x~1y')).toEqual({ line: 8, column: 10 });
  });

  it('stops at the depth asked, skips a byte-order mark, and refuses what is not JSON', () => {
    const m = jsonLocations('\ufeff{"a": {"b": {"c": [1, 2]}}}', 2)!;
    expect(m.get('')).toEqual({ line: 1, column: 1 });
    expect(m.get('/a/b')).toBeDefined();
    expect(m.has('/a/b/c')).toBe(false);
    expect(jsonLocations('{"a": ${var}}')).toBeUndefined();
    expect(jsonLocations('{"a": 1')).toBeUndefined();
    expect(jsonLocations('{"a": 1} x')).toBeUndefined();
  });

  it('agrees with JSON.parse on where every array element starts', () => {
    const doc = {
      queues: Array.from({ length: 50 }, (_, k) => ({ name: `q${k}`, arguments: { 'x-message-ttl': k } })),
    };
    const text = JSON.stringify(doc, null, 3);
    const m = jsonLocations(text)!;
    const lines = text.split('\n');
    for (let k = 0; k < 50; k++) {
      const p = m.get(`/queues/${k}`)!;
      expect(lines[p.line - 1]![p.column - 1]).toBe('{');
      const nameAt = m.get(`/queues/${k}/name`)!;
      expect(lines[nameAt.line - 1]!.slice(nameAt.column - 1)).toMatch(new RegExp(`^"q${k}"`));
    }
  });
});
