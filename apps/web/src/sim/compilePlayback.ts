/**
 * Turns an event stream (simulated or live) into a playback plan for the token overlay:
 * per message, the nodes it stops at with display times, and per queue, its depth over time.
 *
 * Two clocks. A story (a simulation alone): routing takes zero virtual ms but a token must
 * visibly travel, so every distinct virtual instant gets as many fixed-length "hops" as the
 * busiest message needs at that instant, and the virtual gap to the next instant is shown at
 * `speed` (virtual ms per display ms). Broker time (a live trace, and the prediction beside it):
 * display time is virtual time at `speed` and nothing else, so a replay ends when the broker did;
 * an instant's hops share the gap to the next instant (at most `hop` each). One mapping for all
 * messages keeps them in step.
 */
import {
  CopyLedger,
  decideOutcome,
  type FateRules,
  type MessageOutcome,
  type SimEvent,
} from '@retry-studio/topology-core/sim';
import { consumerNodeId, exchangeNodeId, publisherNodeId, queueNodeId } from '../model/nodeIds';

export const HOP_MS = 420;

export interface Stop {
  node: string;
  /** display ms when the token arrives here */
  arrive: number;
  /** virtual ms of arrival */
  t: number;
  /** a visible wait with a deadline (TTL queue, delayed exchange): virtual deadline */
  until?: number;
  /** display ms the hop into this stop takes (shorter than HOP_MS in broker time when events come close together) */
  hop: number;
}

export interface MessageTrack {
  msgId: string;
  body: string;
  /** index in run order, for colour and lane */
  index: number;
  stops: Stop[];
  /** where it ended, as every place states it (the copy ledger's; undefined: still on its way, nothing shows where) */
  fate: MessageOutcome | undefined;
  /** display ms at which the last stop's story ends */
  end: number;
  /** indices (into the run's events) of this message's events */
  eventIdx: number[];
}

export interface DepthSeries {
  at: Float64Array;
  depth: Int32Array;
}

export interface PlaybackPlan {
  tracks: MessageTrack[];
  byMsg: Map<string, MessageTrack>;
  depth: Map<string, DepthSeries>;
  /** display ms per event (same index as `events`) */
  eventP: Float64Array;
  events: readonly SimEvent[];
  /** instants: virtual t → display base */
  instantsT: Float64Array;
  instantsP: Float64Array;
  endP: number;
  endT: number;
  speed: number;
  /** display time is virtual time at `speed` (a live trace's replay): no time is added for hops */
  brokerTime: boolean;
}

export interface PlaybackOptions {
  /** display ms per hop (at most, in broker time) */
  readonly hop?: number;
  readonly brokerTime?: boolean;
  /**
   * the design's rules for fates and whether the run goes on (then a track's fate is the lane's);
   * without them a copy resting anywhere is parked there and one at a consumer is held
   */
  readonly fates?: { readonly rules: FateRules; readonly running: boolean };
  /** the canvas node a node id is drawn as (an assumed publisher is folded into the node it publishes to) */
  readonly drawnNode?: (nodeId: string) => string;
}

/** The canvas node an event happens at (for pointing at it, e.g. a trace's first divergence). */
export function nodeOfEvent(e: SimEvent): string | undefined {
  const s = stopAt(e);
  if (s) return s.node;
  if ('queue' in e && typeof e.queue === 'string' && e.queue) return queueNodeId(e.queue);
  if ('exchange' in e && typeof e.exchange === 'string' && e.exchange) return exchangeNodeId(e.exchange);
  if ('consumer' in e && typeof e.consumer === 'string') return consumerNodeId(e.consumer);
  return undefined;
}

/** Where an event puts the message, if it moves it. */
function stopAt(e: SimEvent): { node: string; until?: number } | undefined {
  switch (e.kind) {
    case 'published':
      return e.origin.kind === 'publisher'
        ? { node: publisherNodeId(e.origin.id) }
        : e.origin.kind === 'consumer'
          ? { node: consumerNodeId(e.origin.id) }
          : undefined;
    case 'routed':
      // the default exchange is not drawn: the token goes straight to the queue
      return e.exchange === '' ? undefined : { node: exchangeNodeId(e.exchange) };
    case 'delayed':
      return { node: exchangeNodeId(e.exchange), until: e.until };
    case 'enqueued':
      return { node: queueNodeId(e.queue), ...(e.expiresAt !== undefined ? { until: e.expiresAt } : {}) };
    case 'delivered':
      return { node: consumerNodeId(e.consumer) };
    case 'rejected':
    case 'requeued':
      return { node: queueNodeId(e.queue) };
    default:
      return undefined;
  }
}

