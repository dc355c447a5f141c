import { describe, expect, it } from 'vitest';
import { buildTemplate } from './registry.js';
import { templateToScenario } from './toScenario.js';
import type { ScenarioAction } from '../scenario/types.js';

function actionsOf(id: string, params: Record<string, unknown>): readonly ScenarioAction[] {
  const b = buildTemplate(id, params);
  if (!b.ok) throw new Error(`${id}: ${JSON.stringify(b.errors)}`);
  const s = templateToScenario(b.template, `template-${id}`);
  if (!s.ok) throw new Error(s.reason);
  return s.scenario.consumers[0]!.actions;
}

describe('templateToScenario: how a consumer requeues', () => {
  it('a requeue declared via basic.reject is written reject-requeue (quorum delayed retry)', () => {
    // every return counts toward the limit: deliveryLimit returns, then the one over the limit dead-letters
    expect(actionsOf('quorum-delayed-retry', { deliveryLimit: 2, minDelayMs: 100, maxDelayMs: 200 })).toEqual([
      'reject-requeue',
      'reject-requeue',
      'reject-requeue',
    ]);
  });

  it('a plain requeue stays a basic.nack (requeue)', () => {
    const actions = actionsOf('requeue-once', {});
    expect(actions).toContain('requeue');
    expect(actions).not.toContain('reject-requeue');
  });
});
