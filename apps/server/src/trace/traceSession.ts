/**
 * One live trace, start to end: reads the deployment as the broker has it, attaches the
 * observation (observer.ts, hopReporter.ts) and the design's consumers as workers (worker.ts),
 * publishes the test messages (testPublisher.ts), samples queue depths (depthSampler.ts),
 * watches the topology (topologyWatch.ts), the cluster's nodes (clusterNodeWatch.ts) and the
 * queues' availability (queueAvailability.ts); every event goes through the accounting
 * (accounting.ts), which puts each message's events in causal order and keeps its fate, and the
 * processing counts (processingCounts.ts). It settles once nothing moves, after the checks of
 * what no client sees (endOfTraceChecks.ts), and sums up (traceSummary.ts). All on the 'trace'
 * connection, re-attached after every reconnect.
 */
import { randomBytes } from 'node:crypto';
import type { ConsumeMessage } from 'amqplib';
import { type Design, type FailureModel, type PublisherSpec } from '@retry-studio/topology-core/model';
import { fateRulesOf, profileFor, queueConfig, type NodeLoss, type SimEvent } from '@retry-studio/topology-core/sim';
import type { ManagedConnection, ManagementClient } from '../broker/index.js';
import { Renamer, renameDesign, type DeployTarget } from '../deploy/deployTarget.js';
import { TraceAccounting, type EmitOptions, type Lane } from './accounting.js';
import { ClusterNodeWatch } from './clusterNodeWatch.js';
import { ComparedEvents } from './comparedEvents.js';
import { DepthSampler } from './depthSampler.js';
import { DeploymentChanges } from './deploymentChanges.js';
import { EndOfTraceChecks } from './endOfTraceChecks.js';
import { EventLog } from './eventLog.js';
import { ConnectionNotices } from './connectionNotices.js';
import { HopReporter } from './hopReporter.js';
import { headersForDisplay } from '../broker/index.js';
import { Observer, routingKeysOf } from './observer.js';
import { MAX_PREDICTED_MESSAGES, type Comparison } from './prediction.js';
import { ProcessingCounts } from './processingCounts.js';
import { QueueAvailability } from './queueAvailability.js';
import { messageIndexOf, TestPublisher, testMessages, type TestMessage } from './testPublisher.js';
import type { EventInput, TraceContext } from './traceContext.js';
import type { TraceOptions } from './traceOptions.js';
import { traceVerdict } from './traceVerdict.js';
import { traceSummary, type TraceSummary } from './traceSummary.js';
import { TopologyWatch } from './topologyWatch.js';
import { TraceWorker } from './worker.js';

export type { TraceOptions } from './traceOptions.js';
export type { TraceSummary } from './traceSummary.js';

export class TraceSession implements TraceContext {
  readonly traceId: string;
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
  private readonly processing = new ProcessingCounts((msgId) => this.messageIndex(msgId) <= MAX_PREDICTED_MESSAGES);
  private readonly compared = new ComparedEvents((msgId) => this.messageIndex(msgId));
  private readonly availability = new QueueAvailability(() => this.now());
  private readonly topologyWatch: TopologyWatch;
  private readonly nodeWatch: ClusterNodeWatch;
  private readonly checks: EndOfTraceChecks;
  private state: TraceSummary['state'] = 'running';
  private error: string | undefined;
  private endReason: string | undefined;
  private endedWaitingFor: string | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private stopping = false;
  private publishing = true;
  private final: TraceSummary | undefined;
  private readonly finished: Promise<TraceSummary>;
  private resolveFinished!: (s: TraceSummary) => void;
  private readonly connection: ConnectionNotices;
  private readonly changes: DeploymentChanges;

