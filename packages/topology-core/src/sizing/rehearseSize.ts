/**
 * The size of a rehearsal, before it runs: how many messages (or cohorts) the simulator will
 * hold, how many hops they will take, how many depth samples the report will carry. The same
 * decisions as `rehearse` (per message or cohorts, the default sample step), read from the same
 * functions; the hop count from the rehearsal's own probe (one message failing everywhere).
 */
import type { Design } from '../model/design.js';
import { formatMs } from '../text/formatDuration.js';
import { nameList } from '../text/nameList.js';
import {
  arrivalSegments,
  attemptOffsets,
  DEFAULT_MAX_SIMULATED,
  defaultSampleMs,
  lengthLimited,
  MAX_BINS,
  poisonStrata,
  rehearsalQueues,
  resolveLoad,
  totalMessages,
  type RehearsalLoad,
  type RehearseOptions,
  type ResolvedLoad,
} from '../rehearse/index.js';
import { UNIT_COSTS } from './unitCosts.js';
import { workSize, type SizePart, type WorkSize } from './workSize.js';
import { formatCount } from '../text/formatCount.js';

const count = (n: number): string => formatCount(Math.round(n));

/** the rehearsal's size; a load that does not fit the design has none (rehearse says what is wrong) */
export function rehearseSize(
  design: Design,
  load: RehearsalLoad,
  options: Pick<RehearseOptions, 'sampleMs' | 'perMessage' | 'maxSimulated'> = {},
): WorkSize {
  const res = resolveLoad(design, load);
  if (!res.ok) return workSize('rehearse', []);
  const r = res.resolved;
  const queues = rehearsalQueues(design, r.profile);
  const offsets = attemptOffsets(design, r);
  const horizonMs = load.durationMs + r.afterMs;
  const simulated = simulatedPart(r, offsets);
  const sampleMs = options.sampleMs ?? defaultSampleMs(load.durationMs);
  const instants = Math.ceil(horizonMs / sampleMs) + 1;
  const samples = instants * Math.max(1, queues.length);
  // the broker bill's node series (time, RAM, disk, held) at every sample instant
  const billNumbers = instants * 4;
  const bins = Math.min(MAX_BINS, Math.ceil(horizonMs / 1000));
  // with a consumer outage the same load runs again without it: the drain's baseline (rehearse.ts)
  const runs = r.consumerOutages.length > 0 ? 2 : 1;
  const parts: SizePart[] = [
    {
      ...simulated,
      steps: runs * simulated.count * deliveriesPerMessage(r, offsets, horizonMs) * UNIT_COSTS.stepsPerDelivery,
      bytes: UNIT_COSTS.baseBytes + simulated.count * UNIT_COSTS.bytesPerSimulated + bins * 64,
      answerBytes: UNIT_COSTS.baseAnswerBytes + queues.length * 300,
    },
    {
      driver: {
        field: options.sampleMs !== undefined ? 'sampleMs' : 'load.durationMs',
        option: '--duration',
        what: `${count(samples)} depth samples (${queues.length} queue${queues.length === 1 ? '' : 's'} every ${formatMs(sampleMs)} over ${formatMs(horizonMs)})`,
        fix: 'take samples less often (a larger sampleMs) or rehearse a shorter time',
      },
      count: samples,
      unit: 'samples',
      bytes: (samples + billNumbers) * UNIT_COSTS.bytesPerSample,
      steps: samples,
      answerBytes: (samples + billNumbers) * UNIT_COSTS.answerBytesPerSample,
    },
  ];
  return workSize('rehearse', parts);

  function simulatedPart(
    rl: ResolvedLoad,
    offs: ReadonlyMap<string, readonly number[]>,
  ): Pick<SizePart, 'driver' | 'count' | 'unit'> {
    const limited = lengthLimited(queues);
    const segments = arrivalSegments(load);
    const messages = totalMessages(segments);
    const max = options.maxSimulated ?? DEFAULT_MAX_SIMULATED;
    const shrink = 'lower the rate or rehearse a shorter time';
    if (options.perMessage === true || limited.length > 0 || messages <= max)
      return {
        driver: {
          field: 'load.durationMs',
          option: '--duration',
          what:
            limited.length > 0
              ? `${count(messages)} messages simulated one by one (a length limit on ${nameList(limited, 3)}: a cohort cannot stand for its messages there)`
              : `${count(messages)} messages simulated one by one`,
          fix: shrink,
        },
        count: messages,
        unit: 'messages',
      };
    // cohortPlan: a bucket per duration / max, cut again at every fate breakpoint, once per poison stratum
    const bucketMs = Math.max(1, Math.ceil(load.durationMs / max));
    let buckets = 0;
    for (const s of segments) buckets += Math.ceil((s.endMs - s.startMs) / bucketMs) + 1;
    let cuts = 0;
    let outages = 0;
    for (const [id, c] of rl.consumers) {
      cuts += c.consumerOutages.length * 2 * (offs.get(id)?.length ?? 0);
      outages += c.consumerOutages.length;
    }
    const strata = poisonStrata([...rl.consumers.values()].map((c) => c.poison)).length;
    const cohorts = Math.min(messages, buckets + cuts) * strata;
    const byTargets = cuts * strata > buckets;
    return {
      driver: byTargets
        ? {
            field: 'load.targets',
            option: '--outage',
            what: `${count(cohorts)} cohorts (${count(outages)} consumer outages cut the arrivals at up to ${count(cuts)} instants${strata > 1 ? `, ${strata - 1} different poison shares split each in ${strata}` : ''})`,
            fix: 'give fewer outages or fewer different poison shares',
          }
        : { field: 'load.durationMs', option: '--duration', what: `${count(cohorts)} cohorts`, fix: shrink },
      count: cohorts,
      unit: 'cohorts',
    };
  }
}

/**
 * Deliveries of one message: each consumer it reaches once, and its further attempts as often as
 * it fails there (the share of the run the consumer is down, plus its error rate and poison).
 */
function deliveriesPerMessage(
  r: ResolvedLoad,
  offsets: ReadonlyMap<string, readonly number[]>,
  horizonMs: number,
): number {
  let n = 0;
  for (const [id, c] of r.consumers) {
    const attempts = offsets.get(id)?.length ?? 0;
    if (attempts === 0) continue;
    let downMs = 0;
    for (const o of c.consumerOutages) downMs += Math.max(0, o.endMs - o.startMs);
    const failing = Math.min(1, downMs / Math.max(1, horizonMs) + c.errorRate + c.poison);
    n += 1 + failing * (attempts - 1);
  }
  return Math.max(1, n);
}
