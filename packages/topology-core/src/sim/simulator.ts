/**
 * The discrete-event simulator. Virtual time, a (time, seq) min-heap of scheduled work, a
 * seeded PRNG, no timers. `next()` is the pure-ish step: it takes the earliest heap entry,
 * applies it, and returns the events it produced; runners (simulate(), the UI's play/step,
 * the bench) interpret those events.
 *
 * The rules live one per file, as functions over the run state (simState.ts): publishRoute
 * (publish, route, enqueue, length limits), deliver (one delivery), deliverAck (dispatch, consumer outcomes, ack,
 * reject, requeue, republish), deadLetterRoute, expiry (TTL, x-expires), delayedHold (the
 * delayed-message exchange), quorum (delivery counts and limits, 4.3 delayed retry) and stream.
 * Each imports only the rule files below it; the calls that go up go through the table in rules.ts.
 */
import type { AmqpValue } from '../model/definitions.js';
import type { PublishOrigin, SimEvent } from './events.js';
import type {
  IgnoredArgument,
  Logical,
  MessageSnapshot,
  QueueDepth,
  SimulationInput,
  SimulationResult,
} from './types.js';
import type { SemanticsProfile } from './profiles.js';
import type { QEntry, QueueState } from './queueState.js';
import { SIM_RULES } from './rules.js';
import { NO_HEADERS, SimState, type ConsumerState, type Delivery, type Work } from './simState.js';
import { clientPublish, dropHeadOverflow, routeAndEnqueue } from './publishRoute.js';
import { apply, closeConsumers, dispatch, outcome, retryAttempt } from './deliverAck.js';
import { deleteQueue, dropExpired, ensureTimer } from './expiry.js';
import { deliveredHeaders, retryReady } from './quorum.js';
import { settlesMultiple } from '../behaviour/settlesMultiple.js';
import { startOffset, streamHeaders } from './stream.js';

const STEP_WORK: Work = { k: 'step' };
const ACK = { kind: 'ack' } as const;
const STEP_ORIGIN: PublishOrigin = { kind: 'step' };

export class Simulator {
  private readonly s: SimState;

  constructor(readonly input: SimulationInput) {
    this.s = new SimState(input, SIM_RULES);
    if (!this.s.startAfter) this.attachConsumers();
    // x-expires: a queue nobody consumes from is deleted once the period has passed
    // (publishing does not count as use; rabbit_amqqueue_process ensure_expiry_timer)
    for (const q of this.s.queues.values())
      if (q.cfg.expires !== undefined && q.consumers.length === 0)
        this.s.heap.push(q.cfg.expires, { k: 'queue-expires', q });
    if (this.s.steps.length > 0) this.s.heap.push(0, STEP_WORK);
    else this.finishSteps();
  }

  get profile(): SemanticsProfile {
    return this.s.profile;
  }
  get events(): SimEvent[] {
    return this.s.events;
  }
  get publishNacked(): string[] {
    return this.s.publishNacked;
  }
  get returned(): string[] {
    return this.s.returned;
  }
  get hops(): number {
    return this.s.hops;
  }
  get published(): number {
    return this.s.published;
  }
  get inFlight(): number {
    return this.s.inFlight;
  }
  get maxInFlight(): number {
    return this.s.maxInFlight;
  }

  /** current virtual time (ms) */
  get now(): number {
    return this.s.t;
  }

  get done(): boolean {
    return this.s.finished;
  }

  get truncated(): boolean {
    return this.s.truncatedFlag;
  }

  /** ready / unacked per queue */
  depths(): Record<string, QueueDepth> {
    const out: Record<string, QueueDepth> = {};
    for (const [name, q] of this.s.queues)
      out[name] = { ready: q.cfg.stream ? q.log.length : q.readyCount, unacked: q.unacked };
    return out;
  }

  // ---------------------------------------------------------------- driving

  /** process the next scheduled entry; its events, or undefined once the run is over */
  next(): SimEvent[] | undefined {
    if (this.s.finished) return undefined;
    const out: SimEvent[] = [];
    this.s.batch = out;
    try {
      if (!this.advance()) return undefined;
    } finally {
      this.s.batch = undefined;
    }
    return out;
  }

  /** process every entry due at or before `time`; returns their events */
  runUntil(time: number): SimEvent[] {
    const out: SimEvent[] = [];
    this.s.batch = out;
    try {
      while (!this.s.finished && this.s.heap.peekTime() <= time) if (!this.advance()) break;
      if (!this.s.finished && time > this.s.t && time <= this.s.maxTime) this.s.t = time;
    } finally {
      this.s.batch = undefined;
    }
    return out;
  }

  /** run to completion */
  run(): SimulationResult {
    while (this.advance());
    return this.result(true);
  }

