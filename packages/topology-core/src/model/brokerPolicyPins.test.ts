import { describe, expect, it } from 'vitest';
import { brokerPolicyPins } from './policyTies.js';
import { queueEffectiveSettings } from './effectiveSettings.js';
import type { PolicyDef, Topology } from './definitions.js';

describe('brokerPolicyPins', () => {
  it("pins the policy the broker reports, only for policies that were read, and the queue's settings follow it", () => {
    const policies: PolicyDef[] = [
      { name: 'a', pattern: '^q$', priority: 0, definition: { 'message-ttl': 100 } },
      { name: 'b', pattern: '^q', priority: 0, definition: { 'max-length': 5 } },
    ];
    const pins = brokerPolicyPins(
      [{ name: 'q', policy: 'b' }, { name: 'r', policy: '' }, { name: 's', policy: 'not-read' }, { name: 't' }],
      policies,
    );
    expect(pins).toEqual({ q: 'b' });
    expect(brokerPolicyPins([{ name: 'q' }], policies)).toBeUndefined();
    const t: Topology = { exchanges: [], queues: [{ name: 'q' }], bindings: [], policies, policyPins: pins! };
    expect(queueEffectiveSettings(t.queues[0]!, t).policy).toBe('b');
  });
});
