/** Run a scenario on the simulator and compare with its `expect` block. */
import type { BrokerProfileId } from '../model/design.js';
import type { Observed, Scenario } from './types.js';
import type { SimulationResult } from '../sim/types.js';
import { simulate } from '../sim/simulate.js';
import { fromScenario } from './fromScenario.js';
import { observe } from './observe.js';
import { compareObserved } from './compare.js';

export interface ScenarioSimRun {
  readonly observed: Observed;
  readonly result: SimulationResult;
  /** null when the scenario has no expect block */
  readonly match: boolean | null;
  readonly diff: string[];
}

export function simulateScenario(s: Scenario, opts: { readonly profile?: BrokerProfileId } = {}): ScenarioSimRun {
  const result = simulate(fromScenario(s, opts));
  const observed = observe(result);
  if (!s.expect) return { observed, result, match: null, diff: [] };
  const c = compareObserved(observed, s.expect);
  return { observed, result, match: c.match, diff: c.diff };
}
