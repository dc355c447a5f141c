import { describe, expect, it } from 'vitest';
import type { PolicyDef } from './definitions.js';
import { policyMatches, prefixedPolicyPattern, type PolicyTarget } from './policyMatch.js';

const p = (pattern: string): PolicyDef => ({ name: 'p', pattern, definition: { 'message-ttl': 1 } });
const names: { name: string; target: PolicyTarget }[] = ['orders.wait', 'orders.work', 'wait', 'audit'].map((name) => ({
  name,
  target: 'classic',
}));

describe('policy patterns on prefixed names', () => {
  it('anchors the pattern at the prefix and keeps what it matches', () => {
    for (const pattern of ['^orders\\.wait$', 'wait', '^orders', 'w.*t$']) {
      const moved = prefixedPolicyPattern(p(pattern), 'rs.demo.', names);
      expect(moved.startsWith('^rs\\.demo\\.')).toBe(true);
      for (const n of names)
        expect(policyMatches({ ...p(moved) }, `rs.demo.${n.name}`, n.target)).toBe(
          policyMatches(p(pattern), n.name, n.target),
        );
      // never another deployment's objects
      expect(policyMatches(p(moved), 'rs.other.orders.wait', 'classic')).toBe(false);
    }
    expect(prefixedPolicyPattern(p('^orders\\.wait$'), 'rs.demo.', names)).toBe('^rs\\.demo\\.(?:orders\\.wait$)');
  });

  it('falls back to the matched names when moving the pattern would change what it matches', () => {
    const moved = prefixedPolicyPattern(p('^audit|^wait'), 'rs.demo.', names);
    expect(moved).toBe('^(?:rs\\.demo\\.wait|rs\\.demo\\.audit)$');
  });

  it('no prefix (a vhost of its own): the pattern as written', () => {
    expect(prefixedPolicyPattern(p('wait'), '', names)).toBe('wait');
  });
});
