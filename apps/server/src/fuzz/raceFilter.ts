/**
 * Where the broker is not deterministic, the fuzzer does not ask it. A generated scenario is run
 * on the simulator first; its virtual timeline shows where two things would race on a real broker
 * (whose timing drifts from the simulator's by a few ms per hop, more on a loaded machine), and
 * such a scenario is avoided (regenerated). The survivors get a `settle_ms` just long enough.
 */
import {
  fromScenario,
  observe,
  type Observed,
  type Scenario,
  type ScenarioProfile,
} from '@retry-studio/topology-core/scenario';
import { simulate, type SimEvent, type SimulationResult } from '@retry-studio/topology-core/sim';
import { queueEffectiveSettings } from '@retry-studio/topology-core/model';

/** two events this close (virtual ms) on one queue from different sources are a race */
export const RACE_MARGIN_MS = 100;
/**
 * The simulator publishes every step at once; a broker takes a confirm round trip per publish,
 * and on a loaded machine the steps can take a few hundred ms: a step is taken to happen anywhere
 * in its first STEPS_SPAN_MS when it meets another source on a queue (e.g. a TTL expiry).
 */
export const STEPS_SPAN_MS = 300;
/** a run longer than this (virtual) is too slow for a batch, and one that never settles is a race with the time bound */
const MAX_VIRTUAL_MS = 8000;
const MAX_DELIVERIES = 60;
/** a run of more events than this is over MAX_DELIVERIES anyway: the simulator stops there (cheap screening) */
const MAX_EVENTS = 3000;
/** the quiet period beyond the longest quiet gap in the timeline */
const SETTLE_MARGIN_MS = 350;
const MIN_SETTLE_MS = 500;

export type Screened =
  | { readonly kind: 'ok'; readonly scenario: Scenario; readonly predicted: Observed }
  | { readonly kind: 'avoided'; readonly reason: string };

/**
 * Which serialised source made an event: the publish steps, one queue's consumer (its deliveries,
 * acks, rejects, requeues and republishes happen one after the other), one queue's TTL timer, or
 * the arrivals that overflowed a queue. Events from one source keep their order on any broker.
 */
function causeSource(cause: SimEvent | undefined): string {
  if (!cause) return 'unknown';
  switch (cause.kind) {
    case 'published':
      return cause.origin.kind === 'consumer' ? `consumer:${cause.origin.id.replace(/#\d+$/, '')}` : 'steps';
    case 'requeued':
      return `consumer:${cause.queue}`;
    case 'expired':
      return `ttl:${cause.queue}`;
    case 'dead-lettered':
      return cause.reason === 'expired'
        ? `ttl:${cause.queue}`
        : cause.reason === 'maxlen'
          ? `arrivals:${cause.queue}`
          : `consumer:${cause.queue}`;
    default:
      return 'unknown';
  }
}

/** consumers attach once every publish step is confirmed: the steps come before any consumer */
function ordered(a: string, b: string): boolean {
  return a === b || (a === 'steps' && b.startsWith('consumer:')) || (b === 'steps' && a.startsWith('consumer:'));
}