  /**
   * The run's result. `final` is a snapshot of the queues now; with `lazyFinal` it is built on
   * first read instead (run() uses that: a finished simulator does not change any more, and
   * big runs that only want stats skip the snapshot).
   */
  result(lazyFinal = false): SimulationResult {
    const ignored: IgnoredArgument[] = [];
    for (const q of this.s.allQueues) for (const i of q.cfg.ignored) ignored.push({ queue: q.cfg.name, ...i });
    const base = {
      ...(ignored.length > 0 ? { ignoredArguments: ignored } : {}),
      events: this.s.events,
      publishNacked: this.s.publishNacked,
      returned: this.s.returned,
      endTime: this.s.t,
      truncated: this.s.truncatedFlag,
      ...(this.s.truncatedFlag ? { stoppedAt: this.s.stoppedAtHorizon ? this.s.maxTime : this.s.t } : {}),
      stats: { hops: this.s.hops, events: this.s.seq, published: this.s.published, maxInFlight: this.s.maxInFlight },
    };
    if (!lazyFinal) return { ...base, final: this.snapshotQueues() };
    let final: Record<string, MessageSnapshot[]> | undefined;
    const take = (): Record<string, MessageSnapshot[]> => (final ??= this.snapshotQueues());
    return Object.defineProperty(base, 'final', {
      get: take,
      enumerable: true,
      configurable: true,
    }) as SimulationResult;
  }

  /** one heap entry; false when the run is over */
  private advance(): boolean {
    if (this.s.finished) return false;
    const nt = this.s.heap.peekTime();
    if (nt === Infinity) return this.finish(false);
    if (this.s.stepsDone && this.s.settleMs !== undefined && nt > this.s.lastActivity + this.s.settleMs) {
      this.s.t = Math.max(this.s.t, this.s.lastActivity + this.s.settleMs);
      return this.finish(false);
    }
    if (nt > this.s.maxTime || this.s.seq >= this.s.maxEvents) {
      // the time bound: the run saw everything up to the horizon
      if (nt > this.s.maxTime) this.s.stoppedAtHorizon = true;
      return this.finish(true);
    }
    const w = this.s.heap.pop() as Work;
    this.s.t = nt;
    switch (w.k) {
      case 'step':
        this.runStep(this.s.nextStep++);
        break;
      case 'outcome':
        outcome(this.s, w as Delivery);
        break;
      case 'retry':
        if (w.d.consumer !== undefined) retryAttempt(this.s, w.d);
        break;
      case 'defer':
        if (w.d.consumer !== undefined) apply(this.s, w.d, w.action);
        break;
      case 'confirm':
        // settled meanwhile by a later delivery's `multiple`: nothing left to ack
        if (w.d.consumer !== undefined) apply(this.s, w.d, ACK);
        break;
      case 'expire': {
        const q = w.q;
        if (nt >= q.timerAt) q.timerAt = Infinity;
        dropExpired(this.s, q);
        ensureTimer(this.s, q);
        break;
      }
      case 'queue-expires':
        if (w.q.consumers.length === 0 && this.s.queues.get(w.q.cfg.name) === w.q) deleteQueue(this.s, w.q);
        break;
      case 'delayed':
        this.s.inFlight--;
        routeAndEnqueue(this.s, w.msg, w.exchange, false, undefined, true);
        break;
      case 'qq-retry':
        retryReady(this.s, w.q, w.e);
        break;
      case 'node-back':
        dispatch(this.s, w.q);
        break;
      case 'overflow':
        if (this.s.queues.get(w.q.cfg.name) === w.q) {
          dropHeadOverflow(this.s, w.q);
          this.s.depthChanged(w.q);
        }
        break;
    }
    return true;
  }

  private finish(truncated: boolean): false {
    if (!truncated && this.s.input.closeConsumersAtEnd) closeConsumers(this.s);
    this.s.finished = true;
    this.s.truncatedFlag = truncated;
    return false;
  }

