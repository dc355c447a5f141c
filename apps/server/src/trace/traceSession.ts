/**
 * One live trace, start to end: reads the deployment as the broker has it, attaches the
 * observation (observer.ts, hopReporter.ts) and the design's consumers as workers (worker.ts),
 * publishes the test messages (testPublisher.ts), samples queue depths (depthSampler.ts) and
 * watches the topology; every event goes through the accounting (accounting.ts), which puts
 * each message's events in causal order and keeps its fate. All on the 'trace' connection,
 * re-attached after every reconnect.
 */
import { randomBytes } from 'node:crypto';
import { profileFor, queueConfig, type AmqpTable, type Design, type FailureModel, type NodeLoss, type PublisherSpec, type SimEvent } from '@retry-studio/topology-core';
import type { ManagedConnection, ManagementClient } from '../broker/index.js';
import { Renamer, renameDesign, type DeployTarget } from '../deploy/deployTarget.js';
import { TraceAccounting, type CopyStart, type Lane } from './accounting.js';
import { readBrokerTopology, topologyChanges, type BrokerTopology } from './brokerTopology.js';
import { deadLetterDifference, quorumDeadLetterSources } from './deadLetterCounts.js';
import { DepthSampler } from './depthSampler.js';
import { EventLog, percentile } from './eventLog.js';
import { HopReporter } from './hopReporter.js';
import { NodeLossWatch, type ObservedNodeLoss } from './nodeLossWatch.js';
import { headersForDisplay } from '../broker/index.js';
import { Observer } from './observer.js';
import { MAX_COMPARED_EVENTS, MAX_PREDICTED_MESSAGES, type Comparison } from './prediction.js';
import { TestPublisher, testMessages, type TestMessage } from './testPublisher.js';
import type { EventInput, TraceContext } from './traceContext.js';
import { VanishedCopies } from './vanishedCopies.js';
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
  /** default failure model for workers whose behaviour has none (as in the simulator) */
  readonly failure?: FailureModel;
  /** seed of the failure model's draws (the prediction uses the same) */
  readonly seed?: number;
  /** how often queue depths are sampled (ms, default 1000) */
  readonly depthEveryMs?: number;
  /** how often the topology is read again to detect changes (ms, default 2000) */
  readonly topologyEveryMs?: number;
  /** quiet time after everything settled before the trace ends (ms, default 500) */
  readonly settleMs?: number;
  /** a queue the broker holds empty while the trace counts copies there, and nothing moves, for this long: they are gone (ms, default 3000; vanishedCopies.ts) */
  readonly vanishAfterMs?: number;
  /** a node loss the prediction includes (design queue names; checked by the core's parseNodeLoss) */
  readonly nodeLoss?: NodeLoss;
  /** how often a cluster's nodes and queue leaders are read, to observe a node loss (ms, default 1000) */
  readonly nodeEveryMs?: number;
}

