/** The sim target: the core simulator run on a scenario, observed as the format README says (core: simulateScenario). */
import {
  profileFromRecordedOn,
  simulateScenario,
  type Observed,
  type Scenario,
  type ScenarioProfile,
} from '@retry-studio/topology-core/scenario';
import { unsettledReason } from './unsettled.js';

export type SimRunResult =
  | { readonly kind: 'observed'; readonly observed: Observed; readonly profile: ScenarioProfile }
  | { readonly kind: 'unsettled'; readonly reason: string; readonly profile: ScenarioProfile }
  | { readonly kind: 'unavailable'; readonly reason: string };

export interface SimRunOptions {
  /** default: from the scenario's recorded_on */
  readonly profile?: ScenarioProfile;
  /** the same bound the broker run has, in virtual ms */
  readonly maxRunMs: number;
}

export function runSimScenario(s: Scenario, o: SimRunOptions): SimRunResult {
  const profile = o.profile ?? profileFromRecordedOn(s.recorded_on);
  const run = simulateScenario(s, { profile, maxTimeMs: o.maxRunMs });
  if (!run.settled) {
    const deliveries = run.result.events.filter((e) => e.kind === 'delivered').length;
    return {
      kind: 'unsettled',
      profile,
      reason: unsettledReason(
        o.maxRunMs,
        `${deliveries} deliveries, still delivering at virtual ${run.result.endTime} ms`,
      ),
    };
  }
  return { kind: 'observed', observed: run.observed, profile };
}
