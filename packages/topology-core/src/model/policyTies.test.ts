import { describe, expect, it } from 'vitest';
import type { PolicyDef, Topology } from './definitions.js';
import { policyTies } from './policyTies.js';
import { queueEffectiveSettings } from './effectiveSettings.js';
import { lintTopology } from '../lint/lintDesign.js';

/** Issue 21.5's shape: a dead-letter policy and an everything policy, both priority 0. */
const policies: PolicyDef[] = [
  {
    name: 'dead-letter',
    pattern: '^(content_data_api|cache_clearing_service-low)$',
    'apply-to': 'queues',
    priority: 0,
    definition: { 'dead-letter-exchange': 'dlx', 'message-ttl': 60000 },
  },
  { name: 'ha-all', pattern: '.*', 'apply-to': 'queues', priority: 0, definition: { 'max-length': 100000 } },
];
const topology = (pins?: Record<string, string>): Topology => ({
  exchanges: [{ name: 'dlx', type: 'fanout' }],
  queues: ['content_data_api', 'cache_clearing_service-low', 'other'].map((name) => ({ name })),
  bindings: [],
  policies,
  ...(pins ? { policyPins: pins } : {}),
});

describe('policy ties', () => {
  it('names every tied queue, the policies, the settings at stake and the one assumed', () => {
    expect(policyTies(topology())).toEqual([
      {
        policies: ['dead-letter', 'ha-all'],
        priority: 0,
        assumed: 'ha-all',
        pinned: false,
        queues: ['content_data_api', 'cache_clearing_service-low'],
        atStake: [
          { key: 'dead-letter-exchange', values: { 'dead-letter': 'dlx', 'ha-all': undefined } },
          { key: 'message-ttl', values: { 'dead-letter': 60000, 'ha-all': undefined } },
          { key: 'max-length', values: { 'dead-letter': undefined, 'ha-all': 100000 } },
        ],
      },
    ]);
    const f = lintTopology(topology()).find((x) => x.id === 'policy-priority-tie')!;
    expect(f.message).toContain('which one is unspecified');
    expect(f.message).toContain('Lint and simulate assume ha-all');
    expect(f.objects).toEqual(['queue:content_data_api', 'queue:cache_clearing_service-low']);
  });

  it("a pinned queue takes the broker's choice: its effective settings and the tie say so", () => {
    const t = topology({ content_data_api: 'dead-letter' });
    const s = queueEffectiveSettings(t.queues[0]!, t);
    expect(s.policy).toBe('dead-letter');
    expect(s.settings['x-dead-letter-exchange']?.value).toBe('dlx');
    expect(queueEffectiveSettings(t.queues[1]!, t).policy).toBe('ha-all');
    const ties = policyTies(t);
    expect(ties.map((x) => [x.queues, x.assumed, x.pinned])).toEqual([
      [['content_data_api'], 'dead-letter', true],
      [['cache_clearing_service-low'], 'ha-all', false],
    ]);
  });
});
