/**
 * The discrete-event simulator. Virtual time, a (time, seq) min-heap of scheduled work, a
 * seeded PRNG, no timers. `next()` is the pure-ish step: it takes the earliest heap entry,
 * applies it, and returns the events it produced; runners (simulate(), the UI's play/step,
 * the bench) interpret those events.
 */
import type { AmqpValue } from '../model/definitions.js';
import type { ConsumerAction, ConsumerBehaviour, ConsumerSpec, DeathReason, FailureModel } from '../model/consumer.js';
import type { DropReason, PublishOrigin, SimEvent, XDeathEntry } from './events.js';
import type { IgnoredArgument, Logical, MessageSnapshot, Msg, MsgShape, QueueDepth, SimStep, SimulationInput, SimulationResult } from './types.js';
import { EventHeap } from './eventHeap.js';
import { attemptDraw } from './rng.js';
import { profileFor, type SemanticsProfile } from './profiles.js';
import { queueConfig } from './queueConfig.js';
import { parseXDeath } from '../model/xDeath.js';
import { QEntry, QueueState, entryPos, type ConsumerSlot } from './queueState.js';
import { EMPTY_HEADERS, deadLetterMsg, isCycle } from './deadLetter.js';
import { MsgRec, plainPublishShape } from './msgRecord.js';
import { compileExchanges, type ExchangeIndex } from '../routing/exchangeIndex.js';
import { Router, type RouteOptions, type RouteResult } from '../routing/route.js';
import { backoffMs, chooseAction, planRepublish, processingSucceeds } from '../behaviour/evaluate.js';

const DEFAULT_MAX_TIME = 7 * 24 * 3600 * 1000;
const DEFAULT_MAX_EVENTS = 1_000_000;

/** utf-8 length without TextEncoder (not in lib ES2022) */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

interface ConsumerState extends ConsumerSlot {
  readonly spec: ConsumerSpec;
  readonly behaviour: ConsumerBehaviour;
  readonly failure: FailureModel | undefined;
  readonly processingMs: number;
  readonly queue: QueueState;
  /** this consumer's slot in Logical.seen / Logical.counts */
  readonly ord: number;
  /** script: deliveries per body */
  readonly perBody: Map<string, number>;
}

/** a delivery in progress is its queue entry (QEntry implements DeliveryView) */
type Delivery = QEntry & { consumer: ConsumerState };

type Work =
  | { readonly k: 'step' }
  | QEntry
  | { readonly k: 'retry'; readonly d: Delivery }
  /** a republish's confirm arrives: the consumer acks the original */
  | { readonly k: 'confirm'; readonly d: Delivery }
  | { readonly k: 'expire'; readonly q: QueueState }
  | { readonly k: 'delayed'; readonly exchange: string; readonly msg: Msg }
  | { readonly k: 'queue-expires'; readonly q: QueueState }
  /** a 4.3 quorum queue's delayed retry ends: the entry is ready again */
  | { readonly k: 'qq-retry'; readonly q: QueueState; readonly e: QEntry };

const STEP_WORK: Work = { k: 'step' };
const OK = { ok: true } as const;
const NOT_OK = { ok: false } as const;
const NO_OPTS = {} as const;
const STEP_ORIGIN: PublishOrigin = { kind: 'step' };
const NO_HEADERS = EMPTY_HEADERS;
/** what a pooled (released) queue entry points at */
const RELEASED: Msg = Object.freeze({
  id: '',
  logical: { id: '', index: 0, seen: 0, counts: undefined, runs: 0 },
  body: '',
  bytes: 0,
  exchange: '',
  routingKeys: [],
  headers: NO_HEADERS,
  xDeath: undefined,
  xDeathFromClient: false,
  expiration: undefined,
  ccInKeys: false,
  deliveryCount: 0,
});

export class Simulator {
  readonly profile: SemanticsProfile;
  private readonly heap = new EventHeap<Work>();
  private readonly index: ExchangeIndex;
  private readonly router: Router;
  private readonly queues = new Map<string, QueueState>();
  /** every declared queue, deleted ones included (for ignoredArguments) */
  private readonly allQueues: QueueState[];
  private readonly consumers: ConsumerState[] = [];
  private readonly steps: readonly SimStep[];
  private readonly wantEvents: boolean;
  private readonly retain: boolean;
  private readonly onEvent: ((e: SimEvent) => void) | undefined;
  private readonly emitDepth: boolean;
  private readonly maxTime: number;
  private readonly maxEvents: number;
  private readonly settleMs: number | undefined;
  private readonly defaultFailure: FailureModel | undefined;
  private readonly startAfter: boolean;

