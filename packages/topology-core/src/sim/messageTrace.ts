/**
 * One message's journey, read from a simulation's events: processing attempts (by the work
 * consumers), the virtual time of each, the delays between them, and where it ended.
 */
import type { SimEvent } from './events.js';
import type { SimulationResult } from './types.js';
import type { Ending } from '../templates/types.js';
import type { Topology } from '../model/definitions.js';
import type { ConsumerSpec } from '../model/consumer.js';
import { effectiveArguments, queueSettingsOf } from '../model/effectiveSettings.js';
import { decideOutcome, endingOf, type MessageOutcome, type OutcomeFacts } from './messageOutcome.js';

export interface MessageTrace {
  readonly msgId: string;
  readonly body: string;
  /** virtual ms of each processing attempt by a work consumer */
  readonly attemptTimes: readonly number[];
  readonly attempts: number;
  readonly delaysMs: readonly number[];
  /** what became of it: the one outcome every place states */
  readonly outcome: MessageOutcome;
  /** the outcome as a template's documented ending */
  readonly endsIn: Ending;
  /** virtual ms of the last event concerning this message */
  readonly endTime: number;
  /** every queue the message was enqueued in, in order (duplicates kept) */
  readonly path: readonly string[];
  readonly ops: BrokerOps;
}

/** Broker work caused by one message. */
export interface BrokerOps {
  /** client publishes (the original included) */
  readonly publishes: number;
  readonly deadLetterings: number;
  /** exchange routing decisions (one per exchange visited) */
  readonly routings: number;
  readonly enqueues: number;
  readonly deliveries: number;
  readonly requeues: number;
  readonly delayed: number;
  readonly expirations: number;
  readonly drops: number;
}

export interface TraceOptions {
  /** consumer ids whose processing counts as an attempt; default: every consumer that emitted `processed` */
  readonly workConsumers?: readonly string[];
  /**
   * Queues where a message keeps moving (a consumer reads it, or a TTL expires it). When the run
   * was cut off, a message sitting in one of them is still cycling rather than parked.
   */
  readonly activeQueues?: ReadonlySet<string>;
  /** queues with a dead-letter route: a message with its own expiration there moves on when it expires */
  readonly deadLettering?: ReadonlySet<string>;
}

/**
 * Queues with a consumer (streams aside) or a queue TTL with a dead-letter route (arguments or
 * policies): a message there has not come to rest. A TTL with no onward route parks the message
 * until it expires and is dropped (describeEnding says so): it is not cycling.
 */
export function activeQueuesOf(design: {
  readonly topology: Topology;
  readonly consumers: readonly ConsumerSpec[];
}): Set<string> {
  // a stream's reader moves nothing (read by offset): a message in a stream is parked
  const streams = new Set(
    design.topology.queues.filter((q) => q.arguments?.['x-queue-type'] === 'stream').map((q) => q.name),
  );
  const s = new Set<string>(design.consumers.map((c) => c.queue).filter((q) => !streams.has(q)));
  for (const q of design.topology.queues) {
    const a = effectiveArguments(queueSettingsOf(design.topology).get(q.name)!);
    if (a['x-message-ttl'] !== undefined && typeof a['x-dead-letter-exchange'] === 'string') s.add(q.name);
  }
  return s;
}

/** Queues with a dead-letter exchange (arguments or policies): an expiring message there moves on. */
export function deadLetteringQueuesOf(topology: Topology): Set<string> {
  return new Set(
    topology.queues
      .filter(
        (q) => typeof effectiveArguments(queueSettingsOf(topology).get(q.name)!)['x-dead-letter-exchange'] === 'string',
      )
      .map((q) => q.name),
  );
}

/** Groups events by message and builds each message's trace. */
export function traceMessages(result: SimulationResult, opts: TraceOptions = {}): MessageTrace[] {
  const byMsg = new Map<string, SimEvent[]>();
  for (const e of result.events) {
    let list = byMsg.get(e.msgId);
    if (!list) byMsg.set(e.msgId, (list = []));
    list.push(e);
  }
  const finalQueues = new Map<string, string[]>();
  for (const [q, msgs] of Object.entries(result.final))
    for (const m of msgs) {
      const l = finalQueues.get(m.msgId) ?? [];
      if (!l.includes(q)) l.push(q);
      finalQueues.set(m.msgId, l);
    }
  const work = opts.workConsumers ? new Set(opts.workConsumers) : undefined;
  const out: MessageTrace[] = [];
  for (const [msgId, events] of byMsg) {
    const where = {
      inQueues: finalQueues.get(msgId) ?? [],
      truncated: result.truncated,
      endTime: result.stoppedAt ?? result.endTime,
      ...(opts.activeQueues ? { activeQueues: opts.activeQueues } : {}),
      ...(opts.deadLettering ? { deadLettering: opts.deadLettering } : {}),
    };
    out.push(traceOne(msgId, events, where, work));
  }
  return out;
}