  private runStep(i: number): void {
    const s = this.s.steps[i];
    if (s === undefined) {
      // the end of a trailing wait
      this.finishSteps();
      return;
    }
    let nextAt = this.s.t;
    const gate = this.s.input.publishGate;
    if (s.kind === 'publish' && gate) {
      // a blocked publisher (rehearse: a resource alarm, the publish ceiling): the same step again when it may go
      const open = gate(this.s.t, s);
      if (open > this.s.t) {
        this.s.nextStep--;
        this.s.heap.push(open, STEP_WORK);
        return;
      }
    }
    if (s.kind === 'publish') {
      const props = s.properties;
      const logical: Logical = {
        id: s.msgId ?? `m${this.s.logicalCount + 1}`,
        index: ++this.s.logicalCount,
        seen: 0,
        counts: undefined,
        runs: 0,
      };
      // the broker delivers expiration as the string on the wire, whatever type a design file gave
      const exp = props?.expiration as string | number | undefined;
      clientPublish(
        this.s,
        logical,
        s.body,
        s.exchange,
        s.routingKey,
        props?.headers ?? NO_HEADERS,
        exp === undefined ? undefined : String(exp),
        s.mandatory ?? false,
        STEP_ORIGIN,
        undefined,
      );
    } else if (gate) {
      // the steps' own schedule: after a wait at the gate, what is due is caught up as fast as the gate lets
      this.s.stepClock += Math.max(0, s.ms);
      nextAt = Math.max(this.s.t, this.s.stepClock);
    } else nextAt = this.s.t + Math.max(0, s.ms);
    // steps run one after another: only one is ever scheduled, so one shared work item does
    if (i + 1 < this.s.steps.length || nextAt > this.s.t) this.s.heap.push(nextAt, STEP_WORK);
    else this.finishSteps();
  }

  private finishSteps(): void {
    if (this.s.stepsDone) return;
    this.s.stepsDone = true;
    this.s.lastActivity = this.s.t;
    if (this.s.startAfter) this.attachConsumers();
  }

  private attachConsumers(): void {
    for (const spec of this.s.input.consumers) {
      const q = this.s.queues.get(spec.queue);
      if (!q) continue;
      const b = spec.behaviour;
      const c: ConsumerState = {
        id: spec.id,
        // basic.qos prefetch 0 means no limit
        prefetch: spec.prefetch === 0 ? Infinity : Math.max(1, spec.prefetch ?? 1),
        inflight: 0,
        holding: 0,
        unsettled: settlesMultiple(b) ? [] : undefined,
        spec,
        behaviour: b,
        failure: b.kind === 'worker' ? (b.failure ?? this.s.defaultFailure) : undefined,
        processingMs: b.kind === 'worker' ? Math.max(0, b.processingMs ?? 0) : 0,
        queue: q,
        ord: this.s.consumers.length,
        perBody: new Map(),
        streamNext: q.cfg.stream ? startOffset(q, spec.streamOffset) : 0,
      };
      this.s.consumers.push(c);
      q.consumers.push(c);
    }
    for (const q of this.s.queues.values()) if (q.consumers.length > 0) dispatch(this.s, q);
  }

  private snapshotQueues(): Record<string, MessageSnapshot[]> {
    const out: Record<string, MessageSnapshot[]> = {};
    for (const [name, q] of this.s.queues) {
      const list: MessageSnapshot[] = [];
      // a stream is read from offset `first` (basic.get is refused on streams): every message it keeps
      if (q.cfg.stream) list.push(...this.streamContents(q));
      for (const e of q.readyEntries()) {
        // drained with basic.get: an expired message is dropped, never returned
        if (e.expiresAt <= this.s.t) continue;
        list.push(this.snapshot(q, e, true));
      }
      if (list.length > 0) out[name] = list;
    }
    return out;
  }

  private snapshot(q: QueueState, e: QEntry, viaGet: boolean): MessageSnapshot {
    const m = e.msg;
    let headers: { readonly [k: string]: AmqpValue } = m.headers;
    if (q.cfg.quorum && (e.acquiredCount > 0 || e.deliveryCount > 0)) headers = deliveredHeaders(this.s, q, e);
    else if (q.cfg.quorum && viaGet && this.s.profile.getAddsZeroDeliveryCount)
      headers = { ...headers, 'x-delivery-count': e.deliveryCount };
    return {
      msgId: m.id,
      body: m.body,
      headers,
      ...(m.xDeath ? { xDeath: m.xDeath } : {}),
      ...(m.expiration !== undefined ? { expiration: m.expiration } : {}),
      exchange: m.exchange,
      routingKey: m.routingKeys[0] ?? '',
      redelivered: e.redelivered,
    };
  }

  /** messages currently ready in a queue, head first (a stream: every message it keeps) */
  queueContents(name: string): MessageSnapshot[] {
    const q = this.s.queues.get(name);
    if (q?.cfg.stream) return this.streamContents(q);
    return q ? q.readyEntries().map((e) => this.snapshot(q, e, false)) : [];
  }

  private streamContents(q: QueueState): MessageSnapshot[] {
    return q.log.map((m, offset) => ({
      msgId: m.id,
      body: m.body,
      headers: streamHeaders(m, offset),
      ...(m.xDeath ? { xDeath: m.xDeath } : {}),
      ...(m.expiration !== undefined ? { expiration: m.expiration } : {}),
      exchange: m.exchange,
      routingKey: m.routingKeys[0] ?? '',
      redelivered: false,
    }));
  }
}
