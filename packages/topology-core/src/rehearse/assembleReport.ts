/**
 * The report of a rehearsal from its run (and the baseline run of the same load without the
 * outages, for the drain): outcomes (copies, a parking queue's expiry), delays, each queue's
 * bill, the held messages, the node and its alarms, loops and capacity, the mode and its bound.
 */
import type { Design } from '../model/design.js';
import type { QueueConfig } from '../sim/queueConfig.js';
import { assumedConsumers } from '../lint/assumedConsumers.js';
import type { BillSetup } from './billSetup.js';
import { drainAgainstBaseline } from './drain.js';
import type { DepthSeries } from './queueDepths.js';
import type { RunOutput } from './rehearsalRun.js';
import type { NodeRehearsal, RehearsalMode, RehearsalReport } from './report.js';
import type { ResolvedLoad } from './resolveLoad.js';

const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const HELD_SERIES = '\u0000held';

/** the queues on a retry path: consumed, a wait queue (its TTL dead-letters back), or one a message expired from onward */
export function retryPathQueues(design: Design, configs: readonly QueueConfig[], run: RunOutput): Set<string> {
  const consumed = new Set(design.consumers.map((c) => c.queue));
  const roles = assumedConsumers(design.topology).roles;
  const out = new Set<string>();
  for (const c of configs) {
    const timed = run.tally.depths.tracks.get(c.name)?.timed ?? false;
    if (consumed.has(c.name) || roles[c.name] === 'wait' || (timed && c.dlx !== undefined)) out.add(c.name);
  }
  return out;
}

function seriesOf(run: RunOutput, names: ReadonlySet<string>): Map<string, DepthSeries> {
  const m = new Map<string, DepthSeries>();
  for (const n of names) {
    const q = run.tally.depths.tracks.get(n);
    if (q) m.set(n, q.series);
  }
  m.set(HELD_SERIES, { t: run.bill.series.t, depth: run.bill.series.held });
  return m;
}

function cohortBound(r: ResolvedLoad, bounded: boolean, maxWeight: number): string {
  const parts = [
    `a queue's depth and its peak may differ from a per-message run by up to one cohort (${maxWeight} messages)`,
  ];
  if (bounded)
    parts.push(
      "a cohort keeps a bounded consumer busy for all its messages at once: delays within one cohort's processing time",
    );
  if ([...r.consumers.values()].some((c) => c.errorRate > 0))
    parts.push(
      "errors are drawn once per cohort (its first message's draws): the outcomes are a sample with the per-message run's expected values, and the retry queues' depths, the storm and the delays are approximate (a cohort fails or succeeds whole)",
    );
  return parts.join('; ');
}

function nodeOf(run: RunOutput, setup: BillSetup): NodeRehearsal {
  const b = run.bill;
  return {
    peakMemoryBytes: Math.round(b.peakRam),
    peakMemoryAtMs: b.peakRamAt,
    peakDiskBytes: Math.round(b.peakDisk),
    peakDiskAtMs: b.peakDiskAt,
    idleMemoryBytes: setup.bill.idleNodeBytes,
    walMemoryBytes: Math.round(b.walBytes),
    uncollectedMemoryBytes: Math.round(b.uncollectedAtPeak),
    brokerMemoryBytes: setup.brokerMemoryBytes,
    watermark: setup.watermark,
    memoryLimitBytes: Math.round(setup.bill.memoryLimitBytes),
    diskFreeBytes: setup.bill.diskFreeBytes,
    diskFreeLimitBytes: setup.bill.diskFreeLimitBytes,
    alarms: b.alarms.map((a, i) => ({
      kind: a.kind,
      fromMs: a.fromMs,
      untilMs: a.untilMs,
      peakBytes: Math.round(a.peakBytes),
      limitBytes: Math.round(a.limitBytes),
      messagesWaited: Math.round(run.waits.byAlarm.get(i)?.messages ?? 0),
      longestWaitMs: Math.round(run.waits.byAlarm.get(i)?.longestMs ?? 0),
    })),
    series: b.series,
  };
}

export interface AssembleInput {
  readonly design: Design;
  readonly r: ResolvedLoad;
  readonly configs: readonly QueueConfig[];
  readonly setup: BillSetup;
  readonly run: RunOutput;
  /** the same load without the outages (drain); absent without outages */
  readonly baseline?: RunOutput;
  readonly notes: readonly string[];
  readonly sampleMs: number;
  readonly wallMs: number;
}

