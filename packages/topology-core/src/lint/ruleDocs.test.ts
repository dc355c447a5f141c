import { describe, expect, it } from 'vitest';
import { RULES } from './rules.js';
import { RULE_DOCS } from './ruleDocs.js';

describe('lint rule docs', () => {
  it('every rule has docs, and every doc a rule', () => {
    const ids = RULES.map((r) => r.id).sort();
    expect(Object.keys(RULE_DOCS).sort()).toEqual(ids);
    for (const d of Object.values(RULE_DOCS)) {
      expect(d.description.length).toBeGreaterThan(20);
      expect(d.help.length).toBeGreaterThan(10);
    }
  });
});
