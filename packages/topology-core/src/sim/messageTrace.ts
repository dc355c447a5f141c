/**
 * One message's journey, read from a simulation's events: processing attempts (by the work
 * consumers), the virtual time of each, the delays between them, and where it ended.
 */
import type { SimEvent } from './events.js';
import type { SimulationResult } from './types.js';
import type { Topology } from '../model/definitions.js';
import type { ConsumerSpec } from '../model/consumer.js';
import { effectiveArguments, queueSettingsOf } from '../model/effectiveSettings.js';
import {
  cycleOf,
  decideOutcome,
  endingOf,
  type Ending,
  type FateContext,
  type MessageOutcome,
} from './messageOutcome.js';
import { CopyLedger } from './copyLedger.js';
import type { MessageCopies } from './messageCopies.js';

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
  /** queues read by offset (streams): a delivery leaves the message there (a delivery's `x-stream-offset` tells too) */
  readonly streams?: ReadonlySet<string>;
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
  const streams = streamsOf(design);
  const s = new Set<string>(design.consumers.map((c) => c.queue).filter((q) => !streams.has(q)));
  for (const q of design.topology.queues) {
    const a = effectiveArguments(queueSettingsOf(design.topology).get(q.name)!);
    if (a['x-message-ttl'] !== undefined && typeof a['x-dead-letter-exchange'] === 'string') s.add(q.name);
  }
  return s;
}

/** A design's streams (read by offset: a delivery leaves the message there). */
export function streamsOf(design: { readonly topology: Topology }): Set<string> {
  return new Set(design.topology.queues.filter((q) => q.arguments?.['x-queue-type'] === 'stream').map((q) => q.name));
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

/** Each message's trace from a run's events, its outcome read where the run left its copies. */
export function traceMessages(result: SimulationResult, opts: TraceOptions = {}): MessageTrace[] {
  const truncated = result.truncated;
  // the run's queues in their order (only asked when a message rests in several)
  let order: Map<string, number> | undefined;
  const rank = (q: string): number =>
    (order ??= new Map(Object.keys(result.final).map((name, i) => [name, i]))).get(q) ?? Number.MAX_SAFE_INTEGER;
  return traceEvents(result.events, opts, {
    truncatedFor: () => truncated,
    endTime: result.stoppedAt ?? result.endTime,
    rank,
  });
}

export interface EventReading {
  /** whether the run is cut off for this message (the run's flag, or what its copies show) */
  readonly truncatedFor: (copies: MessageCopies) => boolean;
  readonly endTime: number;
  readonly rank?: (queue: string) => number;
}

/** Each message's trace from events: its journey, and its outcome from the copy ledger. */
export function traceEvents(events: readonly SimEvent[], opts: TraceOptions, reading: EventReading): MessageTrace[] {
  const work = opts.workConsumers ? new Set(opts.workConsumers) : undefined;
  const ledger = new CopyLedger({
    ...(work ? { workConsumers: work } : {}),
    ...(opts.streams ? { streams: opts.streams } : {}),
  });
  const journeys = new Map<string, Journey>();
  for (const e of events) {
    if (e.msgId === '' || e.kind === 'depth') continue;
    ledger.apply(e);
    let j = journeys.get(e.msgId);
    if (!j) journeys.set(e.msgId, (j = new Journey(e.body)));
    j.add(e, work);
  }
  const active = opts.activeQueues;
  const deadLettering = opts.deadLettering;
  const out: MessageTrace[] = [];
  for (const [msgId, j] of journeys) {
    const copies = ledger.get(msgId)!;
    const ctx: FateContext = {
      truncated: reading.truncatedFor(copies),
      endTime: reading.endTime,
      ...(active ? { active: (q: string) => active.has(q) } : {}),
      ...(deadLettering ? { deadLettering: (q: string) => deadLettering.has(q) } : {}),
      ...(reading.rank ? { rank: reading.rank } : {}),
    };
    const attemptTimes = j.attemptTimes();
    // nothing shows where it is: between queues when the events stop
    const outcome = decideOutcome(copies, ctx) ?? {
      kind: 'moving',
      attempts: attemptTimes.length,
      cycle: cycleOf(copies.path),
      atMs: reading.endTime,
    };
    out.push({
      msgId,
      body: j.body,
      attemptTimes,
      attempts: attemptTimes.length,
      delaysMs: attemptTimes.slice(1).map((t, i) => t - attemptTimes[i]!),
      outcome,
      endsIn: endingOf(outcome),
      endTime: j.lastT,
      path: j.path,
      ops: j.ops,
    });
  }
  return out;
}

/** One message's journey (what the trace shows besides its outcome): attempt times, path, broker work. */
class Journey {
  readonly path: string[] = [];
  readonly ops = {
    publishes: 0,
    deadLetterings: 0,
    routings: 0,
    enqueues: 0,
    deliveries: 0,
    requeues: 0,
    delayed: 0,
    expirations: 0,
    drops: 0,
  };
  private readonly processedAt: number[] = [];
  /** work consumer -> its deliveries' times (script consumers report no processing: these are its attempts) */
  private readonly deliveredAt = new Map<string, number[]>();
  lastT = 0;

  constructor(readonly body: string) {}

  add(e: SimEvent, work: ReadonlySet<string> | undefined): void {
    this.lastT = e.t;
    const o = this.ops;
    switch (e.kind) {
      case 'published':
        o.publishes++;
        break;
      case 'routed':
        o.routings++;
        break;
      case 'enqueued':
        o.enqueues++;
        this.path.push(e.queue);
        break;
      case 'delivered':
        o.deliveries++;
        if (!work || work.has(e.consumer)) {
          const l = this.deliveredAt.get(e.consumer);
          if (l) l.push(e.t);
          else this.deliveredAt.set(e.consumer, [e.t]);
        }
        break;
      case 'processed':
        if (!work || work.has(e.consumer)) this.processedAt.push(e.t);
        break;
      case 'requeued':
        o.requeues++;
        break;
      case 'dead-lettered':
        o.deadLetterings++;
        break;
      case 'delayed':
        o.delayed++;
        break;
      case 'expired':
        o.expirations++;
        break;
      case 'dropped':
        o.drops++;
        break;
      default:
        break;
    }
  }

  /**
   * processing attempts by the work consumers; none reported (script consumers): the deliveries of
   * the one that got it most (the ledger's settledBy counts the same ones)
   */
  attemptTimes(): number[] {
    if (this.processedAt.length > 0 || this.deliveredAt.size === 0) return this.processedAt;
    let best: number[] = [];
    for (const l of this.deliveredAt.values()) if (l.length > best.length) best = l;
    return best;
  }
}
