import { describe, expect, it } from 'vitest';
import { GROUP_AFTER, groupFindings, objectList } from './findingGroups.js';

const finding = (id: string, severity: string, objects: string[]) => ({
  id,
  severity,
  objects,
  message: `${id} on ${objects.join(',')}`,
});

describe('groupFindings', () => {
  it('keeps a few findings of a rule one by one and groups more, in the order rules first appear', () => {
    const many = Array.from({ length: 1000 }, (_, i) =>
      finding('no-retry-limit', 'warning', [`queue:q${i}`, 'exchange:dlx']),
    );
    const groups = groupFindings([
      finding('ttl-zero', 'error', ['queue:a']),
      ...many,
      finding('ttl-zero', 'error', ['queue:b']),
    ]);
    expect(groups.map((g) => g.kind)).toEqual(['single', 'single', 'group']);
    const g = groups[2]!;
    if (g.kind !== 'group') throw new Error('expected a group');
    expect(g.findings).toHaveLength(1000);
    expect(g.first.objects[0]).toBe('queue:q0');
    expect(g.objects).toHaveLength(1001); // the shared dead-letter exchange once
    expect(groupFindings(many.slice(0, GROUP_AFTER)).every((x) => x.kind === 'single')).toBe(true);
  });

  it('keeps severities apart and names the first objects with a count', () => {
    const groups = groupFindings([finding('r', 'warning', ['a']), finding('r', 'error', ['b'])]);
    expect(groups).toHaveLength(2);
    expect(objectList(['a', 'b', 'c'], 2)).toBe('a, b, ... and 1 more');
    expect(objectList(['a'])).toBe('a');
  });
});
