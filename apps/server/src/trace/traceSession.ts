/**
 * One live trace: observation mirrors, the design's consumers as workers, the test publisher
 * and a queue-depth sampler, all on the 'trace' connection (re-set up after every reconnect),
 * turned into the simulator's event vocabulary with real headers.
 */
import { randomBytes } from 'node:crypto';
import type { ConsumeMessage } from 'amqplib';
import {
  compileExchanges,
  route,
  type AmqpTable,
  type Design,
  type ExchangeIndex,
  type PublishOrigin,
  type PublisherSpec,
  type SimEvent,
  type Topology,
  type XDeathEntry,
} from '@retry-studio/topology-core';
import type { ManagedConnection, ManagementClient } from '../broker/index.js';
import { Renamer, renameDesign, type DeployTarget } from '../deploy/deployTarget.js';
import { EventLog, percentile } from './eventLog.js';
import { MessageTracker } from './messageTracker.js';
import { normalizeHeaders, xDeathOf } from './normalizeHeaders.js';
import { MSG_HEADER, Observer, TRACE_HEADER, type ObservedCopy } from './observer.js';
import { TestPublisher, type TestMessage } from './testPublisher.js';
import type { EventInput, TraceContext } from './traceContext.js';
import { TraceWorker } from './worker.js';

export interface TraceOptions {
  readonly publisher?: string;
  readonly messages?: number;
  readonly ratePerSecond?: number;
  readonly headers?: AmqpTable;
  readonly expiration?: string;
  readonly priority?: number;
  readonly persistent?: boolean;
  readonly durationMs?: number;
  /** how often queue depths are sampled (ms, default 1000) */
  readonly depthEveryMs?: number;
  /** quiet time after everything settled before the trace ends (ms, default 500) */
  readonly settleMs?: number;
  readonly seed?: number;
}

export interface TraceSummary {
  readonly id: string;
  readonly state: 'running' | 'complete' | 'stopped' | 'failed';
  readonly published: number;
  readonly confirmed: number;
  /** messages whose final action was an ack */
  readonly acked: number;
  /** copies resting in queues nobody consumes (parking lots, DLQs) */
  readonly parked: number;
  /** copies still in queues with consumers or TTL (waiting), or unacked */
  readonly inFlight: number;
  readonly dropped: number;
  /** every confirmed message is counted once: confirmed = acked + parked + inFlight + dropped */
  readonly balanced: boolean;
  /** confirmed messages with no known fate (at most 100 ids) */
  readonly unaccounted: readonly string[];
  /** the trace hit its duration while still waiting for this */
  readonly endedWaitingFor?: string;
  readonly resting: Readonly<Record<string, number>>;
  readonly brokerDepths: Readonly<Record<string, { ready: number; unacked: number }>>;
  readonly ttlWaits: Readonly<Record<string, { n: number; avgMs: number; maxMs: number }>>;
  readonly events: number;
  readonly eventCounts: Readonly<Record<string, number>>;
  readonly publish: TestPublisher['stats'];
  readonly reconnects: number;
  readonly cancelledConsumers: readonly string[];
  readonly latencyMs: { readonly n: number; readonly p50: number; readonly p95: number; readonly p99: number };
  readonly error?: string;
}

