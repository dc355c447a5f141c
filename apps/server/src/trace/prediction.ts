/**
 * The simulator's prediction for the same design, behaviours and test messages, and the first
 * point where the real trace differs from it.
 *
 * Compared per message (the live trace and the simulator name messages alike: `${publisher}-${n}`):
 * - the consumer-side milestones in order (delivered, processed, acked / rejected / requeued,
 *   expired, dead-lettered, republished, returned, dropped), which are causally ordered on the
 *   broker too;
 * - the routing hops (exchange -> queues) as a multiset, since the observation of hops through
 *   different exchanges arrives on different queues and its order between them is not causal.
 * Timing is not compared (virtual time vs wall time).
 */
import { designToSimulation, simulate, type Design, type FailureModel, type PublisherSpec, type SimEvent } from '@retry-studio/topology-core';
import type { TraceOptions } from './traceSession.js';

export const MAX_PREDICTED_MESSAGES = 2000;

/** What a trace may set on its test messages instead of the publisher's properties. */
export type PublishOverrides = Pick<TraceOptions, 'headers' | 'expiration' | 'priority'>;

/** The publisher as the trace publishes: its properties with the trace's overrides on top (as TraceSession.messages does). */
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

export interface Difference {
  readonly msgId: string;
  readonly body: string;
  readonly what: 'milestone' | 'routing';
  /** index in the message's milestone list */
  readonly index: number;
  readonly predicted?: string;
  readonly actual?: string;
  /** the actual event where they part (for the canvas to highlight) */
  readonly at?: { readonly t: number; readonly seq: number };
}

export interface Comparison {
  readonly messagesCompared: number;
  readonly matching: number;
  readonly firstDifference?: Difference;
  readonly differences: readonly Difference[];
  readonly note?: string;
}

export function predict(
  design: Design,
  opts: { messages: number; publisher?: string; failure?: FailureModel; seed?: number; overrides?: PublishOverrides },
): { events: SimEvent[]; truncated: boolean } {
  const n = Math.min(opts.messages, MAX_PREDICTED_MESSAGES);
  const chosen = opts.publisher ? design.publishers.filter((p) => p.id === opts.publisher) : design.publishers.slice(0, 1);
  const d = { ...design, publishers: chosen.map((p) => withOverrides(p, opts.overrides ?? {})) };
  const input = designToSimulation(d, { messages: n, ...(opts.seed !== undefined ? { seed: opts.seed } : {}), ...(opts.failure ? { failure: opts.failure } : {}) });
  const r = simulate({ ...input, maxEvents: 200_000 });
  return { events: [...r.events], truncated: n < opts.messages };
}

function milestone(e: SimEvent): string | undefined {
  switch (e.kind) {
    case 'delivered':
      return `delivered ${e.queue}${e.redelivered ? ' (redelivered)' : ''}`;
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

function hop(e: SimEvent): string | undefined {
  if (e.kind !== 'routed') return undefined;
  return `${e.exchange === '' ? '(default)' : e.exchange} -> [${[...e.queues].sort().join(', ')}]${e.exchanges.length ? ` + exchanges [${[...e.exchanges].sort().join(', ')}]` : ''}`;
}

interface PerMsg {
  body: string;
  milestones: { s: string; e: SimEvent }[];
  hops: Map<string, number>;
}

function group(events: readonly SimEvent[]): Map<string, PerMsg> {
  const out = new Map<string, PerMsg>();
  for (const e of events) {
    if (e.msgId === '') continue;
    let m = out.get(e.msgId);
    if (!m) {
      m = { body: e.body, milestones: [], hops: new Map() };
      out.set(e.msgId, m);
    }
    const s = milestone(e);
    if (s) m.milestones.push({ s, e });
    const h = hop(e);
    if (h) m.hops.set(h, (m.hops.get(h) ?? 0) + 1);
  }
  return out;
}

/** `actual`: the live trace's events; only messages present in both are compared. */
export function compareTrace(predicted: readonly SimEvent[], actual: readonly SimEvent[], opts: { complete: boolean }): Comparison {
  const p = group(predicted);
  const a = group(actual);
  const differences: Difference[] = [];
  let compared = 0;
  for (const [msgId, am] of a) {
    const pm = p.get(msgId);
    if (!pm) continue;
    compared += 1;
    const n = Math.max(am.milestones.length, pm.milestones.length);
    let found: Difference | undefined;
    for (let i = 0; i < n; i++) {
      const x = am.milestones[i];
      const y = pm.milestones[i];
      if (x === undefined && !opts.complete) break; // the live message has not got that far yet
      if (x?.s !== y?.s) {
        found = { msgId, body: am.body, what: 'milestone', index: i, ...(y ? { predicted: y.s } : {}), ...(x ? { actual: x.s, at: { t: x.e.t, seq: x.e.seq } } : {}) };
        break;
      }
    }
    if (!found && opts.complete) {
      const keys = new Set([...am.hops.keys(), ...pm.hops.keys()]);
      for (const k of [...keys].sort()) {
        const ca = am.hops.get(k) ?? 0;
        const cp = pm.hops.get(k) ?? 0;
        if (ca !== cp) {
          found = { msgId, body: am.body, what: 'routing', index: -1, predicted: `${k} x${cp}`, actual: `${k} x${ca}` };
          break;
        }
      }
    }
    if (found) differences.push(found);
  }
  // the first difference: the one whose actual event came earliest (else the lowest message)
  const first = [...differences].sort((x, y) => (x.at?.seq ?? Infinity) - (y.at?.seq ?? Infinity))[0];
  return { messagesCompared: compared, matching: compared - differences.length, ...(first ? { firstDifference: first } : {}), differences: differences.slice(0, 100) };
}