export interface TraceSummary {
  readonly id: string;
  readonly state: 'running' | 'complete' | 'stopped' | 'failed';
  readonly published: number;
  readonly confirmed: number;
  /** messages whose copies all ended acked by a worker */
  readonly acked: number;
  /** messages resting in queues nobody consumes and nothing expires (parking lots, DLQs) */
  readonly parked: number;
  /** messages with a copy still moving: in a consumed or TTL queue, at a consumer, in transit */
  readonly inFlight: number;
  readonly dropped: number;
  /** each published message is counted once: published = acked + parked + inFlight + dropped */
  readonly balanced: boolean;
  /** published messages with no known fate (at most 100 ids) */
  readonly unaccounted: readonly string[];
  /** the trace hit its duration while still waiting for this */
  readonly endedWaitingFor?: string;
  /** why the trace ended early (the topology changed under it, ...) */
  readonly endReason?: string;
  readonly resting: Readonly<Record<string, number>>;
  readonly brokerDepths: Readonly<Record<string, { ready: number; unacked: number }>>;
  readonly ttlWaits: Readonly<Record<string, { n: number; avgMs: number; maxMs: number }>>;
  readonly events: number;
  readonly eventCounts: Readonly<Record<string, number>>;
  /** events sent before the broker copy they follow was seen (waited the longest hold) */
  readonly outOfOrder: number;
  readonly publish: TestPublisher['stats'];
  readonly reconnects: number;
  readonly cancelledConsumers: readonly string[];
  /**
   * messages a worker processed successfully twice on the same queue: redelivered after its ack
   * was lost (a consumer's channel closed, a queue's leader moved). Delivery is at-least-once
   * here: every worker acks after processing, so a duplicate is that, not a loss or a bug.
   */
  readonly duplicates: number;
  /** queues that could not be reached during the trace (their node was down), with when (ms, as first and last sampled) */
  readonly unavailable: Readonly<Record<string, { readonly fromMs: number; readonly untilMs?: number }>>;
  /**
   * per queue that was unavailable, messages the trace saw routed into it that the broker does not
   * hold: dead letters routed to it while its node was down are dropped by RabbitMQ (dead-lettering
   * is at-most-once), which the trace cannot see message by message
   */
  readonly lostWhileUnavailable: Readonly<Record<string, number>>;
  /**
   * per parking queue, dead letters the broker dropped (its own count is short of what the trace
   * saw dead-lettered into it; quorum queues dead-letter at most once by default): counted in
   * `dropped`, not `parked` (deadLetterCounts.ts); absent when none
   */
  readonly deadLettersDropped?: Readonly<Record<string, number>>;
  /**
   * per parking queue, dead letters the broker holds twice (its own count is over what the trace
   * saw dead-lettered into it: at-least-once dead-lettering sends again a dead letter whose
   * confirm was lost in a leader move); `parked` counts each message once; absent when none
   */
  readonly deadLettersDuplicated?: Readonly<Record<string, number>>;
  /**
   * a cluster node the trace saw go down (the first one), as the simulator's NodeLoss with the
   * observed times (trace ms, known to one poll interval): the prediction is run again with it
   */
  readonly nodeLoss?: ObservedNodeLoss;
  readonly latencyMs: { readonly n: number; readonly p50: number; readonly p95: number; readonly p99: number };
  readonly error?: string;
}

