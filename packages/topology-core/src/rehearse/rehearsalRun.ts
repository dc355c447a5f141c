/**
 * One run of a rehearsal on the simulator: the load's publishes as steps (message by message, or
 * cohorts), the failure schedule deciding each worker's verdicts, the events counted as they happen
 * (tally.ts), the broker's bill beside them (brokerBill.ts: RAM, disk, holds, alarms), each queue's
 * ceilings (capacity.ts), and a publisher that waits while an alarm blocks it.
 */
import type { Design } from '../model/design.js';
import type { SimEvent } from '../sim/events.js';
import type { SimStep } from '../sim/types.js';
import { Simulator } from '../sim/simulator.js';
import { arrivalSegments, totalMessages } from './arrivals.js';
import { BrokerBill } from './brokerBill.js';
import type { BillSetup } from './billSetup.js';
import { Capacity } from './capacity.js';
import { cohortPlan, perMessagePlan, type PublishPlan } from './cohorts.js';
import { attemptFails } from './failureSchedule.js';
import { attemptOffsets, fateBreakpoints } from './probe.js';
import type { ResolvedLoad } from './resolveLoad.js';
import { publishStep, rehearsalInput } from './simInput.js';
import { SpinError, Tally } from './tally.js';
import { perSecondBinMs } from './rates.js';
import { fateRulesOf } from '../sim/eventOutcomes.js';

export interface RunOptions {
  readonly maxSimulated: number;
  readonly perMessage: boolean;
  readonly sampleMs: number;
  /** the queues of the design (their order) */
  readonly queues: readonly string[];
}

/** publishes that waited at the gate: while an alarm was raised (by alarm), or for the publish ceiling */
export interface PublishWaits {
  readonly byAlarm: Map<number, { messages: number; longestMs: number }>;
  ceiling: { messages: number; longestMs: number };
}

export interface RunOutput {
  readonly plan: PublishPlan;
  readonly messages: number;
  readonly tally: Tally;
  readonly bill: BrokerBill;
  readonly capacity: Capacity;
  readonly waits: PublishWaits;
  readonly endMs: number;
  readonly truncated: boolean;
  readonly hops: number;
  /** the run stopped: messages went round without virtual time passing */
  readonly spunAtMs?: number;
  readonly bounded: boolean;
}

/** a blocked publisher looks again this often (ms) */
/** a blocked publisher looks again this often: a tenth of a sample, so a long run polls at most ~30,000 times */
const blockedPollMs = (sampleMs: number): number => Math.max(100, sampleMs / 10);

/** the processing time of one message where a cohort keeps a bounded consumer busy */
function spreadOf(r: ResolvedLoad, consumer: string): number {
  const c = r.consumers.get(consumer);
  return c && Number.isFinite(c.concurrency) ? c.processingMs : 0;
}

/** the plan's publishes, each at its instant (whole milliseconds: the waits add up exactly) */
function publishSteps(plan: PublishPlan, r: ResolvedLoad): SimStep[] {
  const steps: SimStep[] = [];
  let t = 0;
  for (let i = 0; i < plan.count; i++) {
    const at = plan.publishAt[i] as number;
    if (at > t) {
      steps.push({ kind: 'wait', ms: at - t });
      t = at;
    }
    steps.push(publishStep(r, String(i + 1)));
  }
  return steps;
}

export function planOf(design: Design, r: ResolvedLoad, o: RunOptions, forcePerMessage: boolean): PublishPlan {
  const segments = arrivalSegments(r.load);
  const messages = totalMessages(segments);
  const perMessage = forcePerMessage || o.perMessage || messages <= o.maxSimulated;
  return perMessage
    ? perMessagePlan(segments, r.seed)
    : cohortPlan(
        segments,
        Math.max(1, Math.ceil(r.load.durationMs / o.maxSimulated)),
        fateBreakpoints(r, attemptOffsets(design, r)),
        [...r.consumers.values()].map((c) => c.poison),
      );
}

/**
 * The publish gate: a publisher waits while an alarm blocks it, and publishes at most at the
 * lowest publish ceiling (one planned instant's messages at a time); each wait is counted.
 */