  constructor(
    readonly design: Design,
    readonly target: DeployTarget,
    readonly conn: ManagedConnection,
    private readonly mgmt: ManagementClient,
    /** the broker, redacted (which deployment this trace runs on) */
    readonly brokerKey: string,
    readonly opts: TraceOptions = {},
  ) {
    this.traceId = opts.traceId ?? randomBytes(6).toString('hex');
    this.renamer = new Renamer(target.prefix);
    this.real = renameDesign(design, this.renamer);
    const profile = profileFor(design.profile);
    const configs = design.topology.queues.map((q) => queueConfig(q, design.topology.policies, profile));
    // a passive declare counts a stream 0: its depth is the management API's (design names)
    const streams = new Set(configs.filter((c) => c.stream).map((c) => c.name));
    this.failure = opts.failure;
    this.seed = opts.seed ?? 1;
    const pubSpec = opts.publisher
      ? this.real.publishers.find((p) => p.id === opts.publisher)
      : this.real.publishers[0];
    if (!pubSpec)
      throw new Error(
        opts.publisher
          ? `no publisher '${opts.publisher}' in the design`
          : 'the design has no publisher to publish test messages from',
      );
    this.publisherSpec = pubSpec;
    this.mandatoryWanted = pubSpec.mandatory === true;
    this.accounting = new TraceAccounting({
      rules: fateRulesOf(design),
      now: () => this.now(),
      nextSeq: () => this.log.nextSeq(),
      out: (e, rxAt) => {
        this.log.emit(e, rxAt);
        this.compared.keep(e);
      },
    });
    this.workers = this.real.consumers.map((c) => {
      const w = new TraceWorker(c, this);
      w.onCancelled = (cancelled) => void this.changes.consumerCancelled(cancelled);
      return w;
    });
    this.publisher = new TestPublisher(conn, {
      ...(opts.ratePerSecond ? { ratePerSecond: opts.ratePerSecond } : {}),
      onPublish: (m) => this.onTestPublish(m),
      onConfirmed: (m, outcome) => {
        if (outcome === 'acked') this.accounting.confirmed.add(m.msgId);
        else
          this.emit('publisher', {
            kind: 'publish-nacked',
            msgId: m.msgId,
            body: m.body,
            queue: '',
            reason: 'overflow',
          });
      },
      onReturn: (msg) =>
        this.hops.onReturn('publisher', msg as never, { kind: 'publisher', id: pubSpec.id }, this.mandatoryWanted),
      isStopped: () => this.stopping,
    });
    this.sampler = new DepthSampler(
      this.real.topology.queues.map((q) => q.name),
      conn,
      mgmt,
      target.vhost,
      {
        isStream: (q) => streams.has(this.back(q)),
        onDepth: (q, d) => {
          this.hops?.depths.set(q, d.ready);
          this.emit('sampler', {
            kind: 'depth',
            msgId: '',
            body: '',
            queue: this.back(q),
            ready: d.ready,
            unacked: d.unacked,
          });
        },
        unacked: (q) => this.workers.filter((w) => w.spec.queue === q).reduce((n, w) => n + w.inProgress, 0),
        onMissing: (q) => this.changes.queueGone(q, `queue '${this.back(q)}' was deleted`),
        onAvailability: (q, down) =>
          down === undefined ? this.changes.queueReachable(q) : this.changes.queueUnavailable(q, down),
        onFailure: (message, first) => {
          if (first) this.log.notice({ level: 'warn', code: 'depth-sample-failed', message, t: this.now() });
        },
      },
    );
    this.changes = new DeploymentChanges({
      mgmt,
      vhost: target.vhost,
      log: this.log,
      accounting: this.accounting,
      availability: this.availability,
      workers: this.workers,
      conn,
      now: () => this.now(),
      back: this.back,
      isStopping: () => this.stopping,
      emit: (lane, e) => this.emit(lane, e),
      end: (reason) => {
        this.endReason = reason;
        void this.stop('stopped');
      },
    });
    this.topologyWatch = new TopologyWatch(mgmt, target.vhost, this.real.topology, this.back);
    this.nodeWatch = new ClusterNodeWatch(mgmt, target.vhost, this.real.topology.queues, this.back, () => this.now());
    this.checks = new EndOfTraceChecks({
      design,
      configs,
      streams,
      accounting: this.accounting,
      sampler: this.sampler,
      availability: this.availability,
      conn,
      log: this.log,
      now: () => this.now(),
      back: this.back,
      live: this.live,
      observing: () => this.observer !== undefined,
      observerBacklog: () => this.observer!.backlog(this.conn).catch(() => 1),
      isStopping: () => this.stopping,
      dropVanished: (queue, msgId) => this.emit('broker', { kind: 'dropped', msgId, body: '', why: 'vanished', queue }),
      vanishAfterMs: opts.vanishAfterMs ?? 3000,
      depthEveryMs: opts.depthEveryMs ?? 1000,
    });
    this.connection = new ConnectionNotices(
      conn,
      this.log,
      () => this.now(),
      () => this.attach(),
      (detail) => this.connectionGone(detail),
    );
    this.finished = new Promise((r) => (this.resolveFinished = r));
  }

