import { describe, expect, it } from 'vitest';
import { RULES } from './rules.js';
import { RULE_DOCS } from './ruleDocs.js';

describe('lint rules are one object each', () => {
  it('every rule carries its docs, and its id once in the registry', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(RULE_DOCS).sort()).toEqual([...ids].sort());
    for (const r of RULES) {
      expect(r.description.length, r.id).toBeGreaterThan(20);
      expect(r.help.length, r.id).toBeGreaterThan(10);
      expect(['error', 'warning', 'info'], r.id).toContain(r.level);
    }
  });
});