export function compilePlayback(input: readonly SimEvent[], speed: number, opts: PlaybackOptions = {}): PlaybackPlan {
  const hop = opts.hop ?? HOP_MS;
  const brokerTime = opts.brokerTime ?? false;
  const fates = opts.fates;
  const drawn = opts.drawnNode;
  const stopOf = drawn
    ? (e: SimEvent) => {
        const s = stopAt(e);
        return s && { ...s, node: drawn(s.node) };
      }
    : stopAt;
  const events = [...input].sort((a, b) => a.t - b.t || a.seq - b.seq);
  // pass 1: stops per message per instant, and the busiest message per instant
  const instants: number[] = [];
  const maxSteps = new Map<number, number>();
  const stepsAt = new Map<string, number>(); // `${msg}@${t}` → steps so far
  const lastNode = new Map<string, string>();
  const micro = new Int32Array(events.length).fill(-1);
  const cur = new Int32Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (!maxSteps.has(e.t)) {
      maxSteps.set(e.t, 1);
      instants.push(e.t);
    }
    const key = `${e.msgId}@${e.t}`;
    const s = stopOf(e);
    let n = stepsAt.get(key) ?? 0;
    if (s && lastNode.get(e.msgId) !== s.node) {
      micro[i] = n;
      n++;
      stepsAt.set(key, n);
      lastNode.set(e.msgId, s.node);
      if (n > maxSteps.get(e.t)!) maxSteps.set(e.t, n);
    }
    cur[i] = Math.max(0, n - 1);
  }
  // pass 2: display base and hop length of every instant
  const { instantsT, instantsP, hops } = displayBases(instants, maxSteps, speed, hop, brokerTime);
  const base = new Map<number, number>();
  const hopAt = new Map<number, number>();
  for (let k = 0; k < instants.length; k++) {
    base.set(instantsT[k]!, instantsP[k]!);
    hopAt.set(instantsT[k]!, hops[k]!);
  }
  // pass 3: tracks, event display times, depth series
  const eventP = new Float64Array(events.length);
  const byMsg = new Map<string, MessageTrack>();
  const tracks: MessageTrack[] = [];
  const depthPts = new Map<string, { at: number[]; depth: number[]; ready: number }>();
  // where each message's copies are: its token's story ends when nothing of it is left anywhere
  const rules = fates?.rules;
  const ledger = new CopyLedger({
    ...(rules ? { streams: rules.streams } : {}),
    ...(rules?.workConsumers ? { workConsumers: rules.workConsumers } : {}),
  });
  const setDepth = (q: string, at: number, d: number) => {
    let s = depthPts.get(q);
    if (!s) depthPts.set(q, (s = { at: [], depth: [], ready: 0 }));
    s.ready = Math.max(0, d);
    s.at.push(at);
    s.depth.push(s.ready);
  };
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    // events about no message (live depth samples) only move the depth counters
    if (e.msgId === '') {
      eventP[i] = base.get(e.t)!;
      if (e.kind === 'depth') setDepth(e.queue, base.get(e.t)!, e.ready);
      continue;
    }
    let tr = byMsg.get(e.msgId);
    if (!tr) {
      tr = { msgId: e.msgId, body: e.body, index: tracks.length, stops: [], fate: undefined, end: 0, eventIdx: [] };
      byMsg.set(e.msgId, tr);
      tracks.push(tr);
    }
    tr.eventIdx.push(i);
    const h = hopAt.get(e.t)!;
    const at = base.get(e.t)! + (micro[i]! >= 0 ? micro[i]! : cur[i]!) * h;
    eventP[i] = at;
    if (micro[i]! >= 0) {
      const s = stopOf(e)!;
      tr.stops.push({ node: s.node, arrive: at, t: e.t, hop: h, ...(s.until !== undefined ? { until: s.until } : {}) });
    }
    switch (e.kind) {
      case 'enqueued':
        setDepth(e.queue, at, e.depth);
        break;
      case 'delivered':
      case 'expired':
        setDepth(e.queue, at, (depthPts.get(e.queue)?.ready ?? 1) - 1);
        break;
      case 'requeued':
        setDepth(e.queue, at, (depthPts.get(e.queue)?.ready ?? 0) + 1);
        break;
      case 'depth':
        setDepth(e.queue, at, e.ready);
        break;
    }
    // its last copy came to an end (acked, dropped, refused): the story ends here (an ack after a republish does not)
    if (ledger.apply(e)?.settled) tr.end = at + h;
  }
  const active = (q: string): boolean => rules?.active.has(q) ?? false;
  const endT = instants.length ? instants[instants.length - 1]! : 0;
  for (const tr of tracks) {
    const copies = ledger.get(tr.msgId)!;
    tr.fate = decideOutcome(copies, {
      truncated: copies.onItsWay(fates?.running ?? false, active),
      endTime: endT,
      active,
      ...(rules ? { deadLettering: (q: string) => rules.deadLettering.has(q), rank: rules.rank } : {}),
    });
  }
  let endP = instantsP.length ? instantsP[instantsP.length - 1]! : hop;
  for (const tr of tracks) {
    const last = tr.stops[tr.stops.length - 1];
    if (!tr.end) tr.end = (last?.arrive ?? 0) + (last?.hop ?? hop);
    endP = Math.max(endP, tr.end);
  }
  const depth = new Map<string, DepthSeries>();
  for (const [q, s] of depthPts) depth.set(q, { at: Float64Array.from(s.at), depth: Int32Array.from(s.depth) });
  return {
    tracks,
    byMsg,
    depth,
    eventP,
    events,
    instantsT,
    instantsP,
    endP,
    endT: instants.length ? instants[instants.length - 1]! : 0,
    speed,
    brokerTime,
  };
}

