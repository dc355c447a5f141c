/**
 * The simulator's prediction for the same design, behaviours, failure model, seed and test
 * messages, and the first point where the real trace differs from it.
 *
 * Compared per message (the live trace and the simulator name messages alike: `${publisher}-${n}`),
 * in causal order (the accounting orders the live events): each routing hop (exchange ->
 * queues), delivery (with its x-death queue, reason and count), processing verdict, ack /
 * reject / requeue, expiry, dead-letter, republish, return and drop. A message whose copies
 * fork (fanout to several queues) has no single order: its steps are compared as a multiset.
 * A message the prediction has that never showed live differs too. Timing is not compared
 * (virtual time vs wall time).
 *
 * With a node loss (asked for, or observed by the trace and put into the prediction): the
 * simulator's node loss only delays (a queue led by the lost node delivers nothing until its new
 * leader, a classic queue until the node is back), so fates, routes, x-death and per-message
 * order are compared as always and must match; times are not. The one honest exception is
 * at-least-once delivery: a message redelivered after its ack was lost in the leader move and
 * processed again (the trace's `duplicates`) has steps the model cannot have. Its difference is
 * kept, flagged `atLeastOnce`, counted apart and never chosen as the first difference while another exists.
 */
import {
  type Design,
  type FailureModel,
  type PublisherSpec,
  type XDeathEntry,
} from '@retry-studio/topology-core/model';
import {
  designToSimulation,
  retryHorizon,
  simulate,
  type NodeLoss,
  type RetryHorizon,
  type SimEvent,
  type SimEventOf,
} from '@retry-studio/topology-core/sim';
import type { Comparison, Difference } from '@retry-studio/contract';
import type { TraceOptions } from './traceOptions.js';

export const MAX_PREDICTED_MESSAGES = 2000;
/** the live events kept for the comparison (the stream's ring may have let older ones go) */
export const MAX_COMPARED_EVENTS = 100_000;

/** What a trace may set on its test messages instead of the publisher's properties. */
export type PublishOverrides = Pick<TraceOptions, 'headers' | 'expiration' | 'priority'>;

/** The publisher as the trace publishes: its properties with the trace's overrides on top (as testMessages does). */
export function withOverrides(p: PublisherSpec, o: PublishOverrides): PublisherSpec {
  if (o.headers === undefined && o.expiration === undefined && o.priority === undefined) return p;
  const props = p.properties ?? {};
  return {
    ...p,
    properties: {
      ...props,
      ...(o.expiration !== undefined ? { expiration: o.expiration } : {}),
      ...(o.priority !== undefined ? { priority: o.priority } : {}),
      ...(o.headers !== undefined ? { headers: { ...(props.headers ?? {}), ...o.headers } } : {}),
    },
  };
}

/** the comparison's types are the contract's (GET /api/trace/:id/prediction) */
export type { Comparison, Difference };

/** the design as the trace publishes it: its one publisher, with the trace's overrides */
function tracedDesign(design: Design, opts: { publisher?: string; overrides?: PublishOverrides }): Design {
  const chosen = opts.publisher
    ? design.publishers.filter((p) => p.id === opts.publisher)
    : design.publishers.slice(0, 1);
  return { ...design, publishers: chosen.map((p) => withOverrides(p, opts.overrides ?? {})) };
}

/** how far in virtual time a prediction runs: the traced design's horizon (sim/retryHorizon.ts) */
export const predictionHorizon = (
  design: Design,
  opts: { publisher?: string; overrides?: PublishOverrides },
): RetryHorizon => retryHorizon(tracedDesign(design, opts));

export function predict(
  design: Design,
  opts: {
    messages: number;
    publisher?: string;
    failure?: FailureModel;
    seed?: number;
    overrides?: PublishOverrides;
    /** a node loss at trace time: the messages are then published at the trace's rate, so it falls on the same ones */
    nodeLoss?: NodeLoss;
    ratePerSecond?: number;
  },
): { events: SimEvent[]; truncated: boolean; horizon: RetryHorizon } {
  const n = Math.min(opts.messages, MAX_PREDICTED_MESSAGES);
  const d = tracedDesign(design, opts);
  const intervalMs = opts.nodeLoss && opts.ratePerSecond ? 1000 / opts.ratePerSecond : 0;
  const input = designToSimulation(d, {
    messages: n,
    intervalMs,
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.failure ? { failure: opts.failure } : {}),
  });
  // the design's horizon (its longest TTL chain, with the trace's own expiration: sim/retryHorizon.ts), as simulate runs to
  const horizon = retryHorizon(d);
  const r = simulate({
    ...input,
    maxEvents: 200_000,
    maxTimeMs: horizon.ms,
    ...(opts.nodeLoss ? { nodeLoss: opts.nodeLoss } : {}),
  });
  return { events: [...r.events], truncated: n < opts.messages, horizon };
}

