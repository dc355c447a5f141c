/**
 * Each message's outcome read from an event stream alone (a live trace's, or a run's events
 * without its final queues): where its copies are is counted from the events, by the rules the
 * server's trace accounting uses (an enqueue makes a copy ready, a delivery takes it to the
 * consumer, a requeue puts it back, a dead-lettering or a drop takes it out), and the outcome is
 * then decided by the one function every place reads (messageOutcome.ts via messageTrace.ts).
 * So a live lane and a predicted lane state their outcome with the same words and rules.
 */
import type { Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import type { SimEvent } from './events.js';
import type { MessageSnapshot, SimulationResult } from './types.js';
import { activeQueuesOf, deadLetteringQueuesOf, traceMessages } from './messageTrace.js';
import { markNeverEndsFailingAlways } from './retryEnding.js';
import type { RunOutcomes } from './runOutcomes.js';

/** Where one message's copies are after its events. */
export interface CopiesAt {
  /** queue -> copies ready there */
  readonly ready: ReadonlyMap<string, number>;
  /** delivered, not yet settled */
  readonly unacked: number;
  /** rejected (or expired) and not yet dead-lettered or dropped */
  readonly pending: number;
  /** its last event leaves it between queues: published, dead-lettered, routed on to an exchange, held by a delayed exchange */
  readonly inTransit: boolean;
}

const bump = (m: Map<string, number>, k: string, d: number): void => {
  const n = (m.get(k) ?? 0) + d;
  if (n === 0) m.delete(k);
  else m.set(k, n);
};

/** `streams`: queues read by offset (a delivery leaves the message in the stream). */
export function copiesOf(events: readonly SimEvent[], streams: ReadonlySet<string> = new Set()): Map<string, CopiesAt> {
  const st = new Map<
    string,
    {
      ready: Map<string, number>;
      unacked: Map<string, number>;
      rejected: Map<string, number>;
      last: SimEvent | undefined;
    }
  >();
  for (const e of events) {
    if (e.msgId === '' || e.kind === 'depth') continue;
    let s = st.get(e.msgId);
    if (!s) st.set(e.msgId, (s = { ready: new Map(), unacked: new Map(), rejected: new Map(), last: undefined }));
    s.last = e;
    switch (e.kind) {
      case 'enqueued':
        bump(s.ready, e.queue, 1);
        break;
      case 'delivered':
        if (!streams.has(e.queue)) bump(s.ready, e.queue, -1);
        bump(s.unacked, e.queue, 1);
        break;
      case 'requeued':
        bump(s.unacked, e.queue, -1);
        if (!streams.has(e.queue)) bump(s.ready, e.queue, 1);
        break;
      case 'acked':
        bump(s.unacked, e.queue, -1);
        break;
      case 'rejected':
        bump(s.unacked, e.queue, -1);
        if (!streams.has(e.queue)) bump(s.rejected, e.queue, 1);
        break;
      case 'dead-lettered':
        if ((s.rejected.get(e.queue) ?? 0) > 0) bump(s.rejected, e.queue, -1);
        else bump(s.ready, e.queue, -1);
        break;
      case 'dropped':
        // after a rejection (no DLX, missing DLX) or an expiry without DLX the copy leaves its queue
        if (e.queue !== undefined) {
          if ((s.rejected.get(e.queue) ?? 0) > 0) bump(s.rejected, e.queue, -1);
          else if ((s.ready.get(e.queue) ?? 0) > 0) bump(s.ready, e.queue, -1);
        }
        break;
      default:
        break;
    }
  }
  const sum = (m: ReadonlyMap<string, number>): number => [...m.values()].reduce((a, n) => a + Math.max(0, n), 0);
  const out = new Map<string, CopiesAt>();
  for (const [id, s] of st) {
    const l = s.last;
    const inTransit =
      l !== undefined &&
      (l.kind === 'published' ||
        l.kind === 'dead-lettered' ||
        l.kind === 'delayed' ||
        (l.kind === 'routed' && l.exchanges.length > 0 && l.queues.length === 0));
    out.set(id, {
      ready: new Map([...s.ready].filter(([, n]) => n > 0)),
      unacked: sum(s.unacked),
      pending: sum(s.rejected),
      inTransit,
    });
  }
  return out;
}

export interface EventOutcomeOptions {
  /** the run or trace is still going: a message at a consumer is being processed, not held */
  readonly running: boolean;
  /** the failure model the workers used (a fail-first ack that only the cap gave is said so) */
  readonly failure?: FailureModel;
}

/**
 * Outcomes of a stream of events on `design`. A message with a copy still on its way (at a
 * consumer while running, rejected and not yet dead-lettered, between queues, or ready where a
 * consumer or a TTL moves it on) is still moving; one whose every copy came to rest is parked,
 * acked, dropped or held, as the simulator's run would say.
 */
export function outcomesOfEvents(design: Design, events: readonly SimEvent[], opts: EventOutcomeOptions): RunOutcomes {
  const streams = new Set(
    design.topology.queues.filter((q) => q.arguments?.['x-queue-type'] === 'stream').map((q) => q.name),
  );
  const copies = copiesOf(events, streams);
  const active = activeQueuesOf(design);
  const deadLettering = deadLetteringQueuesOf(design.topology);
  // the order the simulator's final snapshot has: the design's queues, then any other
  const order = new Map(design.topology.queues.map((q, i) => [q.name, i]));
  const rank = (q: string): number => order.get(q) ?? Number.MAX_SAFE_INTEGER;
  const workers = design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
  const endTime = events.reduce((t, e) => Math.max(t, e.t), 0);
  const byMsg = new Map<string, SimEvent[]>();
  for (const e of events) {
    if (e.msgId === '' || e.kind === 'depth') continue;
    const l = byMsg.get(e.msgId);
    if (l) l.push(e);
    else byMsg.set(e.msgId, [e]);
  }
  const traces = [...byMsg].map(([msgId, evs]) => {
    const c = copies.get(msgId)!;
    const inQueues = [...c.ready.keys()].sort((a, b) => rank(a) - rank(b));
    const moving =
      c.inTransit || c.pending > 0 || (opts.running && c.unacked > 0) || inQueues.some((q) => active.has(q));
    const final: Record<string, MessageSnapshot[]> = {};
    for (const q of inQueues) final[q] = [{ msgId } as MessageSnapshot];
    const result = {
      events: evs,
      final,
      truncated: moving,
      endTime,
      stoppedAt: endTime,
    } as unknown as SimulationResult;
    return traceMessages(result, {
      activeQueues: active,
      deadLettering,
      ...(workers.length > 0 ? { workConsumers: workers } : {}),
    })[0]!;
  });
  const marked = opts.failure ? markNeverEndsFailingAlways(design, opts.failure, traces) : traces;
  return { traces: marked, byMsg: new Map(marked.map((t) => [t.msgId, t.outcome])) };
}