  // ------------------------------------------------------------ TraceContext

  now(): number {
    return Math.round((performance.now() - this.startedAt) * 1000) / 1000;
  }
  back = (name: string): string => this.renamer.back(name);

  emit(lane: Lane, e: EventInput, opts: EmitOptions = {}): void {
    if (e.kind === 'processed' && e.ok) this.processing.processed(e.msgId, e.queue);
    this.accounting.add(lane, e, opts);
  }

  beforeDelivery(msg: ConsumeMessage, msgId: string, realQueue: string, rxAt: number): void {
    // the copy's observation can lag the delivery in a burst: the delivery shows the same pass
    if (!this.observer || !this.accounting.awaitsCopy(msgId, this.back(realQueue))) return;
    const entry = msg.fields.exchange;
    const mirror = entry === '' ? undefined : this.observer.mirrorOf(entry, routingKeysOf(msg));
    if (mirror) this.hops.passBeforeCopy({ exchange: entry, mirror: mirror.queue, msg, rxAt }, realQueue);
  }

  nextProcessingAttempt(msgId: string): number {
    return this.processing.nextAttempt(msgId);
  }

  messageIndex(msgId: string): number {
    return messageIndexOf(msgId);
  }

  /** the messages behind the summary's `duplicates` that the prediction covers (the comparison flags them) */
  get duplicateIds(): ReadonlySet<string> {
    return this.processing.duplicateIds;
  }

  // ------------------------------------------------------------ topology changes

  /** the connection will not come back (reconnects refused): the trace ends failed now, not at its duration */
  private connectionGone(detail: string): void {
    if (this.stopping) return;
    const { reason } = traceVerdict({
      ...this.publisher.stats,
      requested: 'complete',
      asked: this.asked,
      connectionOpen: false,
      connectionError: detail,
    });
    this.endReason = reason;
    this.log.notice({ level: 'error', code: 'trace-failed', message: reason!, t: this.now() });
    void this.stop('failed');
  }