function publishGate(plan: PublishPlan, bill: BrokerBill, capacity: Capacity, waits: PublishWaits, sampleMs: number) {
  let lastAt = -Infinity;
  let lastPlanned = -1;
  let lastWeight = 0;
  return (t: number, step: { readonly msgId?: string }): number => {
    const i = Number(step.msgId) - 1;
    if (bill.blocked) return t + blockedPollMs(sampleMs);
    const planned = plan.publishAt[i] as number;
    const w = plan.weight[i] as number;
    if (planned !== lastPlanned) {
      const open = lastAt + capacity.publishGapMs(lastWeight);
      if (open > t + 1e-9) return open;
      lastAt = t;
      lastPlanned = planned;
      lastWeight = 0;
    }
    lastWeight += w;
    const waited = t - planned;
    if (waited > 0.5) {
      let alarm = bill.alarms.length - 1;
      while (alarm >= 0 && bill.alarms[alarm]!.fromMs > t) alarm--;
      const spot =
        alarm >= 0
          ? (waits.byAlarm.get(alarm) ?? waits.byAlarm.set(alarm, { messages: 0, longestMs: 0 }).get(alarm)!)
          : waits.ceiling;
      spot.messages += w;
      spot.longestMs = Math.max(spot.longestMs, waited);
    }
    return t;
  };
}

export function runRehearsal(
  design: Design,
  r: ResolvedLoad,
  setup: BillSetup,
  o: RunOptions,
  plan: PublishPlan,
): RunOutput {
  const weighted = plan.kind === 'cohorts';
  const bounded = [...r.consumers.values()].some((c) => Number.isFinite(c.concurrency) && c.processingMs > 0);
  const outageStarts = r.consumerOutages.map((x) => x.startMs);
  const outageEnds = r.consumerOutages.map((x) => x.endMs);
  const bill = new BrokerBill({ ...setup.bill, sampleMs: o.sampleMs });
  const binMs = perSecondBinMs(r.load.durationMs + r.afterMs);
  const capacity = new Capacity(setup.ceilings, binMs);
  const waits: PublishWaits = { byAlarm: new Map(), ceiling: { messages: 0, longestMs: 0 } };
  const tally = new Tally({
    plan,
    queues: o.queues,
    sampleMs: o.sampleMs,
    steadyUntil: outageStarts.length > 0 ? Math.min(...outageStarts) : Infinity,
    drainFrom: outageEnds.length > 0 ? Math.max(...outageEnds) : Infinity,
    ...(weighted && bounded ? { spreadMsOf: (c: string) => spreadOf(r, c) } : {}),
    // every message (or cohort) could be published, delivered and settled a few dozen times in one instant
    maxEventsPerInstant: 200_000 + 100 * plan.count,
    perSecondBinMs: binMs,
    rules: fateRulesOf(design),
    onDepthChange: bill.change,
    onExchangeHeld: (x, dw, t) => bill.exchangeHeld(x, dw, t),
  });
  const onEvent = (e: SimEvent): void => {
    const m = Number(e.msgId);
    const w = plan.weight[m - 1] ?? 0;
    capacity.see(e, w, plan.spanMs[m - 1] ?? 0);
    tally.onEvent(e);
    if (e.kind === 'requeued' && e.until !== undefined && e.until > e.t) bill.holdInQueue(e.queue, w, e.t, e.until);
  };
  const input = rehearsalInput(design, r, publishSteps(plan, r), {
    failureSchedule: (consumer, ctx, t) => {
      const c = r.consumers.get(consumer);
      if (!c) return true;
      const i = ctx.messageIndex - 1;
      return !attemptFails(
        c,
        r.seed,
        { ordinal: plan.ordinal[i] as number, poisonU: plan.poisonU[i] as number },
        ctx.attempt,
        t,
      );
    },
    processingMsOf: (consumer: string, index: number, ms: number) => {
      const own =
        weighted && bounded && Number.isFinite(r.consumers.get(consumer)?.concurrency ?? Infinity)
          ? ms * (plan.weight[index - 1] ?? 1)
          : ms;
      return own + capacity.waitMs();
    },
    publishGate: publishGate(plan, bill, capacity, waits, o.sampleMs),
    onEvent,
    maxTimeMs: r.load.durationMs + r.afterMs,
  });
  const sim = new Simulator(input);
  let spunAtMs: number | undefined;
  try {
    sim.run();
  } catch (e) {
    if (!(e instanceof SpinError)) throw e;
    spunAtMs = e.atMs;
  }
  tally.depths.finish(sim.now);
  tally.finishOutcomes(sim.now);
  bill.finish(sim.now);
  return {
    plan,
    messages: totalMessages(arrivalSegments(r.load)),
    tally,
    bill,
    capacity,
    waits,
    endMs: sim.now,
    truncated: sim.truncated || spunAtMs !== undefined,
    hops: sim.hops,
    ...(spunAtMs !== undefined ? { spunAtMs } : {}),
    bounded,
  };
}