  private t = 0;
  private nextStep = 0;
  private readonly pool: QEntry[] = [];
  private readonly singleKeys = new Map<string, readonly string[]>();
  private seq = 0;
  private batch: SimEvent[] | undefined;
  private stepsDone = false;
  private lastActivity = 0;
  private finished = false;
  private truncatedFlag = false;
  private logicalCount = 0;
  // per (message, attempt), not a shared sequence: the live trace's workers draw the same verdicts in their own order
  private readonly random = (): number => attemptDraw(this.input.seed ?? 1, this.failureCtx.messageIndex, this.failureCtx.attempt);
  private readonly failureCtx: { attempt: number; body: string; messageIndex: number; random: () => number } = {
    attempt: 0,
    body: '',
    messageIndex: 0,
    random: this.random,
  };
  /** one origin object per consumer of this run (bounded by the design, dropped with the run) */
  private readonly consumerOrigins = new Map<string, PublishOrigin>();
  private consumerOrigin(id: string): PublishOrigin {
    let o = this.consumerOrigins.get(id);
    if (!o) {
      o = { kind: 'consumer', id };
      this.consumerOrigins.set(id, o);
    }
    return o;
  }
  private readonly routeOpts: RouteOptions;
  private readonly routeOptsDelayDone: RouteOptions;

  readonly events: SimEvent[] = [];
  readonly publishNacked: string[] = [];
  readonly returned: string[] = [];
  hops = 0;
  published = 0;
  inFlight = 0;
  maxInFlight = 0;

  constructor(readonly input: SimulationInput) {
    this.profile = profileFor(input.profile, input.profileOptions);
    this.index = compileExchanges(input.topology, input.plugins);
    this.router = new Router(this.index);
    this.routeOpts = { strictHeaders: this.profile.strictHeaderMatch, delayDone: false };
    this.routeOptsDelayDone = { strictHeaders: this.profile.strictHeaderMatch, delayDone: true };
    for (const q of input.topology.queues) this.queues.set(q.name, new QueueState(queueConfig(q, input.topology.policies, this.profile)));
    this.allQueues = [...this.queues.values()];
    this.steps = input.steps;
    this.retain = input.retainEvents ?? true;
    this.onEvent = input.onEvent;
    this.wantEvents = this.retain || this.onEvent !== undefined;
    this.emitDepth = input.emitDepth ?? false;
    this.maxTime = input.maxTimeMs ?? DEFAULT_MAX_TIME;
    this.maxEvents = input.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.settleMs = input.settleMs;
    this.defaultFailure = input.failure;
    this.startAfter = input.startConsumers === 'after';
    if (!this.startAfter) this.attachConsumers();
    // x-expires: a queue nobody consumes from is deleted once the period has passed
    // (publishing does not count as use; rabbit_amqqueue_process ensure_expiry_timer)
    for (const q of this.queues.values())
      if (q.cfg.expires !== undefined && q.consumers.length === 0) this.heap.push(q.cfg.expires, { k: 'queue-expires', q });
    if (this.steps.length > 0) this.heap.push(0, STEP_WORK);
    else this.finishSteps();
  }

  /** current virtual time (ms) */
  get now(): number {
    return this.t;
  }

  get done(): boolean {
    return this.finished;
  }

  get truncated(): boolean {
    return this.truncatedFlag;
  }

  /** ready / unacked per queue */
  depths(): Record<string, QueueDepth> {
    const out: Record<string, QueueDepth> = {};
    for (const [name, q] of this.queues) out[name] = { ready: q.readyCount, unacked: q.unacked };
    return out;
  }

  // ---------------------------------------------------------------- driving

  /** process the next scheduled entry; its events, or undefined once the run is over */
  next(): SimEvent[] | undefined {
    if (this.finished) return undefined;
    const out: SimEvent[] = [];
    this.batch = out;
    try {
      if (!this.advance()) return undefined;
    } finally {
      this.batch = undefined;
    }
    return out;
  }