const deaths = (x: readonly XDeathEntry[] | undefined): string =>
  x?.length ? ` x-death [${x.map((d) => `${d.queue} ${d.reason} x${d.count}`).join(', ')}]` : '';

function milestone(e: SimEvent): string | undefined {
  switch (e.kind) {
    case 'routed':
      return `routed ${hop(e)}`;
    case 'unroutable':
      return `unroutable ${e.exchange === '' ? '(default)' : e.exchange}`;
    case 'delivered':
      // not the redelivered flag: 4.3 sets it on some first deliveries of a dead-lettered copy; requeues are steps of their own
      return `delivered ${e.queue}${deaths(e.xDeath)}`;
    case 'processed':
      return `processed ${e.queue} attempt ${e.attempt} ${e.ok ? 'ok' : 'failed'}`;
    case 'acked':
    case 'rejected':
    case 'requeued':
      return `${e.kind} ${e.queue}`;
    case 'expired':
      return `expired ${e.queue}`;
    case 'dead-lettered':
      return `dead-lettered ${e.queue} (${e.reason}) -> ${e.exchange}`;
    case 'published':
      return e.origin.kind === 'consumer' ? `republished -> ${e.exchange} [${e.routingKey}]` : undefined;
    case 'returned':
      return `returned ${e.exchange}`;
    case 'dropped':
      return `dropped (${e.why})`;
    case 'publish-nacked':
      return 'publish nacked';
    default:
      return undefined;
  }
}

function hop(e: SimEventOf<'routed'>): string {
  return `${e.exchange === '' ? '(default)' : e.exchange} -> [${[...e.queues].sort().join(', ')}]${e.exchanges.length ? ` + exchanges [${[...e.exchanges].sort().join(', ')}]` : ''}`;
}

function whereOf(e: SimEvent | undefined): Difference['where'] | undefined {
  if (!e) return undefined;
  if (e.kind === 'routed' || e.kind === 'unroutable' || e.kind === 'returned') return { exchange: e.exchange };
  if (e.kind === 'dropped')
    return {
      ...(e.exchange !== undefined ? { exchange: e.exchange } : {}),
      ...(e.queue !== undefined ? { queue: e.queue } : {}),
    };
  if ('queue' in e && typeof e.queue === 'string' && e.queue !== '') return { queue: e.queue };
  if ('exchange' in e && typeof e.exchange === 'string') return { exchange: e.exchange };
  return undefined;
}

/** one step of a message as the comparison reads it: its words, when it happened, where */
export interface Milestone {
  readonly s: string;
  readonly t: number;
  readonly seq: number;
  /** a routing hop (a difference there is a routing difference) */
  readonly routing: boolean;
  readonly where?: Difference['where'];
}

/** a message's steps, in order; `forks`: a copy went to more than one place (no single order) */
export interface MessageMilestones {
  readonly body: string;
  readonly milestones: Milestone[];
  forks: boolean;
}

/** messages -> their steps (what a trace keeps for the comparison instead of its events) */
export type Milestones = Map<string, MessageMilestones>;

/** Adds an event's step to its message's (false: the event is no step, e.g. a depth sample). */
export function addMilestone(out: Milestones, e: SimEvent): boolean {
  if (e.msgId === '') return false;
  let m = out.get(e.msgId);
  if (!m) {
    m = { body: e.body, milestones: [], forks: false };
    out.set(e.msgId, m);
  }
  if (e.kind === 'routed' && e.queues.length + e.exchanges.length > 1) m.forks = true;
  const s = milestone(e);
  if (s === undefined) return false;
  const where = whereOf(e);
  m.milestones.push({ s, t: e.t, seq: e.seq, routing: e.kind === 'routed', ...(where ? { where } : {}) });
  return true;
}

export function milestonesOf(events: readonly SimEvent[]): Milestones {
  const out: Milestones = new Map();
  for (const e of events) addMilestone(out, e);
  return out;
}