type Where = Pick<OutcomeFacts, 'inQueues' | 'truncated' | 'endTime' | 'activeQueues' | 'deadLettering'>;

function traceOne(
  msgId: string,
  events: readonly SimEvent[],
  where: Where,
  work: Set<string> | undefined,
): MessageTrace {
  let attemptTimes: number[] = [];
  const path: string[] = [];
  let publishes = 0,
    deadLetterings = 0,
    routings = 0,
    enqueues = 0,
    deliveries = 0,
    requeues = 0,
    delayed = 0,
    expirations = 0,
    drops = 0;
  let ackedBy: string | undefined;
  let processedOk = 0;
  // consumers that report processing, and consumer republishes by time (a republish-then-ack is not a settled copy)
  const processors = new Set<string>();
  const lastOk = new Map<string, boolean>();
  const republishedAt = new Set<string>();
  for (const e of events) {
    if (e.kind === 'processed') processors.add(e.consumer);
    else if (e.kind === 'published' && e.origin.kind === 'consumer') republishedAt.add(`${e.origin.id}\u0000${e.t}`);
  }
  // script consumers emit no 'processed': fall back to the deliveries of the consumer that saw it most
  const deliveredAt = new Map<string, number[]>();
  const lastOutcome = new Map<string, SimEvent['kind']>();
  // delivered and not settled, per consumer (a `hold` that nothing settled)
  const unsettled = new Map<string, number>();
  const bump = (c: string, d: number): void => void unsettled.set(c, (unsettled.get(c) ?? 0) + d);
  for (const e of events) {
    if (e.kind === 'delivered') bump(e.consumer, 1);
    else if (e.kind === 'acked' || e.kind === 'rejected' || e.kind === 'requeued') bump(e.consumer, -1);
    switch (e.kind) {
      case 'published':
        publishes++;
        break;
      case 'routed':
        routings++;
        break;
      case 'enqueued':
        enqueues++;
        path.push(e.queue);
        break;
      case 'delivered':
        deliveries++;
        if (!work || work.has(e.consumer)) {
          const l = deliveredAt.get(e.consumer);
          if (l) l.push(e.t);
          else deliveredAt.set(e.consumer, [e.t]);
        }
        break;
      case 'processed':
        lastOk.set(e.consumer, e.ok);
        if (!work || work.has(e.consumer)) attemptTimes.push(e.t);
        break;
      case 'acked':
        if (!work || work.has(e.consumer)) {
          // the consumer's last processing before this ack (events are in order)
          const ok = lastOk.get(e.consumer) ?? false;
          if (ok) {
            ackedBy = e.consumer;
            processedOk++;
          }
        }
        // a script consumer reports no processing: its ack (not a republish-then-ack) settles that copy
        if (!processors.has(e.consumer) && !republishedAt.has(`${e.consumer}\u0000${e.t}`)) processedOk++;
        lastOutcome.set(e.consumer, e.kind);
        break;
      case 'rejected':
        lastOutcome.set(e.consumer, e.kind);
        break;
      case 'requeued':
        requeues++;
        lastOutcome.set(e.consumer, e.kind);
        break;
      case 'dead-lettered':
        deadLetterings++;
        break;
      case 'delayed':
        delayed++;
        break;
      case 'expired':
        expirations++;
        break;
      case 'dropped':
        drops++;
        break;
      default:
        break;
    }
  }
  if (attemptTimes.length === 0 && deliveredAt.size > 0) {
    let best: [string, number[]] | undefined;
    for (const entry of deliveredAt) if (!best || entry[1].length > best[1].length) best = entry;
    attemptTimes = best![1];
    // a script consumer whose last word on it was an ack (not a republish-then-ack, which publishes after)
    const lastEvent = [...events].reverse().find((e) => 'consumer' in e && e.consumer === best![0]);
    const acked =
      lastOutcome.get(best![0]) === 'acked' &&
      lastEvent?.kind === 'acked' &&
      !events.some(
        (e) => e.kind === 'published' && e.origin.kind === 'consumer' && e.origin.id === best![0] && e.t >= lastEvent.t,
      );
    ackedBy = acked ? best![0] : undefined;
  }
  const delaysMs = attemptTimes.slice(1).map((t, i) => t - attemptTimes[i]!);
  const holder = [...unsettled].find(([, n]) => n > 0)?.[0];
  const outcome = decideOutcome({
    ...where,
    events,
    ackedBy,
    attempts: attemptTimes.length,
    holder,
    path,
    otherCopies: { processed: processedOk, dropped: drops },
  });
  const last = events[events.length - 1];
  return {
    msgId,
    body: events[0]?.body ?? '',
    attemptTimes,
    attempts: attemptTimes.length,
    delaysMs,
    outcome,
    endsIn: endingOf(outcome),
    endTime: last ? last.t : 0,
    path,
    ops: { publishes, deadLetterings, routings, enqueues, deliveries, requeues, delayed, expirations, drops },
  };
}
