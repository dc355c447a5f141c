/** The sim target: the core simulator run on a scenario, observed as the format README says (core: simulateScenario). */
import { simulateScenario, type Observed, type Scenario } from '@retry-studio/topology-core';

export type SimRunResult = { readonly kind: 'observed'; readonly observed: Observed } | { readonly kind: 'unavailable'; readonly reason: string };

export function runSimScenario(s: Scenario): SimRunResult {
  return { kind: 'observed', observed: simulateScenario(s).observed };
}