export function assembleReport(a: AssembleInput): RehearsalReport {
  const { design, r, configs, setup, run } = a;
  const retryPath = retryPathQueues(design, configs, run);
  // the outcomes are the messages' fates (the copy ledger, as every place states them)
  const t = run.tally;
  const parkedIn = Object.fromEntries(Object.entries(t.parkedIn).map(([q, n]) => [q, Math.round(n)]));
  const parkedExpiresAfterMs: Record<string, number> = {};
  for (const q of Object.keys(parkedIn)) {
    const ttl = configs.find((c) => c.name === q)?.ttl;
    if (ttl !== undefined) parkedExpiresAfterMs[q] = ttl;
  }
  const plan = run.plan;
  const maxWeight = plan.weight.reduce((m, w) => Math.max(m, w), 0);
  const ends = r.consumerOutages.map((o) => o.endMs);
  const drainMs =
    ends.length === 0 || !a.baseline
      ? 0
      : drainAgainstBaseline(
          seriesOf(run, retryPath),
          seriesOf(a.baseline, retryPath),
          Math.max(...ends),
          2 * Math.ceil(maxWeight) + 1,
          a.sampleMs,
        );
  const weighted = plan.kind === 'cohorts';
  const mode: RehearsalMode = weighted
    ? {
        kind: 'cohorts',
        simulated: plan.count,
        bucketMs: plan.bucketMs,
        bound: cohortBound(r, run.bounded, Math.ceil(maxWeight)),
      }
    : { kind: 'per-message', simulated: plan.count };
  const storm = t.retries.peak();
  const outcomes = {
    acked: Math.round(t.acked),
    parked: Math.round(t.parked),
    parkedIn,
    ...(Object.keys(parkedExpiresAfterMs).length > 0 ? { parkedExpiresAfterMs } : {}),
    dropped: Math.round(t.dropped),
    expired: Math.round(t.expired),
    inFlight: Math.round(t.inFlight),
  };
  const worstPoison = Math.max(0, ...[...r.consumers.values()].map((c) => c.poison));
  let poisoned = 0;
  if (worstPoison > 0)
    for (let i = 0; i < plan.count; i++)
      if ((plan.poisonU[i] as number) < worstPoison) poisoned += plan.weight[i] as number;
  return {
    ...(poisoned > 0 ? { poisoned: Math.round(poisoned) } : {}),
    messages: run.messages,
    copies: Math.max(run.messages, Math.round(t.copyCount)),
    outcomes,
    deliveries: Math.round(t.deliveries),
    amplification: run.messages > 0 ? round3(t.deliveries / run.messages) : 0,
    delayMs: t.delays.percentiles(),
    drainMs,
    queues: configs.map((cfg) => {
      const q = t.depths.tracks.get(cfg.name);
      const b = run.bill.queues.get(cfg.name);
      const cost = setup.queues.get(cfg.name);
      const resident = b?.peakResident ?? 0;
      return {
        name: cfg.name,
        storage: cost?.storage ?? 'classic',
        peakDepth: Math.round(b?.peakDepth ?? 0),
        peakAtMs: b?.peakDepthAt ?? 0,
        peakHeld: Math.round(b?.peakHeld ?? 0),
        peakMemoryBytes: Math.round(b?.peakRam ?? resident * (cost?.cost.ramBytes ?? 0)),
        peakDiskBytes: Math.round(resident * (cost?.cost.diskBytes ?? 0)),
        series: { t: q?.series.t ?? [], depth: (q?.series.depth ?? []).map((d) => Math.round(d)) },
        perMessage: {
          ramBytes: Math.round(cost?.cost.ramBytes ?? 0),
          diskBytes: Math.round(cost?.cost.diskBytes ?? 0),
          basis: cost?.cost.basis ?? '',
        },
      };
    }),
    held: [...run.bill.exchanges.values()].map((x) => ({
      exchange: x.exchange,
      peakHeld: Math.round(x.peakHeld),
      peakAtMs: x.peakAt,
      peakMemoryBytes: Math.round(x.peakHeld * setup.held.ramBytes),
      peakDiskBytes: Math.round(x.peakHeld * setup.held.diskBytes),
    })),
    node: nodeOf(run, setup),
    loops: run.capacity.loops(),
    capacity: run.capacity.shortfalls({
      ...run.waits.ceiling,
      ratePerSec: Math.max(0, ...(r.load.phases ?? [{ rate: r.load.rate ?? 0 }]).map((p) => p.rate)),
    }),
    calibration: setup.calibration,
    brokerOps: {
      publishesPerSec: t.publishes.peak().perSec,
      deadLettersPerSec: t.deadLetters.peak().perSec,
      deliveriesPerSec: t.deliveriesPerSec.peak().perSec,
      retriesPerSec: storm.perSec,
      retriesPeakAtMs: storm.atMs,
    },
    wallMs: Math.round(a.wallMs),
    durationMs: r.load.durationMs,
    endMs: run.endMs,
    truncated: run.truncated,
    profile: r.profile,
    bodyBytes: r.bodyBytes,
    consumerOutages: r.consumerOutages.map((o) => ({
      target: o.target,
      consumers: o.consumers,
      startMs: o.startMs,
      endMs: o.endMs,
    })),
    mode,
    seriesStepMs: a.sampleMs,
    hops: run.hops,
    notes: a.notes,
  };
}
