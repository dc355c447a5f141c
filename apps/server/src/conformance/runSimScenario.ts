/**
 * The sim target: the core simulator run on a scenario, observed as the format README says.
 * The core's scenario runner is looked up by name so that this file keeps compiling while the
 * simulator lands; when none is exported the result is `unavailable` (reported as match: null).
 */
import * as core from '@retry-studio/topology-core';
import type { Observed, Scenario } from '@retry-studio/topology-core';

export type SimRunResult = { readonly kind: 'observed'; readonly observed: Observed } | { readonly kind: 'unavailable'; readonly reason: string };

/** Names the core may export for "run this scenario in the simulator and return the Observed". */
const CANDIDATES = ['simulateScenario', 'runScenarioOnSimulator', 'runScenarioSim', 'observeScenario', 'runScenario'] as const;

export async function runSimScenario(s: Scenario): Promise<SimRunResult> {
  const mod = core as unknown as Record<string, unknown>;
  for (const name of CANDIDATES) {
    const fn = mod[name];
    if (typeof fn === 'function') {
      const out = await (fn as (s: Scenario) => unknown)(s);
      const observed = (out && typeof out === 'object' && 'observed' in out ? (out as { observed: Observed }).observed : out) as Observed;
      return { kind: 'observed', observed };
    }
  }
  return { kind: 'unavailable', reason: 'the simulator scenario runner is not exported by @retry-studio/topology-core yet' };
}