function seeded(seed: number): () => number {
  let a = seed >>> 0 || 1;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class TraceSession implements TraceContext {
  readonly traceId = randomBytes(6).toString('hex');
  readonly log = new EventLog();
  readonly tracker = new MessageTracker();
  readonly renamer: Renamer;
  readonly real: Design;
  private readonly index: ExchangeIndex;
  private readonly observer: Observer;
  private readonly workers: TraceWorker[];
  private readonly publisher: TestPublisher;
  private readonly startedAt = performance.now();
  readonly random: () => number;
  private state: TraceSummary['state'] = 'running';
  private error: string | undefined;
  private readonly deathsReported = new Map<string, number>();
  private readonly processingAttempts = new Map<string, number>();
  private readonly deathsDelivered = new Map<string, number>();
  private readonly deathCredits = new Map<string, number>();
  private readonly republishMarks = new Map<string, number>();
  private readonly copiesSeen = new Set<string>();
  private readonly depths = new Map<string, { ready: number; unacked: number }>();
  private depthTimer: NodeJS.Timeout | undefined;
  private sampling = false;
  private stopping = false;
  private endedWaitingFor: string | undefined;
  private sampleFailing = false;
  private endTimer: NodeJS.Timeout | undefined;
  private reconnects = 0;
  private publishing = true;
  private finished: Promise<TraceSummary> | undefined;
  private resolveFinished!: (s: TraceSummary) => void;
  private readonly onConnected = () => {
    this.reconnects += 1;
    this.log.notice({ level: 'info', code: 'reconnected', message: 'trace connection is back: re-attaching observers and workers', t: this.now() });
    void this.attach().catch((err) => this.log.notice({ level: 'error', code: 'reattach-failed', message: String((err as Error).message), t: this.now() }));
  };
  private readonly onDisconnected = () => {
    this.log.notice({ level: 'warn', code: 'disconnected', message: 'trace connection lost (broker restart?): reconnecting with backoff', t: this.now() });
  };
  readonly publisherSpec: PublisherSpec;
  private readonly queueTtl = new Map<string, number>();
  private readonly consumedQueues: Set<string>;
  private final: TraceSummary | undefined;

  constructor(
    readonly design: Design,
    readonly target: DeployTarget,
    readonly conn: ManagedConnection,
    private readonly mgmt: ManagementClient,
    /** the broker, redacted (which deployment this trace runs on) */
    readonly brokerKey: string,
    readonly opts: TraceOptions = {},
  ) {
    this.renamer = new Renamer(target.prefix);
    this.real = renameDesign(design, this.renamer);
    this.index = compileExchanges(this.real.topology, []);
    this.random = seeded(opts.seed ?? 1);
    const pubSpec = opts.publisher ? this.real.publishers.find((p) => p.id === opts.publisher) : this.real.publishers[0];
    if (!pubSpec) throw new Error(opts.publisher ? `no publisher '${opts.publisher}' in the design` : 'the design has no publisher to publish test messages from');
    this.publisherSpec = pubSpec;
    for (const q of this.real.topology.queues) {
      const ttl = q.arguments?.['x-message-ttl'];
      if (typeof ttl === 'number') this.queueTtl.set(q.name, ttl);
    }
    this.consumedQueues = new Set(this.real.consumers.map((c) => c.queue));
    this.observer = new Observer(this.real.topology, this.traceId, (c) => this.onCopy(c));
    this.workers = this.real.consumers.map((c) => new TraceWorker(c, this));
    this.publisher = new TestPublisher(conn, {
      ...(opts.ratePerSecond ? { ratePerSecond: opts.ratePerSecond } : {}),
      onPublish: (m) => this.onTestPublish(m),
      onConfirmed: (m, outcome) => {
        if (outcome === 'acked') this.tracker.confirmed.add(m.msgId);
        else this.emit({ kind: 'publish-nacked', msgId: m.msgId, body: m.body, queue: '', reason: 'overflow' });
      },
      onReturn: (msg) => this.onReturn(msg as never, { kind: 'publisher', id: pubSpec.id }),
      isStopped: () => this.stopping,
    });
    this.finished = new Promise((r) => (this.resolveFinished = r));
  }

  // ------------------------------------------------------------ TraceContext

  now(): number {
    return Math.round((performance.now() - this.startedAt) * 1000) / 1000;
  }
  back = (name: string): string => this.renamer.back(name);

  emit(e: EventInput, rxAt?: number): void {
    const ev = { ...e, t: this.now(), seq: this.log.nextSeq() } as SimEvent;
    const t = ev.t;
    switch (ev.kind) {
      case 'enqueued':
        this.tracker.enqueued(ev.msgId, ev.queue, t);
        break;
      case 'delivered':
        this.tracker.delivered(ev.msgId, ev.queue, t);
        break;
      case 'requeued':
        this.tracker.requeued(ev.msgId, ev.queue, t);
        break;
      case 'dead-lettered':
        this.tracker.left(ev.msgId, ev.queue, t, ev.reason === 'expired');
        break;
      case 'dropped':
        this.tracker.dropped.set(ev.msgId, ev.why);
        break;
      default:
        this.tracker.lastActivity = t;
    }
    this.log.emit(ev, rxAt);
  }

  nextProcessingAttempt(msgId: string): number {
    const n = (this.processingAttempts.get(msgId) ?? 0) + 1;
    this.processingAttempts.set(msgId, n);
    return n;
  }

  messageIndex(msgId: string): number {
    const m = /-(\d+)$/.exec(msgId);
    return m ? Number(m[1]) : 0;
  }

  onReturn(msg: { fields: { exchange: string; routingKey: string }; properties: { headers?: Record<string, unknown> }; content: Buffer }, origin: PublishOrigin): void {
    const headers = normalizeHeaders(msg.properties.headers);
    if (headers[TRACE_HEADER] !== this.traceId) return;
    const msgId = String(headers[MSG_HEADER] ?? '');
    const body = msg.content.toString('utf8', 0, 1024);
    const exchange = this.back(msg.fields.exchange);
    // we always publish mandatory to learn about unroutable messages; 'returned' only when the design asked for it
    // a return means no exchange on the way matched, so no mirror saw it: report the (empty) hops
    const hops = route(this.index, msg.fields.exchange, { routingKeys: [msg.fields.routingKey], headers, xDeath: undefined }, { strictHeaders: false, delayDone: true }).hops;
    for (const h of hops.length ? hops : [{ exchange: msg.fields.exchange, queues: [], exchanges: [] }])
      this.emit({ kind: 'routed', msgId, body, exchange: this.back(h.exchange), routingKeys: [msg.fields.routingKey], queues: [], exchanges: h.exchanges.map(this.back), ...(('alternateOf' in h && h.alternateOf !== undefined) ? { alternateOf: this.back(h.alternateOf) } : {}) });
    this.emit({ kind: 'unroutable', msgId, body, exchange, routingKeys: [msg.fields.routingKey] });
    const wanted = origin.kind === 'publisher' && this.publisherSpec.mandatory === true;
    if (wanted) this.emit({ kind: 'returned', msgId, body, exchange, routingKey: msg.fields.exchange === '' ? this.back(msg.fields.routingKey) : msg.fields.routingKey, replyCode: 312 });
    this.emit({ kind: 'dropped', msgId, body, why: 'no-route', exchange });
  }

  /**
   * Dead-letter hops. Each physical departure is reported once, whether the observation of the
   * DLX copy or the delivery at the next queue comes first (and duplicates of one message, e.g.
   * republished after a lost confirm, each count): the observation reports unless a delivery
   * already reported it (a credit); a first delivery reports when it carries more deaths of
   * this key than were reported.
   */
  private deathKey(msgId: string, d: { queue: string; reason: string; count: number }): string {
    return `${msgId}|${d.queue}|${d.reason}|${d.count}`;
  }

  private reportDeath(msgId: string, body: string, d: XDeathEntry, dlx: string | undefined, routingKey: string | undefined): void {
    const key = this.deathKey(msgId, d);
    this.deathsReported.set(key, (this.deathsReported.get(key) ?? 0) + 1);
    const queue = this.back(d.queue);
    const qDef = this.real.topology.queues.find((q) => q.name === d.queue);
    const exchange = dlx ?? (typeof qDef?.arguments?.['x-dead-letter-exchange'] === 'string' ? (qDef.arguments['x-dead-letter-exchange'] as string) : '');
    const dlrk = qDef?.arguments?.['x-dead-letter-routing-key'];
    if (d.reason === 'expired') this.emit({ kind: 'expired', msgId, body, queue });
    this.emit({
      kind: 'dead-lettered',
      msgId,
      body,
      queue,
      reason: d.reason,
      exchange: this.back(exchange),
      // through the default exchange the keys are (prefixed) queue names
      routingKeys: (routingKey !== undefined ? [routingKey] : typeof dlrk === 'string' ? [dlrk] : d['routing-keys']).map((k) => (exchange === '' ? this.back(k) : k)),
    });
  }

  /** an observed copy that entered at its DLX */
  private observedDeath(msgId: string, body: string, headers: AmqpTable, dlx: string, routingKey: string): void {
    const d = xDeathOf(headers)?.[0];
    if (!d) return;
    // (client publishes were marked in beforePublish and never get here)
    const key = this.deathKey(msgId, d);
    const credit = this.deathCredits.get(key) ?? 0;
    if (credit > 0) {
      this.deathCredits.set(key, credit - 1);
      return;
    }
    this.reportDeath(msgId, body, d, dlx, routingKey);
  }

  catchUpDeath(msgId: string, body: string, headers: AmqpTable, redelivered = false): void {
    const d = xDeathOf(headers)?.[0];
    if (!d || redelivered) return;
    const key = this.deathKey(msgId, d);
    const seen = (this.deathsDelivered.get(key) ?? 0) + 1;
    this.deathsDelivered.set(key, seen);
    if (seen <= (this.deathsReported.get(key) ?? 0)) return;
    this.reportDeath(msgId, body, d, undefined, undefined);
    const qDef = this.real.topology.queues.find((q) => q.name === d.queue);
    const dlx = qDef?.arguments?.['x-dead-letter-exchange'];
    if (dlx === '') {
      // dead-lettered through the default exchange (no mirror possible): report the hop now
      const rk = String(qDef?.arguments?.['x-dead-letter-routing-key'] ?? d['routing-keys'][0] ?? '');
      this.defaultExchangeHop(msgId, body, rk, undefined);
    } else if (typeof dlx === 'string' && this.observer.mirrors.some((m) => m.exchange === dlx)) {
      this.deathCredits.set(key, (this.deathCredits.get(key) ?? 0) + 1);
    }
  }

  private defaultExchangeHop(msgId: string, body: string, routingKey: string, expiration: string | undefined): void {
    const exists = this.index.queues.has(routingKey);
    const q = this.back(routingKey);
    this.emit({ kind: 'routed', msgId, body, exchange: '', routingKeys: [q], queues: exists ? [q] : [], exchanges: [] });
    if (exists) this.enqueue(msgId, body, routingKey, expiration);
    else {
      this.emit({ kind: 'unroutable', msgId, body, exchange: '', routingKeys: [q] });
      this.emit({ kind: 'dropped', msgId, body, why: 'no-route', exchange: '' });
    }
  }

  afterReject(msgId: string, body: string, realQueue: string): void {
    const qDef = this.real.topology.queues.find((q) => q.name === realQueue);
    const dlx = qDef?.arguments?.['x-dead-letter-exchange'];
    const queue = this.back(realQueue);
    if (typeof dlx !== 'string') return this.emit({ kind: 'dropped', msgId, body, why: 'no-dlx', queue });
    if (dlx === '') return; // seen at the next delivery (catchUpDeath)
    const x = this.index.exchanges.get(dlx);
    if (!x) return this.emit({ kind: 'dropped', msgId, body, why: 'missing-dlx', queue, exchange: this.back(dlx) });
    if (x.bindings.length === 0 && x.alternate === undefined) {
      // no mirror can see it: the DLX routes it nowhere
      this.emit({ kind: 'dead-lettered', msgId, body, queue, reason: 'rejected', exchange: this.back(dlx), routingKeys: [] });
      this.emit({ kind: 'unroutable', msgId, body, exchange: this.back(dlx), routingKeys: [] });
      this.emit({ kind: 'dropped', msgId, body, why: 'no-route', exchange: this.back(dlx) });
    }
  }

  beforePublish(msgId: string, body: string, realExchange: string, routingKey: string, expiration?: string): void {
    if (realExchange === '') this.defaultExchangeHop(msgId, body, routingKey, expiration);
    else if (this.observer.mirrors.some((m) => m.exchange === realExchange)) {
      // its observed copy is a client publish, not a dead-letter hop
      const mark = `${msgId}|${realExchange}`;
      this.republishMarks.set(mark, (this.republishMarks.get(mark) ?? 0) + 1);
    }
  }

  // ------------------------------------------------------------ observation

  private enqueue(msgId: string, body: string, realQueue: string, expiration: string | undefined): void {
    let ttl = this.queueTtl.get(realQueue);
    if (expiration !== undefined && /^\d+$/.test(expiration)) ttl = ttl === undefined ? Number(expiration) : Math.min(ttl, Number(expiration));
    const depth = this.depths.get(realQueue)?.ready ?? 0;
    this.emit({ kind: 'enqueued', msgId, body, queue: this.back(realQueue), depth: depth + 1, ...(ttl !== undefined ? { expiresAt: this.now() + ttl } : {}) });
  }

  private onCopy(c: ObservedCopy): void {
    const msg: ConsumeMessage = c.msg;
    const headers = normalizeHeaders(msg.properties.headers);
    const msgId = String(headers[MSG_HEADER] ?? '');
    // a copy redelivered after a reconnect may have been handled before its ack was lost
    const key = `${c.exchange}|${msg.fields.exchange}|${msg.fields.routingKey}|${JSON.stringify(headers)}`;
    if (msg.fields.redelivered && this.copiesSeen.has(key)) return;
    if (this.copiesSeen.size >= 300_000) this.copiesSeen.clear();
    this.copiesSeen.add(key);
    const body = msg.content.toString('utf8', 0, 1024);
    const entry = msg.fields.exchange;
    // a copy whose entry exchange is where it was dead-lettered to: report the death first
    if (entry === c.exchange) {
      const mark = `${msgId}|${entry}`;
      const n = this.republishMarks.get(mark) ?? 0;
      if (n > 0) this.republishMarks.set(mark, n - 1);
      else this.observedDeath(msgId, body, headers, entry, msg.fields.routingKey);
    }
    const cc = Array.isArray(headers.CC) ? (headers.CC as unknown[]).map(String) : [];
    const { 'x-death': xd, ...plain } = headers;
    const r = route(this.index, entry, { routingKeys: [msg.fields.routingKey, ...cc], headers: plain, xDeath: xd ? xDeathOf(headers) : undefined }, { strictHeaders: false, delayDone: true });
    let hop = r.hops.find((h) => h.exchange === c.exchange);
    if (!hop) hop = route(this.index, c.exchange, { routingKeys: [msg.fields.routingKey, ...cc], headers: plain, xDeath: undefined }, { strictHeaders: false, delayDone: true }).hops[0];
    if (!hop) return;
    // the exchange it is the alternate of matched nothing, so its mirror (a copy of its bindings) saw nothing: report that hop here
    if (hop.alternateOf !== undefined)
      this.emit({ kind: 'routed', msgId, body, exchange: this.back(hop.alternateOf), routingKeys: [msg.fields.routingKey, ...cc], queues: [], exchanges: [this.back(c.exchange)] }, c.rxAt);
    this.emit(
      {
        kind: 'routed',
        msgId,
        body,
        exchange: this.back(c.exchange),
        routingKeys: [msg.fields.routingKey, ...cc],
        queues: hop.queues.map(this.back),
        exchanges: hop.exchanges.map(this.back),
        ...(hop.alternateOf !== undefined ? { alternateOf: this.back(hop.alternateOf) } : {}),
      },
      c.rxAt,
    );
    for (const q of hop.queues) this.enqueue(msgId, body, q, msg.properties.expiration === undefined ? undefined : String(msg.properties.expiration));
  }

  // ------------------------------------------------------------ lifecycle

  private async attach(): Promise<void> {
    await this.observer.setup(this.conn);
    for (const w of this.workers) await w.setup(this.conn);
  }

  private onTestPublish(m: TestMessage): void {
    this.tracker.published.add(m.msgId);
    this.emit({
      kind: 'published',
      msgId: m.msgId,
      body: m.body,
      exchange: this.back(m.exchange),
      routingKey: m.exchange === '' ? this.back(m.routingKey) : m.routingKey,
      origin: { kind: 'publisher', id: this.publisherSpec.id },
      headers: normalizeHeaders(m.options.headers),
      ...(m.options.expiration !== undefined ? { expiration: String(m.options.expiration) } : {}),
      mandatory: this.publisherSpec.mandatory === true,
    });
    this.beforePublish(m.msgId, m.body, m.exchange, m.routingKey, m.options.expiration === undefined ? undefined : String(m.options.expiration));
  }

  private *messages(): Generator<TestMessage> {
    const p = this.publisherSpec;
    const n = this.opts.messages ?? 1;
    const props = p.properties ?? {};
    for (let i = 1; i <= n; i++) {
      const msgId = `${p.id}-${i}`;
      const expiration = this.opts.expiration ?? props.expiration;
      const priority = this.opts.priority ?? props.priority;
      yield {
        msgId,
        exchange: p.exchange,
        routingKey: p.routingKey,
        body: `${p.bodyPrefix ?? p.id}-${i}`,
        options: {
          headers: { ...(props.headers ?? {}), ...(this.opts.headers ?? {}), [TRACE_HEADER]: this.traceId, [MSG_HEADER]: msgId },
          persistent: this.opts.persistent ?? true,
          // always mandatory: a return is how an unroutable first hop is seen
          mandatory: true,
          messageId: props.message_id ?? msgId,
          ...(expiration !== undefined ? { expiration } : {}),
          ...(priority !== undefined ? { priority } : {}),
        },
      };
    }
  }

  /**
   * Queue depths. Ready counts come from a passive declare (exact; the management API's figures
   * lag by its statistics interval, 5 s by default); unacked from our own workers. Designs with
   * many queues fall back to the management API.
   */
  private async sampleDepths(final = false): Promise<void> {
    if (this.sampling && !final) return;
    this.sampling = true;
    const set = (name: string, d: { ready: number; unacked: number }) => {
      const prev = this.depths.get(name);
      this.depths.set(name, d);
      if (!prev || prev.ready !== d.ready || prev.unacked !== d.unacked) this.emit({ kind: 'depth', msgId: '', body: '', queue: this.back(name), ready: d.ready, unacked: d.unacked });
    };
    const unacked = (q: string) => this.workers.filter((w) => w.spec.queue === q).reduce((n, w) => n + w.inProgress, 0);
    try {
      const names = this.real.topology.queues.map((q) => q.name);
      if (names.length <= 200 && this.conn.isOpen) {
        const ch = await this.conn.createChannel();
        try {
          for (const q of names) {
            const ok = await ch.checkQueue(q);
            set(q, { ready: ok.messageCount, unacked: unacked(q) });
          }
        } finally {
          await ch.close().catch(() => undefined);
        }
        this.sampleFailing = false;
      } else {
        const mine = new Set(names);
        for (const q of await this.mgmt.listQueues(this.target.vhost)) if (mine.has(q.name)) set(q.name, { ready: q.messages_ready ?? 0, unacked: q.messages_unacknowledged ?? 0 });
      }
    } catch (err) {
      // broker restarting or a queue deleted: sample again later (said once per failure streak)
      if (!this.sampleFailing || final)
        this.log.notice({ level: 'warn', code: 'depth-sample-failed', message: `could not sample queue depths: ${String((err as Error).message).slice(0, 200)}`, t: this.now() });
      this.sampleFailing = true;
      return;
    } finally {
      this.sampling = false;
    }
  }

  /** Everything published has settled: acked, dropped, or resting where nobody consumes and nothing expires. */
  private settled(): boolean {
    return this.blocker() === undefined;
  }

  /** what keeps the trace from settling, if anything */
  private blocker(): string | undefined {
    if (this.publishing) return 'publishing';
    const busy = this.workers.find((w) => w.inProgress > 0);
    if (busy) return `consumer '${busy.spec.id}' is processing ${busy.inProgress} message(s)`;
    for (const id of this.tracker.confirmed) {
      if (this.tracker.ackedFinal.has(id) || this.tracker.dropped.has(id)) continue;
      const loc = this.tracker.locationOf(id);
      if (loc.length === 0) return `${id} is in transit`;
      for (const q of loc) {
        const real = this.renamer.name(q);
        if (this.consumedQueues.has(real) && !this.workers.find((w) => w.spec.queue === real)?.cancelled) return `${id} waits in '${q}'`;
        if (this.queueTtl.has(real)) return `${id} waits for its TTL in '${q}'`;
      }
    }
    return undefined;
  }

  /** Start: attach, publish, run until settled or the duration elapses. Resolves once started. */
  async start(): Promise<void> {
    this.conn.on('connected', this.onConnected);
    this.conn.on('disconnected', this.onDisconnected);
    await this.attach();
    this.depthTimer = setInterval(() => void this.sampleDepths(), this.opts.depthEveryMs ?? 1000);
    void this.sampleDepths();
    this.endTimer = setTimeout(() => void this.stop('complete'), this.opts.durationMs ?? 60_000);
    void (async () => {
      try {
        await this.publisher.run(this.messages());
      } catch (err) {
        this.error = String((err as Error).message);
      } finally {
        this.publishing = false;
      }
      const settleMs = this.opts.settleMs ?? 500;
      while (!this.stopping) {
        await new Promise((r) => setTimeout(r, 100));
        if (this.settled() && this.now() - this.tracker.lastActivity >= settleMs) {
          // and the observation has caught up (its copies may lag behind the workers)
          const backlog = await this.observer.backlog(this.conn).catch(() => 1);
          if (backlog > 0) continue;
          await this.stop('complete');
          break;
        }
      }
    })();
  }

  async stop(state: 'complete' | 'stopped' | 'failed' = 'stopped'): Promise<TraceSummary> {
    if (this.stopping) return this.finished!;
    this.stopping = true;
    clearTimeout(this.endTimer);
    clearInterval(this.depthTimer);
    this.conn.off('connected', this.onConnected);
    this.conn.off('disconnected', this.onDisconnected);
    await Promise.all(this.workers.map((w) => w.stop()));
    await this.publisher.close();
    await this.sampleDepths(true);
    await this.observer.teardown(this.conn.isOpen ? this.conn : undefined);
    const blocker = this.blocker();
    if (blocker && state === 'complete') this.log.notice({ level: 'warn', code: 'duration-reached', message: `the trace ran for its whole duration; still waiting: ${blocker}`, t: this.now() });
    this.endedWaitingFor = state === 'complete' ? blocker : undefined;
    // the state changes only now, so a reader never sees a final state with stale figures
    this.state = state;
    const summary = this.summary();
    this.final = summary;
    // the summary is final: drop per-message bookkeeping (the event ring stays for late readers)
    for (const m of [this.copiesSeen, this.deathsReported, this.deathsDelivered, this.deathCredits, this.republishMarks]) m.clear();
    this.tracker.release();
    for (const w of this.workers) w.release();
    this.log.notice({ level: 'info', code: 'trace-end', message: JSON.stringify(summary), t: this.now() });
    this.log.end();
    this.resolveFinished(summary);
    return summary;
  }

  done(): Promise<TraceSummary> {
    return this.finished!;
  }

  get isRunning(): boolean {
    return this.state === 'running';
  }

  summary(): TraceSummary {
    if (this.final) return this.final;
    const restingOut: Record<string, number> = {};
    for (const [q, n] of this.tracker.resting()) restingOut[q] = n;
    // each confirmed message once: in flight (a copy in a consumed or TTL queue) > parked > acked > dropped
    let parked = 0;
    let inFlight = 0;
    let ackedFinal = 0;
    let dropped = 0;
    const unaccounted: string[] = [];
    for (const id of this.tracker.confirmed) {
      const loc = this.tracker.locationOf(id).map((q) => this.renamer.name(q));
      if (loc.some((q) => this.consumedQueues.has(q) || this.queueTtl.has(q))) inFlight += 1;
      else if (loc.length > 0) parked += 1;
      else if (this.tracker.ackedFinal.has(id)) ackedFinal += 1;
      else if (this.tracker.dropped.has(id)) dropped += 1;
      else unaccounted.push(id);
    }
    const brokerDepths: Record<string, { ready: number; unacked: number }> = {};
    for (const [q, d] of this.depths) brokerDepths[this.back(q)] = d;
    const ttlWaits: Record<string, { n: number; avgMs: number; maxMs: number }> = {};
    for (const [q, w] of this.tracker.ttlWaits) ttlWaits[q] = { n: w.n, avgMs: Math.round(w.totalMs / w.n), maxMs: Math.round(w.maxMs) };
    const lat = this.log.latencies;
    return {
      id: this.traceId,
      state: this.state,
      published: this.tracker.published.size,
      confirmed: this.tracker.confirmed.size,
      acked: ackedFinal,
      parked,
      inFlight,
      dropped,
      balanced: unaccounted.length === 0,
      unaccounted: unaccounted.slice(0, 100),
      ...(this.endedWaitingFor ? { endedWaitingFor: this.endedWaitingFor } : {}),
      resting: restingOut,
      brokerDepths,
      ttlWaits,
      events: this.log.total,
      eventCounts: { ...this.log.counts },
      publish: { ...this.publisher.stats },
      reconnects: this.reconnects,
      cancelledConsumers: this.workers.filter((w) => w.cancelled).map((w) => w.spec.id),
      latencyMs: { n: lat.length, p50: percentile(lat, 50), p95: percentile(lat, 95), p99: percentile(lat, 99) },
      ...(this.error ? { error: this.error } : {}),
    };
  }

  /** events still held (for the prediction comparison) */
  events(): SimEvent[] {
    return this.log.events();
  }

  topology(): Topology {
    return this.design.topology;
  }
}