/**
 * Where each instant starts on the display clock and how long its hops take. A story adds the
 * hops to the virtual gaps; broker time puts instant t at `hop + t / speed` (a lead-in hop, then
 * the broker's own clock) and fits the hops into the gap to the next instant.
 */
function displayBases(
  instants: readonly number[],
  maxSteps: ReadonlyMap<number, number>,
  speed: number,
  hop: number,
  brokerTime: boolean,
): { instantsT: Float64Array; instantsP: Float64Array; hops: Float64Array } {
  const n = instants.length;
  const instantsT = Float64Array.from(instants);
  const instantsP = new Float64Array(n);
  const hops = new Float64Array(n);
  let p = hop;
  for (let k = 0; k < n; k++) {
    const t = instants[k]!;
    const steps = maxSteps.get(t)!;
    if (brokerTime) {
      instantsP[k] = hop + Math.max(0, t) / speed;
      // the last instant's hops take one hop in all: the replay ends a moment after the broker's last event
      const room = k + 1 < n ? (instants[k + 1]! - t) / speed : hop;
      hops[k] = Math.min(hop, room / steps);
      continue;
    }
    if (k > 0) p += (t - instants[k - 1]!) / speed;
    instantsP[k] = p;
    hops[k] = hop;
    p += steps * hop;
  }
  return { instantsT, instantsP, hops };
}

/** Last index with arr[i] <= x, or -1. */
export function floorIndex(arr: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = arr.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (arr[mid]! <= x) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

/** Virtual time shown at display time p (for the clock and for keeping place when speed changes). */
export function virtualAt(plan: PlaybackPlan, p: number): number {
  const k = floorIndex(plan.instantsP, p);
  if (k < 0) return 0;
  const t0 = plan.instantsT[k]!;
  const next = k + 1 < plan.instantsT.length ? plan.instantsT[k + 1]! : undefined;
  if (next === undefined) return t0;
  // inside the hops of instant k virtual time stands still; after them it runs at `speed`
  const hopsEnd = plan.instantsP[k + 1]! - (next - t0) / plan.speed;
  if (p <= hopsEnd) return t0;
  return Math.min(next, t0 + (p - hopsEnd) * plan.speed);
}

/** Display time at which virtual time t is first shown. */
export function displayAt(plan: PlaybackPlan, t: number): number {
  const k = floorIndex(plan.instantsT, t);
  if (k < 0) return 0;
  const t0 = plan.instantsT[k]!;
  if (t === t0 || k + 1 >= plan.instantsT.length) return plan.instantsP[k]!;
  const next = plan.instantsT[k + 1]!;
  return plan.instantsP[k + 1]! - (next - t) / plan.speed;
}