  private async watchTopology(): Promise<void> {
    if (this.stopping) return;
    const changes = await this.topologyWatch.changes();
    if (changes.length > 0 && !this.stopping) this.changes.topologyChanged(changes);
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
    this.hops.beforePublish(
      'publisher',
      m.msgId,
      m.body,
      m.exchange,
      m.routingKey,
      m.options.expiration === undefined ? undefined : String(m.options.expiration),
      m.options.headers,
    );
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
    const down = this.availability.blocker();
    if (down) return down;
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
    const brokerTopology = await this.topologyWatch.start();
    this.observer = new Observer(brokerTopology, this.traceId, (c) => this.hops.onCopy(c));
    this.hops = new HopReporter(
      brokerTopology,
      this.design.profile,
      new Set(this.observer.mirrors.map((m) => m.exchange)),
      new Set(this.real.consumers.map((c) => c.queue)),
      this,
    );
    this.connection.listen();
    await this.attach();
    this.timers.push(setInterval(() => void this.sampler.sample(), this.opts.depthEveryMs ?? 1000));
    this.timers.push(setInterval(() => void this.watchTopology(), this.opts.topologyEveryMs ?? 2000));
    this.timers.push(setInterval(() => this.accounting.flush(), 250));
    // on a cluster, watch the nodes and the leaders: a node loss is observed, then predicted
    await this.nodeWatch.start(this.opts.nodeEveryMs ?? 1000);
    if (this.checks.countsDeadLetters) await this.checks.takeDepthsBefore();
    else void this.sampler.sample();
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
        if (quiet && this.blocker() !== undefined) await this.checks.dropVanished();
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
    this.nodeWatch.stop();
    this.connection.stop();
    await Promise.all(this.workers.map((w) => w.stop()));
    await this.publisher.close();
    await this.sampler.sample(true);
    await this.observer?.teardown(this.conn.isOpen ? this.conn : undefined);
    this.hops?.stop();
    this.accounting.flush(true);
    await this.checks.countDeadLetters(this.publisher.stats.retried > 0 || this.connection.reconnects > 0);
    const blocker = this.blocker();
    if (blocker && state === 'complete')
      this.log.notice({
        level: 'warn',
        code: 'duration-reached',
        message: `the trace ran for its whole duration; still waiting: ${blocker}`,
        t: this.now(),
      });
    this.endedWaitingFor = state === 'complete' ? blocker : undefined;
    const stats = this.publisher.stats;
    const verdict = traceVerdict({
      requested: state,
      asked: this.asked,
      published: stats.published,
      confirmed: stats.confirmed,
      nacked: stats.nacked,
      connectionOpen: this.conn.isOpen,
      connectionError: this.connection.lastError,
      publishError: this.publisher.lastError,
    });
    if (verdict.reason) {
      this.endReason = this.endReason ?? verdict.reason;
      this.log.notice({ level: 'error', code: `trace-${verdict.state}`, message: verdict.reason, t: this.now() });
    }
    // the state changes only now, so a reader never sees a final state with stale figures
    this.state = verdict.state;
    const summary = this.summary();
    this.final = summary;
    this.checks.endNotices(summary.lostWhileUnavailable);
    // the summary is final: drop per-message bookkeeping (the event ring stays for late readers)
    this.accounting.forget();
    this.processing.forget();
    for (const w of this.workers) w.release();
    this.log.notice({ level: 'info', code: 'trace-end', message: JSON.stringify(summary), t: this.now() });
    this.log.end();
    this.resolveFinished(summary);
    return summary;
  }

  /** messages the trace was asked to publish */
  get asked(): number {
    return this.opts.messages ?? 1;
  }

  done(): Promise<TraceSummary> {
    return this.finished;
  }

  get isRunning(): boolean {
    return this.state === 'running';
  }

  summary(): TraceSummary {
    if (this.final) return this.final;
    const resting = Object.fromEntries(this.accounting.resting());
    const brokerDepths: Record<string, { ready: number; unacked: number }> = {};
    for (const [q, d] of this.sampler.depths) brokerDepths[this.back(q)] = d;
    return traceSummary({
      id: this.traceId,
      state: this.state,
      asked: this.asked,
      balance: this.accounting.balance(this.live),
      accounting: this.accounting,
      resting,
      brokerDepths,
      log: this.log,
      publish: this.publisher.stats,
      reconnects: this.connection.reconnects,
      cancelledConsumers: this.workers.filter((w) => w.cancelled).map((w) => w.spec.id),
      duplicates: this.processing.duplicates,
      unavailable: this.availability.snapshot(),
      lostWhileUnavailable: this.availability.lostWhileUnavailable(resting, brokerDepths),
      deadLettersDropped: this.checks.deadLettersDropped,
      deadLettersDuplicated: this.checks.deadLettersDuplicated,
      nodeLoss: this.nodeWatch.loss(this.now()),
      endedWaitingFor: this.endedWaitingFor,
      endReason: this.endReason,
      error: this.error,
    });
  }

  /** the comparison once the trace is over (its events are let go: a kept trace stays small) */
  get finalComparison(): Comparison | undefined {
    return this.final === undefined ? undefined : this.compared.final;
  }

  keepFinalComparison(c: Comparison): void {
    if (this.final === undefined) return;
    this.compared.keepFinal(c);
  }

  /** the live steps of the messages the prediction covers, all of them unless `truncated` */
  comparedMilestones(): ReturnType<ComparedEvents['milestones']> {
    return this.compared.milestones();
  }

  /** events still in the stream's ring */
  events(): SimEvent[] {
    return this.log.events();
  }
}