  /** process every entry due at or before `time`; returns their events */
  runUntil(time: number): SimEvent[] {
    const out: SimEvent[] = [];
    this.batch = out;
    try {
      while (!this.finished && this.heap.peekTime() <= time) if (!this.advance()) break;
      if (!this.finished && time > this.t && time <= this.maxTime) this.t = time;
    } finally {
      this.batch = undefined;
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
    for (const q of this.allQueues) for (const i of q.cfg.ignored) ignored.push({ queue: q.cfg.name, ...i });
    const base = {
      ...(ignored.length > 0 ? { ignoredArguments: ignored } : {}),
      events: this.events,
      publishNacked: this.publishNacked,
      returned: this.returned,
      endTime: this.t,
      truncated: this.truncatedFlag,
      stats: { hops: this.hops, events: this.seq, published: this.published, maxInFlight: this.maxInFlight },
    };
    if (!lazyFinal) return { ...base, final: this.snapshotQueues() };
    let final: Record<string, MessageSnapshot[]> | undefined;
    const take = (): Record<string, MessageSnapshot[]> => (final ??= this.snapshotQueues());
    return Object.defineProperty(base, 'final', { get: take, enumerable: true, configurable: true }) as SimulationResult;
  }

  /** one heap entry; false when the run is over */
  private advance(): boolean {
    if (this.finished) return false;
    const nt = this.heap.peekTime();
    if (nt === Infinity) return this.finish(false);
    if (this.stepsDone && this.settleMs !== undefined && nt > this.lastActivity + this.settleMs) {
      this.t = Math.max(this.t, this.lastActivity + this.settleMs);
      return this.finish(false);
    }
    if (nt > this.maxTime || this.seq >= this.maxEvents) return this.finish(true);
    const w = this.heap.pop() as Work;
    this.t = nt;
    switch (w.k) {
      case 'step':
        this.runStep(this.nextStep++);
        break;
      case 'outcome':
        this.outcome(w as Delivery);
        break;
      case 'retry':
        this.retryAttempt(w.d);
        break;
      case 'confirm':
        this.apply(w.d, { kind: 'ack' });
        break;
      case 'expire': {
        const q = w.q;
        if (nt >= q.timerAt) q.timerAt = Infinity;
        this.dropExpired(q);
        this.ensureTimer(q);
        break;
      }
      case 'queue-expires':
        if (w.q.consumers.length === 0 && this.queues.get(w.q.cfg.name) === w.q) this.deleteQueue(w.q);
        break;
      case 'delayed':
        this.inFlight--;
        this.routeAndEnqueue(w.msg, w.exchange, false, undefined, true);
        break;
      case 'qq-retry':
        this.retryReady(w.q, w.e);
        break;
    }
    return true;
  }

  private finish(truncated: boolean): false {
    this.finished = true;
    this.truncatedFlag = truncated;
    return false;
  }

  private emit(e: SimEvent): void {
    if (this.retain) this.events.push(e);
    if (this.batch) this.batch.push(e);
    if (this.onEvent) this.onEvent(e);
  }

  /** a queue entry left the broker (acked, dead-lettered, dropped): recycle it */
  private release(e: QEntry): void {
    this.inFlight--;
    if (this.pool.length < 4096) {
      // drop references so a pooled entry keeps no message alive
      e.msg = RELEASED;
      e.headers = NO_HEADERS;
      e.consumer = undefined;
      e.retry = undefined;
      this.pool.push(e);
    }
  }

  private touchInFlight(delta: number): void {
    this.inFlight += delta;
    if (this.inFlight > this.maxInFlight) this.maxInFlight = this.inFlight;
  }

  // ---------------------------------------------------------------- steps and consumers

  private runStep(i: number): void {
    const s = this.steps[i];
    if (s === undefined) {
      // the end of a trailing wait
      this.finishSteps();
      return;
    }
    let nextAt = this.t;
    if (s.kind === 'publish') {
      const props = s.properties;
      const logical: Logical = { id: s.msgId ?? `m${this.logicalCount + 1}`, index: ++this.logicalCount, seen: 0, counts: undefined, runs: 0 };
      // the broker delivers expiration as the string on the wire, whatever type a design file gave
      const exp = props?.expiration as string | number | undefined;
      this.clientPublish(logical, s.body, s.exchange, s.routingKey, props?.headers ?? NO_HEADERS, exp === undefined ? undefined : String(exp), s.mandatory ?? false, STEP_ORIGIN, undefined);
    } else nextAt = this.t + Math.max(0, s.ms);
    // steps run one after another: only one is ever scheduled, so one shared work item does
    if (i + 1 < this.steps.length || nextAt > this.t) this.heap.push(nextAt, STEP_WORK);
    else this.finishSteps();
  }

  private finishSteps(): void {
    if (this.stepsDone) return;
    this.stepsDone = true;
    this.lastActivity = this.t;
    if (this.startAfter) this.attachConsumers();
  }

  private attachConsumers(): void {
    for (const spec of this.input.consumers) {
      const q = this.queues.get(spec.queue);
      if (!q) continue;
      const b = spec.behaviour;
      const c: ConsumerState = {
        id: spec.id,
        // basic.qos prefetch 0 means no limit
        prefetch: spec.prefetch === 0 ? Infinity : Math.max(1, spec.prefetch ?? 1),
        inflight: 0,
        spec,
        behaviour: b,
        failure: b.kind === 'worker' ? (b.failure ?? this.defaultFailure) : undefined,
        processingMs: b.kind === 'worker' ? Math.max(0, b.processingMs ?? 0) : 0,
        queue: q,
        ord: this.consumers.length,
        perBody: new Map(),
      };
      this.consumers.push(c);
      q.consumers.push(c);
    }
    for (const q of this.queues.values()) if (q.consumers.length > 0) this.dispatch(q);
  }

  // ---------------------------------------------------------------- publishing and routing

  /** a publish by a client (a step or a consumer's republish): confirms, returns, activity */
  private clientPublish(
    logical: Logical,
    body: string,
    exchange: string,
    routingKey: string,
    rawHeaders: { readonly [k: string]: AmqpValue },
    expiration: string | undefined,
    mandatory: boolean,
    origin: PublishOrigin,
    keptXDeath: readonly XDeathEntry[] | undefined,
  ): void {
    const msgId = logical.id;
    this.lastActivity = this.t;
    this.published++;
    // routing keys: [rk | CC | BCC]; BCC is removed from the message (rabbit_basic.erl L273-282, L354-365)
    let headers = rawHeaders;
    const cc = headers['CC'];
    const bcc = headers['BCC'];
    let keys: readonly string[];
    if (cc === undefined && bcc === undefined) {
      // one key: share one immutable array per routing key
      let k1 = this.singleKeys.get(routingKey);
      if (!k1) {
        k1 = [routingKey];
        if (this.singleKeys.size < 10000) this.singleKeys.set(routingKey, k1);
      }
      keys = k1;
    } else {
      const ks: string[] = [routingKey];
      if (Array.isArray(cc)) for (const k of cc) if (typeof k === 'string') ks.push(k);
      if (Array.isArray(bcc)) for (const k of bcc) if (typeof k === 'string') ks.push(k);
      keys = ks;
    }
    if (bcc !== undefined) {
      const h = { ...headers };
      delete h['BCC'];
      headers = h;
    }
    // an x-death the client sends is part of the message (3.10 counts on from it)
    let xDeath = keptXDeath;
    let fromClient = keptXDeath !== undefined;
    const xd = headers['x-death'];
    if (xd !== undefined) {
      const h = { ...headers };
      delete h['x-death'];
      headers = h;
      const parsed = parseXDeath(xd);
      if (parsed) {
        xDeath = parsed;
        fromClient = true;
      }
    }
    const shape: MsgShape =
      headers === NO_HEADERS && xDeath === undefined
        ? plainPublishShape(exchange, keys, expiration, NO_HEADERS)
        : { exchange, routingKeys: keys, headers, xDeath, xDeathFromClient: fromClient, expiration, ccInKeys: true, deliveryCount: 0 };
    const msg: Msg = new MsgRec(logical, body, utf8Length(body), shape);
    if (this.wantEvents)
      this.emit({ kind: 'published', t: this.t, seq: this.seq++, msgId, body, exchange, routingKey, origin, headers: xDeath ? { ...headers, 'x-death': xDeath as unknown as AmqpValue } : headers, ...(expiration !== undefined ? { expiration } : {}), mandatory });
    else this.seq++;
    if (exchange !== '' && this.index.exchanges.get(exchange)?.internal) {
      // basic.publish to an internal exchange is refused (ACCESS_REFUSED closes the channel)
      this.hops++;
      this.drop(msg, 'no-route', undefined, exchange);
      return;
    }
    this.routeAndEnqueue(msg, exchange, mandatory, body, false);
  }

  /**
   * Route a message from `exchange` and enqueue it. `clientBody` is set for client publishes
   * (returns and nacks are reported); `delayDone` when a delayed exchange releases it.
   * Returns the queues that got it.
   */
  private routeAndEnqueue(msg: Msg, exchange: string, mandatory: boolean, clientBody: string | undefined, delayDone: boolean): void {
    const r = this.router.route(exchange, msg, delayDone ? this.routeOptsDelayDone : this.routeOpts);
    if (r.missingExchange) {
      this.hops++;
      this.drop(msg, 'no-route', undefined, exchange);
      return;
    }
    this.hops += r.hops.length;
    this.emitRouted(msg, r);
    for (const d of r.delayed) {
      if (this.wantEvents) this.emit({ kind: 'delayed', t: this.t, seq: this.seq++, msgId: msg.id, body: msg.body, exchange: d.exchange, delayMs: d.delayMs, until: this.t + d.delayMs });
      else this.seq++;
      this.touchInFlight(1);
      this.heap.push(this.t + d.delayMs, { k: 'delayed', exchange: d.exchange, msg });
    }
    const qs = r.queues;
    if (qs.length === 0) {
      if (r.delayed.length === 0) {
        if (this.wantEvents) this.emit({ kind: 'unroutable', t: this.t, seq: this.seq++, msgId: msg.id, body: msg.body, exchange, routingKeys: msg.routingKeys });
        else this.seq++;
      }
      // mandatory: basic.return when no queue was targeted (a delayed exchange targets none at publish)
      if (mandatory && clientBody !== undefined) {
        this.returned.push(clientBody);
        if (this.wantEvents) this.emit({ kind: 'returned', t: this.t, seq: this.seq++, msgId: msg.id, body: msg.body, exchange, routingKey: msg.routingKeys[0] ?? '', replyCode: 312 });
        else this.seq++;
      }
      if (r.delayed.length === 0) this.drop(msg, 'no-route', undefined, exchange);
      return;
    }
    let nacked: string | undefined;
    for (let i = 0; i < qs.length; i++) {
      const q = this.queues.get(qs[i] as string) as QueueState;
      if (!this.enqueue(q, msg) && nacked === undefined) nacked = q.cfg.name;
    }
    if (nacked !== undefined && clientBody !== undefined) {
      this.publishNacked.push(clientBody);
      if (this.wantEvents) this.emit({ kind: 'publish-nacked', t: this.t, seq: this.seq++, msgId: msg.id, body: msg.body, queue: nacked, reason: 'overflow' });
      else this.seq++;
    }
  }

  private emitRouted(msg: Msg, r: RouteResult): void {
    if (!this.wantEvents) {
      this.seq += r.hops.length;
      return;
    }
    for (const h of r.hops) {
      this.emit({
        kind: 'routed',
        t: this.t,
        seq: this.seq++,
        msgId: msg.id,
        body: msg.body,
        exchange: h.exchange,
        routingKeys: msg.routingKeys,
        queues: h.queues,
        exchanges: h.exchanges,
        ...(h.alternateOf !== undefined ? { alternateOf: h.alternateOf } : {}),
      });
    }
  }

  private drop(msg: Msg, why: DropReason, queue: string | undefined, exchange: string | undefined): void {
    if (this.wantEvents)
      this.emit({ kind: 'dropped', t: this.t, seq: this.seq++, msgId: msg.id, body: msg.body, why, ...(queue !== undefined ? { queue } : {}), ...(exchange !== undefined ? { exchange } : {}) });
    else this.seq++;
  }

  // ---------------------------------------------------------------- queues

  /** false when the queue refused it (x-overflow reject-publish / reject-publish-dlx) */
  private enqueue(q: QueueState, msg: Msg): boolean {
    this.hops++;
    const cfg = q.cfg;
    // reject-publish(-dlx): would this message take the queue over its limit? (will_overflow, only ready messages count)
    if ((cfg.maxLength !== undefined || cfg.maxBytes !== undefined) && cfg.overflow !== 'drop-head') {
      const over =
        (cfg.maxLength !== undefined && q.readyCount + 1 > cfg.maxLength) ||
        (cfg.maxBytes !== undefined && q.readyBytes + msg.bytes > cfg.maxBytes);
      if (over) {
        if (cfg.overflow === 'reject-publish-dlx') this.deadLetter(q, msg, 'maxlen', msg.deliveryCount);
        else this.drop(msg, 'overflow', cfg.name, undefined);
        return false;
      }
    }
    let ttl = cfg.ttl;
    if (msg.expiration !== undefined) {
      const e = Number(msg.expiration);
      if (Number.isFinite(e) && (ttl === undefined || e < ttl)) ttl = e;
    }
    const expiresAt = ttl === undefined ? Infinity : this.t + ttl;
    const pooled = this.pool.pop();
    const entry = pooled ? pooled.reset(msg, expiresAt, q.nextPos++) : new QEntry(msg, expiresAt, q.nextPos++);
    // 4.3: a dead letter's failed deliveries go on counting here; a quorum queue says redelivered at once
    const carried = msg.deliveryCount;
    if (carried > 0) {
      entry.deliveryCount = carried;
      if (cfg.quorum) entry.redelivered = true;
    }
    this.touchInFlight(1);
    if (this.wantEvents)
      this.emit({ kind: 'enqueued', t: this.t, seq: this.seq++, msgId: msg.id, body: msg.body, queue: cfg.name, depth: q.readyCount + 1, ...(ttl !== undefined ? { expiresAt: entry.expiresAt } : {}) });
    else this.seq++;
    // a consumer with spare capacity takes it at once (the queue is then empty): even with TTL 0
    if (q.readyCount === 0 && q.consumers.length > 0) {
      const c = q.pickConsumer();
      if (c) {
        this.deliver(q, entry, c as ConsumerState);
        return true;
      }
    }
    // 4.3: a classic queue that stores a dead letter with failed deliveries delivers it redelivered later
    if (carried > 0) entry.redelivered = true;
    q.ready.push(entry);
    q.readyBytes += msg.bytes;
    this.dropHeadOverflow(q);
    this.dropExpired(q);
    this.ensureTimer(q);
    this.depthChanged(q);
    return true;
  }

  /** x-overflow drop-head: dead-letter (or drop) the oldest ready messages while over the limit */
  private dropHeadOverflow(q: QueueState): void {
    const cfg = q.cfg;
    if (cfg.overflow !== 'drop-head' || (cfg.maxLength === undefined && cfg.maxBytes === undefined)) return;
    while (
      q.readyCount > 0 &&
      ((cfg.maxLength !== undefined && q.readyCount > cfg.maxLength) || (cfg.maxBytes !== undefined && q.readyBytes > cfg.maxBytes))
    ) {
      const e = q.takeHead() as QEntry;
      const m = e.msg;
      const n = e.deliveryCount;
      this.release(e);
      this.deadLetter(q, m, 'maxlen', n);
    }
  }

  /** remove expired messages from the head only */
  private dropExpired(q: QueueState): void {
    for (;;) {
      const h = q.head();
      if (!h || h.expiresAt > this.t) return;
      q.takeHead();
      const m = h.msg;
      const n = h.deliveryCount;
      this.release(h);
      if (this.wantEvents) this.emit({ kind: 'expired', t: this.t, seq: this.seq++, msgId: m.id, body: m.body, queue: q.cfg.name });
      else this.seq++;
      this.deadLetter(q, m, 'expired', n);
    }
  }

  private ensureTimer(q: QueueState): void {
    const h = q.head();
    if (!h || h.expiresAt === Infinity) return;
    if (h.expiresAt < q.timerAt) {
      q.timerAt = h.expiresAt;
      this.heap.push(h.expiresAt, { k: 'expire', q });
    }
  }

  private depthChanged(q: QueueState): void {
    if (this.emitDepth && this.wantEvents) this.emit({ kind: 'depth', t: this.t, seq: this.seq++, msgId: '', body: '', queue: q.cfg.name, ready: q.readyCount, unacked: q.unacked });
  }

  /** deliver ready messages while a consumer has spare prefetch */
  private dispatch(q: QueueState): void {
    while (q.readyCount > 0) {
      this.dropExpired(q);
      if (q.readyCount === 0) break;
      const c = q.pickConsumer();
      if (!c) break;
      const e = q.takeHead() as QEntry;
      this.deliver(q, e, c as ConsumerState);
    }
    this.ensureTimer(q);
  }

  private deliveredHeaders(q: QueueState, e: QEntry): { readonly [k: string]: AmqpValue } {
    if (!q.cfg.quorum || (e.acquiredCount === 0 && e.deliveryCount === 0)) return e.msg.headers;
    // 4.3: x-delivery-count counts failed deliveries, x-acquired-count every return (docs quorum-queues#poison-message-handling);
    // a dead letter not yet returned here shows the count it carries as both (recorded: dead-letter-delivery-count-into-quorum)
    if (this.profile.onlyRejectsCountTowardLimit) {
      const acquired = e.acquiredCount > 0 ? e.acquiredCount : e.deliveryCount;
      return e.deliveryCount > 0
        ? { ...e.msg.headers, 'x-delivery-count': e.deliveryCount, 'x-acquired-count': acquired }
        : { ...e.msg.headers, 'x-acquired-count': acquired };
    }
    // quorum queues add x-delivery-count on redelivery (rabbit_fifo_client.erl L791-801)
    return { ...e.msg.headers, 'x-delivery-count': e.deliveryCount };
  }

  private deliver(q: QueueState, e: QEntry, c: ConsumerState): void {
    c.inflight++;
    q.unacked++;
    const msg = e.msg;
    const seen = countDelivery(msg.logical, c.ord);
    const headers = q.cfg.quorum && (e.acquiredCount > 0 || e.deliveryCount > 0) ? this.deliveredHeaders(q, e) : msg.headers;
    const routingKey = msg.routingKeys[0] ?? '';
    this.lastActivity = this.t;
    if (this.wantEvents)
      this.emit({
        kind: 'delivered',
        t: this.t,
        seq: this.seq++,
        msgId: msg.id,
        body: msg.body,
        queue: q.cfg.name,
        consumer: c.id,
        redelivered: e.redelivered,
        headers,
        ...(msg.xDeath ? { xDeath: msg.xDeath } : {}),
        ...(msg.expiration !== undefined ? { expiration: msg.expiration } : {}),
        routingKey,
        exchange: msg.exchange,
      });
    else this.seq++;
    this.depthChanged(q);
    const d = e as Delivery;
    d.consumer = c;
    d.headers = headers;
    d.attempt = seen;
    d.inProcess = 0;
    d.retry = undefined;
    this.heap.push(this.t + c.processingMs, d);
  }

  // ---------------------------------------------------------------- consumer outcomes

  private verdict(d: Delivery): boolean {
    const c = d.consumer;
    const L = d.msg.logical;
    // per logical message, across every worker consumer (a chain of tiers is one message's attempts)
    const runs = ++L.runs;
    // one reused context object: no allocation per processing run
    const ctx = this.failureCtx;
    ctx.attempt = runs;
    ctx.body = d.msg.body;
    ctx.messageIndex = L.index;
    const ok = processingSucceeds(c.failure, ctx);
    if (this.wantEvents)
      this.emit({ kind: 'processed', t: this.t, seq: this.seq++, msgId: L.id, body: d.msg.body, queue: c.queue.cfg.name, consumer: c.id, attempt: runs, ok });
    else this.seq++;
    return ok;
  }

  private outcome(d: Delivery): void {
    const c = d.consumer;
    const b = c.behaviour;
    let action: ConsumerAction;
    if (b.kind === 'script') {
      const n = (c.perBody.get(d.msg.body) ?? 0) + 1;
      c.perBody.set(d.msg.body, n);
      action = chooseAction(b, d, { scriptIndex: n });
    } else if (b.kind === 'worker') {
      action = chooseAction(b, d, this.verdict(d) ? OK : NOT_OK);
    } else action = chooseAction(b, d, NO_OPTS);
    this.apply(d, action);
  }

  private retryAttempt(d: Delivery): void {
    const r = d.retry as Extract<ConsumerAction, { kind: 'retryInProcess' }>;
    d.inProcess++;
    const ok = this.verdict(d);
    const b = d.consumer.behaviour;
    if (ok) {
      this.apply(d, b.kind === 'worker' ? (b.onSuccess ?? { kind: 'ack' }) : { kind: 'ack' });
      return;
    }
    if (d.inProcess >= r.maxAttempts) {
      this.apply(d, r.recover);
      return;
    }
    this.heap.push(this.t + backoffMs(r.backoff, d.inProcess), { k: 'retry', d });
  }

  private settle(d: Delivery): void {
    d.consumer.inflight--;
    d.consumer.queue.unacked--;
  }

  private apply(d: Delivery, action: ConsumerAction): void {
    const c = d.consumer;
    const q = c.queue;
    const e = d;
    const msg = e.msg;
    switch (action.kind) {
      case 'ack':
        this.settle(d);
        this.release(d);
        if (this.wantEvents) this.emit({ kind: 'acked', t: this.t, seq: this.seq++, msgId: msg.id, body: msg.body, queue: q.cfg.name, consumer: c.id });
        else this.seq++;
        break;
      case 'reject': {
        this.settle(d);
        // a basic.reject is a failed delivery too
        const n = d.deliveryCount + 1;
        this.release(d);
        if (this.wantEvents) this.emit({ kind: 'rejected', t: this.t, seq: this.seq++, msgId: msg.id, body: msg.body, queue: q.cfg.name, consumer: c.id });
        else this.seq++;
        this.deadLetter(q, msg, 'rejected', n);
        break;
      }
      case 'requeue':
        this.settle(d);
        this.requeue(q, e, c.id, action.via === 'reject');
        break;
      case 'republish': {
        const plan = planRepublish(action, d);
        this.clientPublish(msg.logical, msg.body, plan.exchange, plan.routingKey, plan.headers, plan.expiration, false, this.consumerOrigin(c.id), plan.keepXDeath ? msg.xDeath : undefined);
        // the ack waits for the confirm, which comes after what the copy's arrival set going at
        // this instant (a persistent copy is confirmed once written): the original is held meanwhile
        this.heap.push(this.t, { k: 'confirm', d });
        return;
      }
      case 'retryInProcess': {
        // the message stays unacked while the listener sleeps and re-runs
        d.retry = action;
        d.inProcess = 1;
        if (action.maxAttempts <= 1) {
          this.apply(d, action.recover);
          return;
        }
        this.heap.push(this.t + backoffMs(action.backoff, 1), { k: 'retry', d });
        return;
      }
    }
    this.dispatch(q);
  }

  /** basic.nack / basic.reject with requeue=true (`viaReject`) */
  private requeue(q: QueueState, e: QEntry, consumer: string, viaReject: boolean): void {
    e.redelivered = true;
    const msg = e.msg;
    if (!q.cfg.quorum) {
      // classic queues count nothing visible, but a dead letter carries the rejects (4.3)
      if (viaReject) e.deliveryCount++;
      this.emitRequeued(q, msg, consumer, undefined);
      this.toReady(q, e);
      return;
    }
    // 4.3: only a failed delivery (basic.reject) increments delivery-count; every return increments acquired-count
    const failed = viaReject || !this.profile.onlyRejectsCountTowardLimit;
    e.acquiredCount++;
    if (failed) e.deliveryCount++;
    const limit = q.cfg.deliveryLimit;
    // delivery_count > limit dead-letters (rabbit_fifo.erl L1756-1781)
    if (failed && limit !== undefined && e.deliveryCount > limit) {
      this.emitRequeued(q, msg, consumer, undefined);
      const n = e.deliveryCount;
      this.release(e);
      this.deadLetter(q, msg, 'delivery_limit', n);
      return;
    }
    // 4.3 delayed retry: held for min(min x delivery-count, max) before it is ready again (docs
    // quorum-queues#delayed-retry). A nack leaves delivery-count as it was, so the docs say it is
    // not "delayed longer than the minimum": at least min x 1.
    const dr = q.cfg.delayedRetry;
    if (dr !== undefined && (dr.type === 'all' || (dr.type === 'failed') === failed)) {
      const delay = Math.min(dr.minMs * Math.max(1, e.deliveryCount), dr.maxMs ?? Infinity);
      this.emitRequeued(q, msg, consumer, delay);
      this.heap.push(this.t + delay, { k: 'qq-retry', q, e });
      return;
    }
    this.emitRequeued(q, msg, consumer, undefined);
    this.toReady(q, e);
  }

  private emitRequeued(q: QueueState, msg: Msg, consumer: string, delayMs: number | undefined): void {
    if (!this.wantEvents) {
      this.seq++;
      return;
    }
    this.emit({
      kind: 'requeued',
      t: this.t,
      seq: this.seq++,
      msgId: msg.id,
      body: msg.body,
      queue: q.cfg.name,
      consumer,
      ...(delayMs !== undefined ? { delayMs, until: this.t + delayMs } : {}),
    });
  }

  /** the end of a delayed retry: back among the returns, then dispatch */
  private retryReady(q: QueueState, e: QEntry): void {
    if (this.queues.get(q.cfg.name) !== q) {
      // the queue was deleted while it was held
      const m = e.msg;
      this.release(e);
      this.drop(m, 'queue-deleted', q.cfg.name, undefined);
      return;
    }
    this.toReady(q, e);
    this.dispatch(q);
  }

  /** a returned entry becomes ready: quorum returns queue (or the back), classic original position */
  private toReady(q: QueueState, e: QEntry): void {
    if (q.cfg.quorum) {
      const limit = q.cfg.deliveryLimit;
      if (limit !== undefined) q.returns.push(e);
      else {
        // 3.10 quorum queue without a limit: a return is a re-enqueue at the back (rabbit_fifo.erl L976-1004)
        e.pos = q.nextPos++;
        q.ready.push(e);
      }
    } else q.ready.insertSorted(e, entryPos); // classic: back to its original position
    q.readyBytes += e.msg.bytes;
    this.dropHeadOverflow(q);
    this.dropExpired(q);
    this.ensureTimer(q);
  }

  private deleteQueue(q: QueueState): void {
    // deleting a queue discards its messages: no dead-lettering (docs dlx#overview)
    for (let e = q.takeHead(); e; e = q.takeHead()) {
      const m = e.msg;
      this.release(e);
      this.drop(m, 'queue-deleted', q.cfg.name, undefined);
    }
    this.queues.delete(q.cfg.name);
    this.router.deleteQueue(q.cfg.name);
  }

  // ---------------------------------------------------------------- dead-lettering

  /** `deliveryCount`: the failed deliveries the message had here (the dead letter carries them on 4.3) */
  private deadLetter(q: QueueState, msg: Msg, reason: DeathReason, deliveryCount: number): void {
    const cfg = q.cfg;
    if (cfg.dlx === undefined) {
      this.drop(msg, 'no-dlx', cfg.name, undefined);
      return;
    }
    if (cfg.dlx !== '' && !this.index.exchanges.has(cfg.dlx)) {
      if (cfg.atLeastOnce) q.retained++; // kept and retried until the exchange exists (rabbit_fifo_dlx_worker.erl L296-345)
      else this.drop(msg, 'missing-dlx', cfg.name, cfg.dlx);
      return;
    }
    const dl = deadLetterMsg(msg, cfg.name, reason, cfg.dlx, cfg.dlrk, this.profile, this.t, this.profile.deadLetterCarriesDeliveryCount ? deliveryCount : 0);
    if (this.wantEvents)
      this.emit({ kind: 'dead-lettered', t: this.t, seq: this.seq++, msgId: msg.id, body: msg.body, queue: cfg.name, reason, exchange: cfg.dlx, routingKeys: dl.routingKeys });
    else this.seq++;
    const r = this.router.route(cfg.dlx, dl, this.routeOpts);
    this.hops += r.hops.length;
    this.emitRouted(dl, r);
    for (const d of r.delayed) {
      if (this.wantEvents) this.emit({ kind: 'delayed', t: this.t, seq: this.seq++, msgId: dl.id, body: dl.body, exchange: d.exchange, delayMs: d.delayMs, until: this.t + d.delayMs });
      else this.seq++;
      this.touchInFlight(1);
      const held = this.profile.deadLetterDelayNegated ? withDelayNegated(dl, d.delayMs) : dl;
      this.heap.push(this.t + d.delayMs, { k: 'delayed', exchange: d.exchange, msg: held });
    }
    const qs = r.queues;
    if (qs.length === 0) {
      if (r.delayed.length > 0) return;
      if (cfg.atLeastOnce) q.retained++;
      else this.drop(dl, 'no-route', cfg.name, cfg.dlx);
      return;
    }
    const deaths = dl.xDeath as readonly XDeathEntry[];
    let delivered = 0;
    for (let i = 0; i < qs.length; i++) {
      const name = qs[i] as string;
      // a fully automatic cycle is dropped for that target only (rabbit_dead_letter.erl L197-246)
      if (isCycle(reason, name, deaths)) {
        if (!cfg.atLeastOnce) this.drop(dl, 'cycle', name, cfg.dlx);
        continue;
      }
      delivered++;
      this.enqueue(this.queues.get(name) as QueueState, dl);
    }
    // at-least-once keeps a message whose only targets are cycles (rabbit_fifo_dlx_integration_SUITE `cycle`)
    if (delivered === 0 && cfg.atLeastOnce) q.retained++;
  }

  // ---------------------------------------------------------------- snapshots

  private snapshotQueues(): Record<string, MessageSnapshot[]> {
    const out: Record<string, MessageSnapshot[]> = {};
    for (const [name, q] of this.queues) {
      const list: MessageSnapshot[] = [];
      for (const e of q.readyEntries()) {
        // drained with basic.get: an expired message is dropped, never returned
        if (e.expiresAt <= this.t) continue;
        list.push(this.snapshot(q, e, true));
      }
      if (list.length > 0) out[name] = list;
    }
    return out;
  }

  private snapshot(q: QueueState, e: QEntry, viaGet: boolean): MessageSnapshot {
    const m = e.msg;
    let headers: { readonly [k: string]: AmqpValue } = m.headers;
    if (q.cfg.quorum && (e.acquiredCount > 0 || e.deliveryCount > 0)) headers = this.deliveredHeaders(q, e);
    else if (q.cfg.quorum && viaGet && this.profile.getAddsZeroDeliveryCount) headers = { ...headers, 'x-delivery-count': e.deliveryCount };
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

  /** messages currently ready in a queue, head first */
  queueContents(name: string): MessageSnapshot[] {
    const q = this.queues.get(name);
    return q ? q.readyEntries().map((e) => this.snapshot(q, e, false)) : [];
  }
}

/** one more delivery of this message to consumer `ord`; returns that consumer's count (1-based) */
function countDelivery(L: Logical, ord: number): number {
  if (L.counts === undefined) {
    if (ord < 4) {
      const shift = ord * 7;
      const n = ((L.seen >>> shift) & 127) + 1;
      if (n < 128) {
        L.seen = (L.seen & ~(127 << shift)) | (n << shift);
        return n;
      }
    }
    // unpack: from now on one slot per consumer
    const counts: number[] = [];
    for (let i = 0; i < 4; i++) counts[i] = (L.seen >>> (i * 7)) & 127;
    L.counts = counts;
  }
  const n = (L.counts[ord] ?? 0) + 1;
  L.counts[ord] = n;
  return n;
}

/** a dead letter held by a delayed exchange comes out with x-delay negated (3.10 + plugin 3.10.2) */
function withDelayNegated(m: Msg, delayMs: number): Msg {
  const shape: MsgShape = {
    exchange: m.exchange,
    routingKeys: m.routingKeys,
    headers: { ...m.headers, 'x-delay': -delayMs },
    xDeath: m.xDeath,
    xDeathFromClient: m.xDeathFromClient,
    expiration: m.expiration,
    ccInKeys: m.ccInKeys,
    deliveryCount: m.deliveryCount,
  };
  return new MsgRec(m.logical, m.body, m.bytes, shape);
}