export class TraceSession implements TraceContext {
  readonly traceId = randomBytes(6).toString('hex');
  readonly log = new EventLog();
  readonly renamer: Renamer;
  readonly real: Design;
  readonly publisherSpec: PublisherSpec;
  readonly failure: FailureModel | undefined;
  readonly seed: number;
  readonly mandatoryWanted: boolean;
  readonly accounting: TraceAccounting;
  hops!: HopReporter;
  private observer: Observer | undefined;
  private readonly workers: TraceWorker[];
  private readonly publisher: TestPublisher;
  private readonly sampler: DepthSampler;
  private readonly startedAt = performance.now();
  private readonly processingAttempts = new Map<string, number>();
  /** successful processings per message and queue, for `duplicates` */
  private readonly processedOk = new Map<string, number>();
  private duplicates = 0;
  /** the messages behind `duplicates` that the prediction covers (the comparison flags them) */
  readonly duplicateIds = new Set<string>();
  private readonly unavailable = new Map<string, { fromMs: number; untilMs?: number }>();
  private readonly vanished = new VanishedCopies();
  private vanishCheckedAt = -Infinity;
  /** the design's streams (design names): a passive declare counts them 0, so their depth is the management API's */
  private readonly streams: ReadonlySet<string>;
  /** design queue -> the longest a message waits out a 4.3 delayed retry there (the broker does not count it meanwhile) */
  private readonly longestDelayMs: ReadonlyMap<string, number>;
  private readonly nodeWatch = new NodeLossWatch();
  private deadLettersDropped: Record<string, number> = {};
  private deadLettersDuplicated: Record<string, number> = {};
  /** each queue's ready count before the first publish (design names): a parking queue may hold older messages */
  private depthsBefore: Record<string, number> = {};
  /** the design's quorum queues that dead-letter, by strategy: their parking queues are counted at the end */
  private readonly deadLetterSources: ReturnType<typeof quorumDeadLetterSources>;
  private polling = false;
  /** the events of the messages the prediction covers, for the comparison (bounded) */
  private readonly compared: SimEvent[] = [];
  private comparedTruncated = false;
  private comparison: Comparison | undefined;
  private brokerTopology: BrokerTopology | undefined;
  private state: TraceSummary['state'] = 'running';
  private error: string | undefined;
  private endReason: string | undefined;
  private endedWaitingFor: string | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private stopping = false;
  private reconnects = 0;
  private publishing = true;
  private final: TraceSummary | undefined;
  private readonly finished: Promise<TraceSummary>;
  private resolveFinished!: (s: TraceSummary) => void;
  private readonly onConnected = () => {
    this.reconnects += 1;
    this.log.notice({ level: 'info', code: 'reconnected', message: 'trace connection is back: re-attaching observers and workers', t: this.now() });
    void this.attach().catch((err) => this.log.notice({ level: 'error', code: 'reattach-failed', message: String((err as Error).message), t: this.now() }));
  };
  private readonly onDisconnected = () => {
    this.log.notice({ level: 'warn', code: 'disconnected', message: 'trace connection lost (broker restart?): reconnecting with backoff', t: this.now() });
  };

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
    const profile = profileFor(design.profile);
    const configs = design.topology.queues.map((q) => queueConfig(q, design.topology.policies, profile));
    this.streams = new Set(configs.filter((c) => c.stream).map((c) => c.name));
    this.deadLetterSources = quorumDeadLetterSources(design);
    // a 4.3 delayed-retry queue's longest wait (min x delivery count, capped by max; 20 deliveries when unlimited)
    this.longestDelayMs = new Map(configs.flatMap((c) => (c.delayedRetry ? [[c.name, c.delayedRetry.maxMs ?? c.delayedRetry.minMs * (c.deliveryLimit ?? 20)] as const] : [])));
    this.failure = opts.failure;
    this.seed = opts.seed ?? 1;
    const pubSpec = opts.publisher ? this.real.publishers.find((p) => p.id === opts.publisher) : this.real.publishers[0];
    if (!pubSpec) throw new Error(opts.publisher ? `no publisher '${opts.publisher}' in the design` : 'the design has no publisher to publish test messages from');
    this.publisherSpec = pubSpec;
    this.mandatoryWanted = pubSpec.mandatory === true;
    this.accounting = new TraceAccounting({
      now: () => this.now(),
      nextSeq: () => this.log.nextSeq(),
      out: (e, rxAt) => {
        this.log.emit(e, rxAt);
        this.keepForComparison(e);
      },
    });
    this.workers = this.real.consumers.map((c) => {
      const w = new TraceWorker(c, this);
      w.onCancelled = (cancelled) => void this.consumerCancelled(cancelled);
      return w;
    });
    this.publisher = new TestPublisher(conn, {
      ...(opts.ratePerSecond ? { ratePerSecond: opts.ratePerSecond } : {}),
      onPublish: (m) => this.onTestPublish(m),
      onConfirmed: (m, outcome) => {
        if (outcome === 'acked') this.accounting.confirmed.add(m.msgId);
        else this.emit('publisher', { kind: 'publish-nacked', msgId: m.msgId, body: m.body, queue: '', reason: 'overflow' });
      },
      onReturn: (msg) => this.hops.onReturn('publisher', msg as never, { kind: 'publisher', id: pubSpec.id }, this.mandatoryWanted),
      isStopped: () => this.stopping,
    });
    this.sampler = new DepthSampler(
      this.real.topology.queues.map((q) => q.name),
      conn,
      mgmt,
      target.vhost,
      {
        isStream: (q) => this.streams.has(this.back(q)),
        onDepth: (q, d) => {
          this.hops?.depths.set(q, d.ready);
          this.emit('sampler', { kind: 'depth', msgId: '', body: '', queue: this.back(q), ready: d.ready, unacked: d.unacked });
        },
        unacked: (q) => this.workers.filter((w) => w.spec.queue === q).reduce((n, w) => n + w.inProgress, 0),
        onMissing: (q) => this.queueGone(q, `queue '${this.back(q)}' was deleted`),
        onAvailability: (q, down) => (down === undefined ? this.queueReachable(q) : this.queueUnavailable(q, down)),
        onFailure: (message, first) => {
          if (first) this.log.notice({ level: 'warn', code: 'depth-sample-failed', message, t: this.now() });
        },
      },
    );
    this.finished = new Promise((r) => (this.resolveFinished = r));
  }

  // ------------------------------------------------------------ TraceContext

  now(): number {
    return Math.round((performance.now() - this.startedAt) * 1000) / 1000;
  }
  back = (name: string): string => this.renamer.back(name);

  emit(lane: Lane, e: EventInput, opts: { rxAt?: number; start?: CopyStart } = {}): void {
    if (e.kind === 'processed' && e.ok) {
      const k = `${e.msgId}\u0000${e.queue}`;
      const n = (this.processedOk.get(k) ?? 0) + 1;
      this.processedOk.set(k, n);
      if (n === 2) {
        this.duplicates += 1;
        if (this.messageIndex(e.msgId) <= MAX_PREDICTED_MESSAGES) this.duplicateIds.add(e.msgId);
      }
    }
    this.accounting.add(lane, e, opts);
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

  // ------------------------------------------------------------ topology changes

  /** A queue of the deployment is gone: its messages with it; the trace ends with the reason. */
  /** A cancelled consumer: its queue deleted (the topology changed), or still declared with its node down (wait for it). */
  private async consumerCancelled(w: TraceWorker): Promise<void> {
    const q = await this.mgmt.queue(this.target.vhost, w.spec.queue).catch(() => undefined);
    const down = q && typeof q.state === 'string' && q.state !== 'running' ? `state '${q.state}' on ${q.node ?? 'its node'}` : undefined;
    const why = down ? `queue '${w.designQueue}' is unavailable (${down})` : `queue '${w.designQueue}' was deleted`;
    this.log.notice({ level: 'warn', code: 'consumer-cancelled', message: `consumer '${w.spec.id}' was cancelled by the broker: ${why}`, t: this.now() });
    if (down) this.queueUnavailable(w.spec.queue, down);
    else this.queueGone(w.spec.queue, `consumer '${w.spec.id}' was cancelled: ${why}`);
  }

  /** A queue whose node is down: its messages are not counted dropped, the trace waits for it (blocker) and goes on. */
  private queueUnavailable(realQueue: string, message: string): void {
    const q = this.back(realQueue);
    if (this.unavailable.get(q)?.untilMs === undefined && this.unavailable.has(q)) return; // already said
    this.unavailable.set(q, { fromMs: this.now() });
    const n = this.accounting.messagesIn(q).reduce((s, m) => s + m.copies, 0);
    this.log.notice({ level: 'warn', code: 'queue-unavailable', message: `queue '${q}' is unavailable (${message}): the ${n} message(s) the trace saw routed into it are accounted once it is back (what it held stays on disk; dead letters routed to it meanwhile are dropped by the broker)`, t: this.now() });
  }

  private queueReachable(realQueue: string): void {
    const o = this.unavailable.get(this.back(realQueue));
    if (!o) return;
    for (const w of this.workers) if (w.spec.queue === realQueue && w.cancelled) void w.resume(this.conn).catch(() => undefined);
    o.untilMs = this.now();
    this.log.notice({ level: 'info', code: 'queue-available', message: `queue '${this.back(realQueue)}' is available again after ${Math.round(o.untilMs - o.fromMs)} ms`, t: this.now() });
  }

  private queueGone(realQueue: string, why: string): void {
    if (this.stopping) return;
    for (const { msgId, copies } of this.accounting.messagesIn(this.back(realQueue)))
      for (let i = 0; i < copies; i++) this.emit('broker', { kind: 'dropped', msgId, body: '', why: 'queue-deleted', queue: this.back(realQueue) });
    this.topologyChanged([why]);
  }

  private topologyChanged(changes: readonly string[]): void {
    if (this.stopping) return;
    this.endReason = `the topology changed during the trace: ${changes.slice(0, 5).join('; ')}`;
    this.log.notice({ level: 'warn', code: 'topology-changed', message: this.endReason, t: this.now() });
    void this.stop('stopped');
  }

  /** parking queues are counted at the end (and their depths taken at the start): quorum dead-letter sources, and few enough queues for passive declares */
  private get countsDeadLetters(): boolean {
    const sources = this.deadLetterSources;
    return (sources.atMostOnce.length > 0 || sources.atLeastOnce.length > 0) && this.real.topology.queues.length <= 200;
  }

  /**
   * At the end, for a design whose quorum queues dead-letter: each parking queue's exact count
   * (passive declare) against what the trace parked there (deadLetterCounts.ts). At most once,
   * the broker may hold fewer (dropped); at least once, more (sent twice).
   */
  private async checkDeadLetterCounts(): Promise<void> {
    const sources = this.deadLetterSources;
    if (!this.countsDeadLetters || !this.conn.isOpen) return;
    const counts = () => {
      const parked = new Map([...this.accounting.resting()].filter(([q]) => !this.live(q)));
      const held: Record<string, { ready: number; unacked: number }> = {};
      for (const [q, d] of this.sampler.depths) held[this.back(q)] = d;
      // a stream's count comes from the management API, a statistics interval late: it proves nothing
      const { short, over } = deadLetterDifference(parked, held, this.depthsBefore, new Set([...this.unavailable.keys(), ...this.streams]));
      // only what each strategy explains: at most once drops, at least once sends again
      return { short: sources.atMostOnce.length > 0 ? short : {}, over: sources.atLeastOnce.length > 0 ? over : {} };
    };
    let c = counts();
    if (Object.keys(c.short).length === 0 && Object.keys(c.over).length === 0) return;
    // a last dead letter may still be on its way into the queue: look again once
    await new Promise((r) => setTimeout(r, 1000));
    await this.sampler.sample(true);
    c = counts();
    this.deadLettersDropped = c.short;
    this.deadLettersDuplicated = c.over;
  }

  /**
   * Quiet, yet still waiting: copies the trace counts in a queue the broker holds empty are gone
   * (purged, taken outside the trace, or lost by the broker; vanishedCopies.ts). They are
   * dropped by name, with a notice, so the trace ends with what the broker did.
   */
  private async dropVanished(): Promise<void> {
    if (this.real.topology.queues.length > 200 || !this.conn.isOpen || !this.observer) return;
    // at the sampling pace: a long wait in a TTL queue is quiet too
    if (this.now() - this.vanishCheckedAt < (this.opts.depthEveryMs ?? 1000)) return;
    this.vanishCheckedAt = this.now();
    const activity = this.accounting.lastActivity;
    // the observation has caught up, and the counts are taken after the last event
    if ((await this.observer.backlog(this.conn).catch(() => 1)) > 0) return;
    if (!(await this.sampler.sample(true)) || this.stopping || this.accounting.lastActivity !== activity) return;
    const traced = new Map([...this.accounting.resting()].filter(([q]) => this.live(q) && !this.streams.has(q) && !this.isDown(q)));
    const held = new Map([...this.sampler.depths].map(([q, d]) => [this.back(q), d.ready]));
    const gone = this.vanished.check({ now: this.now(), lastActivity: activity, traced, held, graceMs: (q) => this.vanishGraceMs(q) });
    for (const q of gone) {
      const copies = this.accounting.messagesIn(q);
      const n = copies.reduce((x, m) => x + m.copies, 0);
      const names = copies.slice(0, 5).map((m) => m.msgId);
      this.log.notice({
        level: 'warn',
        code: 'copies-vanished',
        message:
          `queue '${q}' has held none of the ${n} message(s) the trace counted there (${names.join(', ')}${copies.length > names.length ? ', ...' : ''}) for ${Math.round(this.vanishGraceMs(q) / 100) / 10} s while nothing moved: ` +
          'they left without an event a client sees (the queue purged, a client outside the trace took them, or the broker lost them: a quorum queue dead-letters at most once, and a dead letter in flight while a leader moves can vanish); counted dropped',
        t: this.now(),
      });
      for (const { msgId, copies: k } of copies) for (let i = 0; i < k; i++) this.emit('broker', { kind: 'dropped', msgId, body: '', why: 'vanished', queue: q });
    }
  }

  private isDown(queue: string): boolean {
    const o = this.unavailable.get(queue);
    return o !== undefined && o.untilMs === undefined;
  }

  /** how long a queue the broker holds empty must stay so: a 4.3 delayed-retry queue does not count a message waiting out its delay */
  private vanishGraceMs(queue: string): number {
    return (this.opts.vanishAfterMs ?? 3000) + (this.longestDelayMs.get(queue) ?? 0);
  }

  private async watchTopology(): Promise<void> {
    if (this.stopping || !this.brokerTopology) return;
    const now = await readBrokerTopology(this.mgmt, this.target.vhost, this.real.topology).catch(() => undefined);
    if (!now || this.stopping) return;
    const changes = topologyChanges(this.brokerTopology, now, this.back);
    if (changes.length > 0) this.topologyChanged(changes);
  }

  /** one look at the cluster's nodes and where each queue is led or lives (for the observed node loss) */
  private async pollNodes(): Promise<void> {
    if (this.polling || this.stopping) return;
    this.polling = true;
    try {
      const t = this.now();
      // a few queues: one request each; many: the vhost's list in one request
      const few = this.real.topology.queues.length <= 20;
      const listed = few ? undefined : new Map((await this.mgmt.listQueues(this.target.vhost)).map((m) => [m.name, m]));
      const [nodes, queues] = await Promise.all([
        this.mgmt.nodes(),
        Promise.all(
          this.real.topology.queues.map(async (q) => {
            const m = listed ? listed.get(q.name) : await this.mgmt.queue(this.target.vhost, q.name).catch(() => undefined);
            const home = m?.leader ?? m?.node;
            return { name: this.back(q.name), quorum: (m?.type ?? q.arguments?.['x-queue-type']) === 'quorum', home: typeof home === 'string' ? home : undefined };
          }),
        ),
      ]);
      if (!this.stopping) this.nodeWatch.observe(t, nodes, queues);
    } catch {
      // the node answering the management API may be the one going down: the next poll tells
    } finally {
      this.polling = false;
    }
  }

  /** the node loss the prediction includes: the request's, else the one observed */
  predictedNodeLoss(): { loss: NodeLoss; source: 'request' | 'observed' } | undefined {
    if (this.opts.nodeLoss) return { loss: this.opts.nodeLoss, source: 'request' };
    // once over, the loss as the trace ended (a node still down then is down until the end)
    const seen = this.final ? this.final.nodeLoss : this.nodeWatch.loss(this.now());
    if (!seen) return undefined;
    const { leadersMovedAtMs: _m, backAtMs: _b, ...loss } = seen;
    return { loss, source: 'observed' };
  }

  // ------------------------------------------------------------ lifecycle

  private async attach(): Promise<void> {
    await this.observer?.setup(this.conn);
    for (const w of this.workers) await w.setup(this.conn);
  }

  private onTestPublish(m: TestMessage): void {
    this.emit('publisher', {
      kind: 'published',
      msgId: m.msgId,
      body: m.body,
      exchange: this.back(m.exchange),
      routingKey: m.exchange === '' ? this.back(m.routingKey) : m.routingKey,
      origin: { kind: 'publisher', id: this.publisherSpec.id },
      headers: headersForDisplay(m.options.headers),
      ...(m.options.expiration !== undefined ? { expiration: String(m.options.expiration) } : {}),
      mandatory: this.mandatoryWanted,
    });
    this.hops.beforePublish('publisher', m.msgId, m.body, m.exchange, m.routingKey, m.options.expiration === undefined ? undefined : String(m.options.expiration), m.options.headers);
  }

  /** a copy in this (design-named) queue is still moving: a running consumer or a TTL */
  private readonly live = (queue: string): boolean => {
    const real = this.renamer.name(queue);
    if (this.hops?.ttlOf(real) !== undefined) return true;
    return this.workers.some((w) => w.spec.queue === real && !w.cancelled);
  };

  /** what keeps the trace from settling, if anything */
  private blocker(): string | undefined {
    if (this.publishing) return 'publishing';
    // its messages are accounted only once it is back (or the duration ends with them unaccounted)
    for (const [q, o] of this.unavailable) if (o.untilMs === undefined) return `queue '${q}' is unavailable (its node is down)`;
    const busy = this.workers.find((w) => w.inProgress > 0);
    if (busy) return `consumer '${busy.spec.id}' is processing ${busy.inProgress} message(s)`;
    for (const id of this.accounting.published) {
      const w = this.accounting.waitingFor(id, this.live);
      if (w) return w;
    }
    return undefined;
  }

  /** Start: read the deployment, attach, publish, run until settled or the duration elapses. Resolves once started. */
  async start(): Promise<void> {
    this.brokerTopology = await readBrokerTopology(this.mgmt, this.target.vhost, this.real.topology);
    this.observer = new Observer(this.brokerTopology, this.traceId, (c) => this.hops.onCopy(c));
    this.hops = new HopReporter(
      this.brokerTopology,
      this.design.profile,
      new Set(this.observer.mirrors.map((m) => m.exchange)),
      new Set(this.real.consumers.map((c) => c.queue)),
      this,
    );
    this.conn.on('connected', this.onConnected);
    this.conn.on('disconnected', this.onDisconnected);
    await this.attach();
    this.timers.push(setInterval(() => void this.sampler.sample(), this.opts.depthEveryMs ?? 1000));
    this.timers.push(setInterval(() => void this.watchTopology(), this.opts.topologyEveryMs ?? 2000));
    this.timers.push(setInterval(() => this.accounting.flush(), 250));
    // on a cluster, watch the nodes and the leaders: a node loss is observed, then predicted
    const nodes = await this.mgmt.nodes().catch(() => []);
    if (nodes.length > 1) {
      void this.pollNodes();
      this.timers.push(setInterval(() => void this.pollNodes(), this.opts.nodeEveryMs ?? 1000));
    }
    if (this.countsDeadLetters) {
      // the depths before the first publish: what a parking queue held already is not the trace's
      await this.sampler.sample(true);
      for (const [q, d] of this.sampler.depths) this.depthsBefore[this.back(q)] = d.ready;
    } else void this.sampler.sample();
    this.timers.push(setTimeout(() => void this.stop('complete'), this.opts.durationMs ?? 60_000));
    void (async () => {
      try {
        await this.publisher.run(testMessages(this.publisherSpec, this.opts, this.traceId));
      } catch (err) {
        this.error = String((err as Error).message);
      } finally {
        this.publishing = false;
      }
      const settleMs = this.opts.settleMs ?? 500;
      while (!this.stopping) {
        await new Promise((r) => setTimeout(r, 100));
        const quiet = this.now() - this.accounting.lastActivity >= settleMs;
        if (quiet && this.blocker() !== undefined) await this.dropVanished();
        else if (quiet) {
          // and the observation has caught up (its copies may lag behind the workers)
          const backlog = await this.observer!.backlog(this.conn).catch(() => 1);
          if (backlog > 0) continue;
          // a fresh look at the queues: one whose node went down since the last sample holds messages not yet accounted
          await this.sampler.sample(true);
          if (this.blocker() !== undefined) continue;
          await this.stop('complete');
          break;
        }
      }
    })();
  }

  async stop(state: 'complete' | 'stopped' | 'failed' = 'stopped'): Promise<TraceSummary> {
    if (this.stopping) return this.finished;
    this.stopping = true;
    for (const t of this.timers) clearTimeout(t);
    this.conn.off('connected', this.onConnected);
    this.conn.off('disconnected', this.onDisconnected);
    await Promise.all(this.workers.map((w) => w.stop()));
    await this.publisher.close();
    await this.sampler.sample(true);
    await this.observer?.teardown(this.conn.isOpen ? this.conn : undefined);
    this.hops?.stop();
    this.accounting.flush(true);
    await this.checkDeadLetterCounts();
    const blocker = this.blocker();
    if (blocker && state === 'complete') this.log.notice({ level: 'warn', code: 'duration-reached', message: `the trace ran for its whole duration; still waiting: ${blocker}`, t: this.now() });
    this.endedWaitingFor = state === 'complete' ? blocker : undefined;
    // the state changes only now, so a reader never sees a final state with stale figures
    this.state = state;
    const summary = this.summary();
    this.final = summary;
    for (const [q, n] of Object.entries(this.deadLettersDropped))
      this.log.notice({
        level: 'warn',
        code: 'dead-letters-dropped',
        message: `queue '${q}' holds ${n} message(s) fewer than the trace saw dead-lettered into it: the broker dropped them (a quorum queue dead-letters at most once by default, and a dead letter in flight while a leader moves can be lost); counted as dropped, not parked. x-dead-letter-strategy at-least-once with x-overflow reject-publish keeps them`,
        t: this.now(),
      });
    for (const [q, n] of Object.entries(this.deadLettersDuplicated))
      this.log.notice({
        level: 'warn',
        code: 'dead-letters-duplicated',
        message: `queue '${q}' holds ${n} message(s) more than the trace saw dead-lettered into it: the broker sent them twice (at-least-once dead-lettering sends a dead letter again when its confirm was lost, as in a leader move); parked counts each message once, so a consumer of '${q}' must expect duplicates`,
        t: this.now(),
      });
    for (const [q, n] of Object.entries(summary.lostWhileUnavailable))
      this.log.notice({ level: 'warn', code: 'lost-while-unavailable', message: `queue '${q}' holds ${n} message(s) fewer than the trace routed into it: dead letters routed to it while its node was down were dropped by the broker (dead-lettering is at-most-once; a quorum queue or dead-letter-strategy at-least-once keeps them)`, t: this.now() });
    // the summary is final: drop per-message bookkeeping (the event ring stays for late readers)
    this.accounting.forget();
    this.processingAttempts.clear();
    this.processedOk.clear();
    for (const w of this.workers) w.release();
    this.log.notice({ level: 'info', code: 'trace-end', message: JSON.stringify(summary), t: this.now() });
    this.log.end();
    this.resolveFinished(summary);
    return summary;
  }

  done(): Promise<TraceSummary> {
    return this.finished;
  }

  get isRunning(): boolean {
    return this.state === 'running';
  }

  summary(): TraceSummary {
    if (this.final) return this.final;
    const b = this.accounting.balance(this.live);
    const dlDropped = Object.values(this.deadLettersDropped).reduce((n, x) => n + x, 0);
    const brokerDepths: Record<string, { ready: number; unacked: number }> = {};
    for (const [q, d] of this.sampler.depths) brokerDepths[this.back(q)] = d;
    const resting = Object.fromEntries(this.accounting.resting());
    const lostWhileUnavailable: Record<string, number> = {};
    for (const q of this.unavailable.keys()) {
      const held = brokerDepths[q];
      const lost = held ? (resting[q] ?? 0) - held.ready - held.unacked : 0;
      if (lost > 0) lostWhileUnavailable[q] = lost;
    }
    const ttlWaits: Record<string, { n: number; avgMs: number; maxMs: number }> = {};
    for (const [q, w] of this.accounting.ttlWaits) ttlWaits[q] = { n: w.n, avgMs: Math.round(w.totalMs / w.n), maxMs: Math.round(w.maxMs) };
    const lat = this.log.latencies;
    return {
      id: this.traceId,
      state: this.state,
      published: b.published,
      confirmed: this.accounting.confirmed.size,
      acked: b.acked,
      parked: b.parked - dlDropped,
      inFlight: b.inFlight,
      dropped: b.dropped + dlDropped,
      balanced: b.balanced,
      unaccounted: b.unaccounted,
      ...(this.endedWaitingFor ? { endedWaitingFor: this.endedWaitingFor } : {}),
      ...(this.endReason ? { endReason: this.endReason } : {}),
      resting,
      brokerDepths,
      ttlWaits,
      events: this.log.total,
      eventCounts: { ...this.log.counts },
      outOfOrder: this.accounting.forcedOut,
      publish: { ...this.publisher.stats },
      reconnects: this.reconnects,
      cancelledConsumers: this.workers.filter((w) => w.cancelled).map((w) => w.spec.id),
      duplicates: this.duplicates,
      lostWhileUnavailable,
      ...(dlDropped > 0 ? { deadLettersDropped: { ...this.deadLettersDropped } } : {}),
      ...(Object.keys(this.deadLettersDuplicated).length > 0 ? { deadLettersDuplicated: { ...this.deadLettersDuplicated } } : {}),
      ...(this.nodeWatch.seen ? { nodeLoss: this.nodeWatch.loss(this.now())! } : {}),
      unavailable: Object.fromEntries([...this.unavailable].map(([q, o]) => [q, { ...o }])),
      latencyMs: { n: lat.length, p50: percentile(lat, 50), p95: percentile(lat, 95), p99: percentile(lat, 99) },
      ...(this.error ? { error: this.error } : {}),
    };
  }

  private keepForComparison(e: SimEvent): void {
    if (e.msgId === '' || e.kind === 'depth' || this.messageIndex(e.msgId) > MAX_PREDICTED_MESSAGES) return;
    if (this.compared.length < MAX_COMPARED_EVENTS) this.compared.push(e);
    else this.comparedTruncated = true;
  }

  /** the comparison once the trace is over (its events are let go: a kept trace stays small) */
  get finalComparison(): Comparison | undefined {
    return this.final === undefined ? undefined : this.comparison;
  }

  keepFinalComparison(c: Comparison): void {
    if (this.final === undefined) return;
    this.comparison = c;
    this.compared.length = 0;
  }

  /** the live events of the messages the prediction covers, all of them unless `truncated` */
  comparedEvents(): { events: readonly SimEvent[]; truncated: boolean } {
    return { events: this.compared, truncated: this.comparedTruncated };
  }

  /** events still in the stream's ring */
  events(): SimEvent[] {
    return this.log.events();
  }
}
