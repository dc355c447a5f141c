/**
 * The size of a tuning run, before it runs: the tuner rehearses its candidates one at a time, so
 * it holds what its largest full-scale rehearsal holds (each strategy's default design under the
 * longest outage, followed for the tuner's longest tail), and takes the steps of every coarse
 * rehearsal (thinned to COARSE_MESSAGES messages) and every full-scale one.
 */
import type { Design } from '../model/design.js';
import { resolveParams } from '../templates/params.js';
import type { RetryTemplate } from '../templates/types.js';
import { COARSE_MESSAGES, FINE_PER_STRATEGY, SPARE_CONFIRMATIONS, tuneLoad, type TuneRequest } from '../tune/index.js';
import { rehearseSize } from './rehearseSize.js';
import { UNIT_COSTS } from './unitCosts.js';
import { workSize, type SizePart, type WorkSize } from './workSize.js';

/** a strategy's design with its default parameters (none when they do not build) */
function defaultDesign(t: RetryTemplate): Design | undefined {
  const p = resolveParams(t.params, {});
  if (!p.ok) return undefined;
  try {
    return t.build(p.values).design;
  } catch {
    return undefined;
  }
}

/** the tuner's names for what a rehearsal's size is blamed on (its options, without dashes, as TuneInputIssue) */
const TUNE_FIELD: Readonly<Record<string, string>> = {
  'load.durationMs': 'duration',
  'load.targets': 'outage-length',
};

export function tuneSize(req: Pick<TuneRequest, 'profile' | 'templates' | 'from' | 'limit'>): WorkSize {
  const designs = req.from ? [req.from] : req.templates.map(defaultDesign).filter((d) => d !== undefined);
  const lengths = req.profile.outageLengthsMs;
  const longest = Math.max(0, ...lengths);
  let full: WorkSize | undefined;
  for (const d of designs) {
    // the longest tail the tuner follows (tuneLoad caps it) after the longest outage
    const s = rehearseSize(d, tuneLoad(d, req.profile, longest, Number.MAX_SAFE_INTEGER));
    if (!full || s.bytes > full.bytes) full = s;
  }
  if (!full) return workSize('tune', []);
  const fullRehearsals = ((req.limit ?? 3) + SPARE_CONFIRMATIONS) * lengths.length;
  const coarseRehearsals = Math.max(1, req.from ? 1 : req.templates.length) * FINE_PER_STRATEGY * lengths.length;
  const coarseSteps = coarseRehearsals * COARSE_MESSAGES * 2 * UNIT_COSTS.stepsPerDelivery;
  const parts: SizePart[] = full.parts.map((p, i) => {
    const field = TUNE_FIELD[p.driver.field] ?? 'duration';
    return {
      ...p,
      driver: { ...p.driver, field, option: `--${field}` },
      steps: p.steps * fullRehearsals + (i === 0 ? coarseSteps : 0),
    };
  });
  return workSize('tune', parts);
}