/** The first race in a run's timeline, or undefined. */
export function findRace(events: readonly SimEvent[], consumed: ReadonlySet<string>): string | undefined {
  const lastCause = new Map<string, SimEvent>();
  const touches = new Map<string, { t: number; source: string; kind: string }[]>();
  const withTtl = new Map<string, { t: number; expiresAt: number | undefined }[]>();
  const touch = (q: string, t: number, source: string, kind: string): void => {
    (touches.get(q) ?? touches.set(q, []).get(q)!).push({ t, source, kind });
  };
  for (const e of events) {
    if (e.kind === 'enqueued' && e.expiresAt !== undefined && consumed.has(e.queue))
      return `a message with a TTL enters '${e.queue}', which has a consumer (TTL racing a delivery)`;
    if (e.kind === 'expired' && consumed.has(e.queue))
      return `a message expires in '${e.queue}', which has a consumer (TTL racing a delivery)`;
    if (e.kind === 'enqueued' || e.kind === 'publish-nacked')
      touch(e.queue, e.t, causeSource(lastCause.get(e.msgId)), e.kind);
    else if (e.kind === 'dropped' && e.queue !== undefined && e.why === 'overflow')
      touch(e.queue, e.t, causeSource(lastCause.get(e.msgId)), e.kind);
    else if (e.kind === 'expired') touch(e.queue, e.t, `ttl:${e.queue}`, e.kind);
    else if (e.kind === 'delivered') touch(e.queue, e.t, `consumer:${e.queue}`, e.kind);
    if (e.kind === 'enqueued')
      (withTtl.get(e.queue) ?? withTtl.set(e.queue, []).get(e.queue)!).push({ t: e.t, expiresAt: e.expiresAt });
    if (e.kind === 'published' || e.kind === 'dead-lettered' || e.kind === 'requeued' || e.kind === 'expired')
      lastCause.set(e.msgId, e);
  }
  for (const [q, list] of touches) {
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length && list[j]!.t - list[i]!.t < RACE_MARGIN_MS + STEPS_SPAN_MS; j++) {
        const [a, b] = [list[i]!, list[j]!];
        const margin = a.source === 'steps' || b.source === 'steps' ? RACE_MARGIN_MS + STEPS_SPAN_MS : RACE_MARGIN_MS;
        if (b.t - a.t < margin && !ordered(a.source, b.source))
          return `'${q}': ${a.kind} from ${a.source} at ${a.t} ms and ${b.kind} from ${b.source} at ${b.t} ms are too close (the margin is ${RACE_MARGIN_MS} ms, plus ${STEPS_SPAN_MS} ms for the publish steps)`;
      }
    }
  }
  for (const [q, list] of withTtl) {
    if (consumed.has(q)) continue;
    // per-message TTL behind a longer one (or none) at the head: expiry only at the head, timing-dependent
    const mixed = list.some((x) => x.expiresAt === undefined) && list.some((x) => x.expiresAt !== undefined);
    if (mixed) return `'${q}' holds messages with and without a TTL (head-of-line expiry)`;
    for (let i = 1; i < list.length; i++) {
      const behind = list[i]!;
      const ahead = list.slice(0, i).find((a) => a.expiresAt! > behind.expiresAt! && a.expiresAt! > behind.t);
      if (ahead)
        return `'${q}': a message expiring at ${behind.expiresAt} ms sits behind one expiring at ${ahead.expiresAt} ms (head-of-line expiry)`;
    }
  }
  return undefined;
}

/** The quiet period the broker runner needs so that it neither stops early nor waits for nothing. */
export function settleFor(events: readonly SimEvent[]): number {
  let maxGap = 0;
  let lastActivity = 0;
  let lastEvent = 0;
  for (const e of events) {
    if (e.kind === 'depth') continue;
    lastEvent = Math.max(lastEvent, e.t);
    if (e.kind === 'delivered' || e.kind === 'published') {
      maxGap = Math.max(maxGap, e.t - lastActivity);
      lastActivity = e.t;
    }
  }
  return Math.max(MIN_SETTLE_MS, maxGap + SETTLE_MARGIN_MS, lastEvent - lastActivity + SETTLE_MARGIN_MS);
}

/** a length limit on a queue with a consumer (a policy's too): what overflows depends on how fast the consumer takes */
function limitOnConsumedQueue(s: Scenario, profile: ScenarioProfile): string | undefined {
  const consumed = new Set(s.consumers.map((c) => c.queue));
  for (const q of s.topology.queues) {
    if (!consumed.has(q.name)) continue;
    const eff = queueEffectiveSettings(q, { policies: s.topology.policies ?? [] }, { profile }).settings;
    if (eff['x-max-length'] !== undefined || eff['x-max-length-bytes'] !== undefined)
      return `'${q.name}' has a consumer and a length limit (overflow racing a delivery)`;
  }
  return undefined;
}

function simulateBounded(s: Scenario, profile: ScenarioProfile): { result: SimulationResult; settled: boolean } {
  const result = simulate({ ...fromScenario(s, { profile, maxTimeMs: MAX_VIRTUAL_MS * 2 }), maxEvents: MAX_EVENTS });
  return { result, settled: !result.truncated };
}

/** Runs the scenario on the simulator under `profile`; avoided when its timeline has a race. */
export function screenScenario(s: Scenario, profile: ScenarioProfile): Screened {
  const limited = limitOnConsumedQueue(s, profile);
  if (limited) return { kind: 'avoided', reason: limited };
  const probe = simulateBounded({ ...s, settle_ms: MAX_VIRTUAL_MS }, profile);
  const events = probe.result.events;
  if (!probe.settled || probe.result.endTime > MAX_VIRTUAL_MS)
    return { kind: 'avoided', reason: `does not settle within ${MAX_VIRTUAL_MS} ms` };
  const deliveries = events.filter((e) => e.kind === 'delivered').length;
  if (deliveries > MAX_DELIVERIES)
    return { kind: 'avoided', reason: `${deliveries} deliveries (over ${MAX_DELIVERIES})` };
  const race = findRace(events, new Set(s.consumers.map((c) => c.queue)));
  if (race) return { kind: 'avoided', reason: race };
  const scenario: Scenario = { ...s, settle_ms: settleFor(events) };
  const run = simulateBounded(scenario, profile);
  if (!run.settled) return { kind: 'avoided', reason: 'does not settle with its settle_ms' };
  return { kind: 'ok', scenario, predicted: observe(run.result) };
}
