/** Run a scenario on the simulator and compare with its `expect` block. */
import type { Observed, Scenario } from './types.js';
import type { SimulationResult } from '../sim/types.js';
import { simulate } from '../sim/simulate.js';
import { fromScenario, type ScenarioSimOptions } from './fromScenario.js';
import { observe } from './observe.js';
import { compareObserved } from './compare.js';

export interface ScenarioSimRun {
  readonly observed: Observed;
  readonly result: SimulationResult;
  /** false when it was still busy at the time or event bound (e.g. redelivered forever) */
  readonly settled: boolean;
  /** null when the scenario has no expect block */
  readonly match: boolean | null;
  readonly diff: string[];
}

export function simulateScenario(s: Scenario, opts: ScenarioSimOptions = {}): ScenarioSimRun {
  const result = simulate(fromScenario(s, opts));
  const observed = observe(result);
  const settled = !result.truncated;
  if (!s.expect) return { observed, result, settled, match: null, diff: [] };
  const c = compareObserved(observed, s.expect);
  return { observed, result, settled, match: c.match, diff: c.diff };
}
