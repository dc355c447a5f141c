// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { getTemplate } from '@retry-studio/topology-core/templates';
import { tunedParams } from './templates';

describe('a template with tuned parameters is work', () => {
  it('lists the parameters that differ from their defaults, none for the template as it comes', () => {
    const t = getTemplate('dlx-ttl-wait-queue')!;
    const ints = t.params.filter((p) => p.type === 'integer');
    expect(ints.length).toBeGreaterThan(0);
    const p = ints[0]!;
    expect(tunedParams(t.params, {})).toEqual([]);
    expect(tunedParams(t.params, { [p.name]: p.default })).toEqual([]);
    const tuned = tunedParams(t.params, { [p.name]: (p.default as number) + 2 });
    expect(tuned).toEqual([`${p.name} ${(p.default as number) + 2}${p.unit === 'ms' ? ' ms' : ''}`]);
  });
});
