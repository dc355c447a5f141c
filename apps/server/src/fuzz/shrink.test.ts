import { describe, expect, it } from 'vitest';
import type { Scenario } from '@retry-studio/topology-core/scenario';
import { generateScenario } from './generateScenario.js';
import { shrinkCandidates, shrinkScenario } from './shrink.js';

describe('shrinkScenario', () => {
  it('keeps cutting while the case still disagrees: down to the one queue and step that matter', async () => {
    const s = generateScenario(11, 'n');
    const work = s.consumers[0]!.queue;
    // the "disagreement": the first consumer's queue is still there, with its consumer, and a publish is left
    const disagrees = async (c: typeof s): Promise<boolean> =>
      c.topology.queues.some((q) => q.name === work) && c.consumers.some((k) => k.queue === work) && c.steps.length > 0;
    const { scenario } = await shrinkScenario(s, disagrees, 500);
    expect(scenario.topology.queues.map((q) => q.name)).toEqual([work]);
    expect(scenario.topology.queues[0]!.arguments ?? {}).toEqual({});
    expect(scenario.consumers).toHaveLength(1);
    expect(scenario.consumers[0]!.actions).toHaveLength(1);
    expect(scenario.steps).toHaveLength(1);
    expect(scenario.topology.bindings).toEqual([]);
    expect(scenario.topology.policies ?? []).toEqual([]);
  });

  it('a variant the caller will not try (undefined) is skipped, and the budget bounds the tries', async () => {
    const s = generateScenario(12, 'n');
    const { scenario, tried } = await shrinkScenario(s, async () => undefined, 5);
    expect(scenario).toBe(s);
    expect(tried).toBe(0);
    const bounded = await shrinkScenario(s, async () => false, 3);
    expect(bounded.tried).toBe(Math.min(3, [...shrinkCandidates(s)].length));
  });

  it('a queue cut takes its bindings and consumers with it', () => {
    const s = generateScenario(13, 'n');
    const q = s.topology.queues[0]!.name;
    const first: Scenario = shrinkCandidates(s).next().value!;
    expect(first.topology.queues.some((x) => x.name === q)).toBe(false);
    expect(first.topology.bindings.some((b) => b.destination === q)).toBe(false);
    expect(first.consumers.some((c) => c.queue === q)).toBe(false);
  });
});