function inOrder(
  msgId: string,
  am: MessageMilestones,
  pm: MessageMilestones,
  complete: boolean,
): Difference | undefined {
  const n = Math.max(am.milestones.length, pm.milestones.length);
  for (let i = 0; i < n; i++) {
    const x = am.milestones[i];
    const y = pm.milestones[i];
    if (x === undefined && !complete) return undefined; // the live message has not got that far yet
    if (x?.s !== y?.s) {
      const where = x?.where ?? y?.where;
      return {
        msgId,
        body: am.body,
        what: x?.routing || y?.routing ? 'routing' : 'milestone',
        index: i,
        ...(y ? { predicted: y.s } : {}),
        ...(x ? { actual: x.s, at: { t: x.t, seq: x.seq } } : {}),
        ...(where ? { where } : {}),
      };
    }
  }
  return undefined;
}

function asMultiset(msgId: string, am: MessageMilestones, pm: MessageMilestones): Difference | undefined {
  const count = (m: MessageMilestones) => {
    const c = new Map<string, { n: number; m: Milestone }>();
    for (const x of m.milestones) c.set(x.s, { n: (c.get(x.s)?.n ?? 0) + 1, m: x });
    return c;
  };
  const ca = count(am);
  const cp = count(pm);
  for (const k of [...new Set([...ca.keys(), ...cp.keys()])].sort()) {
    const a = ca.get(k);
    const p = cp.get(k);
    if ((a?.n ?? 0) !== (p?.n ?? 0)) {
      const where = a?.m.where ?? p?.m.where;
      return {
        msgId,
        body: am.body,
        what: 'routing',
        index: -1,
        predicted: `${k} x${p?.n ?? 0}`,
        actual: `${k} x${a?.n ?? 0}`,
        ...(a ? { at: { t: a.m.t, seq: a.m.seq } } : {}),
        ...(where ? { where } : {}),
      };
    }
  }
  return undefined;
}

const asMilestones = (x: readonly SimEvent[] | Milestones): Milestones =>
  Array.isArray(x) ? milestonesOf(x) : (x as Milestones);

/**
 * `actual`: the live trace's events (or their steps, as the trace keeps them); `published`: how
 * many test messages went out live (the prediction's later messages are not compared). While the
 * trace runs, a message is compared only as far as it got.
 */
export function compareTrace(
  predicted: readonly SimEvent[] | Milestones,
  actual: readonly SimEvent[] | Milestones,
  opts: {
    complete: boolean;
    published?: number;
    /** messages processed again after a redelivery */ duplicates?: ReadonlySet<string>;
  },
): Comparison {
  const p = asMilestones(predicted);
  const a = asMilestones(actual);
  const differences: Difference[] = [];
  let compared = 0;
  const index = (id: string) => Number(/-(\d+)$/.exec(id)?.[1] ?? 0);
  const ids = new Set([...a.keys()]);
  if (opts.complete)
    for (const id of p.keys()) if (opts.published === undefined || index(id) <= opts.published) ids.add(id);
  for (const msgId of ids) {
    const pm = p.get(msgId) ?? { body: a.get(msgId)!.body, milestones: [], forks: false };
    const am = a.get(msgId) ?? { body: pm.body, milestones: [], forks: false };
    compared += 1;
    const found =
      am.forks || pm.forks
        ? opts.complete
          ? asMultiset(msgId, am, pm)
          : undefined
        : inOrder(msgId, am, pm, opts.complete);
    if (found) differences.push(opts.duplicates?.has(msgId) ? { ...found, atLeastOnce: true } : found);
  }
  // the first difference: not an at-least-once duplicate if another exists; the one whose actual event came earliest (else the lowest message)
  const first = [...differences].sort(
    (x, y) =>
      Number(x.atLeastOnce ?? false) - Number(y.atLeastOnce ?? false) ||
      (x.at?.seq ?? Infinity) - (y.at?.seq ?? Infinity) ||
      index(x.msgId) - index(y.msgId),
  )[0];
  const atLeastOnce = differences.filter((d) => d.atLeastOnce).length;
  return {
    messagesCompared: compared,
    matching: compared - differences.length,
    ...(first ? { firstDifference: first } : {}),
    differences: differences.slice(0, 100),
    atLeastOnce,
  };
}
