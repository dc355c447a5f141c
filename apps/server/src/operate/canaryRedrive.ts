/**
 * Canary re-drive (issue 23): the selection moves in batches (N, 2N, 4N, ... up to the rate),
 * each a `RedriveJob` with a limit (so each batch is as crash-safe as any re-drive), and each
 * judged by the core's `judgeBatch` before the next one starts. Judged by the consumers, not by
 * us: the destination queues are never consumed nor browsed, only their depths read (passive
 * declare); what dies again is seen by a tap, a private queue bound like the source dead-letter
 * queue (and the design's parking queues), so the dead-letter queue itself is not read either.
 * A dead-letter queue fed through the default exchange cannot be tapped: its depth counts instead.
 * A copy is ours by its re-drive marker's time (`isCopyBack`). When a batch is judged a failure
 * the job stops: the rest of the selection stays in the queue, untouched.
 */
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import {
  canaryBatchSize,
  checkCanaryOptions,
  CLI_CANARY_NAMES,
  type CanaryOptionNames,
  designFromBroker,
  isCopyBack,
  judgeBatch,
  type BatchVerdict,
  type CanaryBatchReport,
  type CanaryOptions,
  type CanaryProgress,
  type CanaryStatus,
  type ReturnedCopy,
} from '@retry-studio/topology-core/operate';
import { openConnection } from '../broker/index.js';
import { deadLetterFromAmqp } from './deadLetterFromAmqp.js';
import { OperateError, type OperateTarget } from './operateTarget.js';
import { readSnapshot } from './readSnapshot.js';
import { dryRunRedrive, startRedrive, type RedriveRequest, type RedriveTuning } from './redrive.js';
import type { RedriveJob } from './redriveJob.js';

const POLL_MS = 100;
const MAX_LISTED = 200;

interface BatchState {
  index: number;
  size: number;
  moved: number;
  back: number;
  waiting: number;
  through: number;
  startedAt: number;
  movedAt: number | undefined;
  verdict: Exclude<BatchVerdict, { kind: 'watching' }> | undefined;
  verdictMs: number | undefined;
}

export class CanaryRedrive extends EventEmitter {
  readonly id = randomUUID().slice(0, 8);
  private status: CanaryStatus = 'running';
  private phase: CanaryProgress['phase'] = 'moving';
  private selection = 0;
  private readonly batches: BatchState[] = [];
  private readonly returned: ReturnedCopy[] = [];
  /** returned copies seen by the tap, by their marker time (matched to a batch by its window) */
  private readonly tapped: { at: number; copy: Omit<ReturnedCopy, 'batch'> }[] = [];
  private stopReason: string | undefined;
  private error: string | undefined;
  private job: RedriveJob | undefined;
  private cancelled = false;
  private conn: ChannelModel | undefined;
  private ch: Channel | undefined;
  /** watched queues no tap can see (fed through the default exchange): counted by depth */
  private depthWatched: string[] = [];
  private readonly tapBindings: { source: string; key: string; args: Record<string, unknown> }[] = [];
  /** the watch connection was lost at some point of the current batch */
  private watchGap = false;
  private destinations: string[] = [];
  private readonly t0 = performance.now();
  readonly done: Promise<CanaryProgress>;
  private resolveDone!: (p: CanaryProgress) => void;

  constructor(
    private readonly t: OperateTarget,
    private readonly request: RedriveRequest,
    readonly canary: CanaryOptions,
    private readonly tuning: RedriveTuning = {},
  ) {
    super();
    this.on('error', () => undefined);
    this.done = new Promise((r) => (this.resolveDone = r));
  }

  get queue(): string {
    return this.request.queue;
  }

  get isRunning(): boolean {
    return this.status === 'running';
  }

  /**
   * Checks the options against the selection (the dry run's count: what the re-drive would
   * move), opens the watch, then runs the batches in the background. Rejects with an
   * OperateError naming the option.
   */
  async start(conn: ChannelModel, names: CanaryOptionNames = CLI_CANARY_NAMES): Promise<void> {
    const { plan, browse } = await dryRunRedrive(this.t, conn, this.request);
    // the dry run reads at most MAX_BROWSE: beyond it, the unread count as selected (an upper bound
    // with a filter: the last batch then moves fewer than asked, which ends the run)
    const unread = Math.max(0, browse.depth - browse.messages.length);
    this.selection = Math.min(this.request.limit ?? Number.MAX_SAFE_INTEGER, plan.moved + unread);
    const errors = checkCanaryOptions(this.canary, this.selection, names);
    if (errors[0]) throw new OperateError(errors[0].message, errors[0].option.replace(/^--/, ''));
    this.destinations = [...new Set(plan.items.flatMap((i) => (i.decision.kind === 'move' ? i.decision.queues : [])))];
    await this.openWatch();
    void this.run();
  }

  async cancel(): Promise<CanaryProgress> {
    if (this.isRunning) {
      this.cancelled = true;
      await this.job?.cancel();
    }
    return this.done;
  }

  progress(): CanaryProgress {
    const sum = (k: 'moved' | 'back' | 'waiting' | 'through'): number => this.batches.reduce((a, b) => a + b[k], 0);
    const moved = sum('moved');
    return {
      id: this.id,
      queue: this.queue,
      status: this.status,
      phase: this.phase,
      batch: this.batches.length,
      selection: this.selection,
      moved,
      through: sum('through'),
      back: sum('back'),
      waiting: sum('waiting'),
      untouched: Math.max(0, this.selection - moved),
      batches: this.batches.map((b): CanaryBatchReport => ({
        index: b.index,
        size: b.size,
        moved: b.moved,
        through: b.through,
        back: b.back,
        waiting: b.waiting,
        ...(b.verdict ? { verdict: b.verdict } : {}),
        ...(b.verdictMs !== undefined ? { verdictMs: b.verdictMs } : {}),
        ...(b.movedAt !== undefined ? { moveMs: Math.round(b.movedAt - b.startedAt) } : {}),
      })),
      returned: [...this.returned],
      ...(this.stopReason ? { stopReason: this.stopReason } : {}),
      watchedBy: this.depthWatched.length > 0 ? 'depth' : 'tap',
      ...(this.error ? { error: this.error } : {}),
      elapsedMs: Math.round(performance.now() - this.t0),
    };
  }

  // ---------------------------------------------------------------- the watch

  /** a tap bound like every watched dead-letter queue; what cannot be tapped is counted by depth */
  private async openWatch(): Promise<void> {
    const snap = await readSnapshot(this.t);
    const imported = designFromBroker(snap);
    const parking = imported.ok
      ? Object.entries(imported.roles)
          .filter(([q, r]) => r === 'parking' && q !== this.queue)
          .map(([q]) => q)
      : [];
    const streams = new Set(snap.queues.filter((q) => q.type === 'stream').map((q) => q.name));
    for (const q of [this.queue, ...parking.filter((p) => !streams.has(p))]) {
      const bs = snap.bindings.filter((x) => x.destination === q && x.destination_type === 'queue' && x.source !== '');
      if (bs.length === 0) this.depthWatched.push(q);
      for (const x of bs) this.tapBindings.push({ source: x.source, key: x.routing_key, args: x.arguments ?? {} });
    }
    await this.connectWatch();
  }

  private async connectWatch(): Promise<void> {
    const conn = await openConnection(this.t.url, { purpose: 'operate', label: `canary-${this.id}-watch` });
    conn.on('error', () => undefined);
    this.conn = conn;
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    const tap = (await ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false })).queue;
    for (const x of this.tapBindings) await ch.bindQueue(tap, x.source, x.key, x.args);
    await ch.consume(tap, (m) => m && this.onTapped(m), { noAck: true });
    this.ch = ch;
    // a lost watch: the tap misses what dies meanwhile, so the batch watched then counts the source's depth too
    conn.on('close', () => {
      if (this.conn !== conn) return;
      this.ch = undefined;
      this.watchGap = true;
    });
  }

  /** the watch back within the reconnect time (60 s), or an error */
  private async watchChannel(): Promise<Channel> {
    for (const end = Date.now() + (this.tuning.reconnectMs ?? 60_000); !this.ch;) {
      try {
        await this.connectWatch();
      } catch (err) {
        if (Date.now() > end)
          throw new Error(`the canary's watch connection did not come back: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    return this.ch;
  }

  private onTapped(m: ConsumeMessage): void {
    const dl = deadLetterFromAmqp(m, 0);
    const headers = dl.headers;
    if (!isCopyBack(headers, 0)) return;
    const death = dl.xDeath[0];
    this.tapped.push({
      at: headers['x-redrive-last-at-ms'] as number,
      copy: {
        ...(dl.properties?.messageId ? { messageId: dl.properties.messageId } : {}),
        body: dl.body.slice(0, 200),
        queue: death?.queue ?? '?',
        reason: death?.reason ?? '?',
        redriveCount: headers['x-redrive-count'] as number,
      },
    });
  }

  private async depthOf(queues: readonly string[]): Promise<number> {
    if (queues.length === 0) return 0;
    for (;;) {
      const ch = await this.watchChannel();
      try {
        let n = 0;
        for (const q of queues) n += (await ch.checkQueue(q)).messageCount;
        return n;
      } catch (err) {
        if (this.ch === ch && !/closed|ended/i.test(String((err as Error).message))) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  // ---------------------------------------------------------------- the batches

  private async run(): Promise<void> {
    try {
      for (let index = this.canary.fromBatch ?? 0; !this.cancelled; index++) {
        const moved = this.batches.reduce((a, b) => a + b.moved, 0);
        const size = canaryBatchSize(this.canary, index, this.selection - moved);
        if (size <= 0) break;
        const b = await this.runBatch(index, size);
        if (this.cancelled) break;
        if (b.verdict?.kind === 'stop') {
          this.stopReason = `batch ${index + 1}: ${b.verdict.reason}`;
          return this.finish('stopped');
        }
        // fewer moved than asked: nothing more of the selection could move (skipped, or gone)
        if (b.moved < size) break;
      }
      this.stopReason ??= this.cancelled
        ? 'cancelled'
        : `done: ${this.progress().moved} of ${this.selection} moved, every batch judged through`;
      return this.finish(this.cancelled ? 'cancelled' : 'done');
    } catch (err) {
      this.error = (err as Error).message ?? String(err);
      return this.finish('failed');
    }
  }

  private async runBatch(index: number, size: number): Promise<BatchState> {
    const b: BatchState = {
      index,
      size,
      moved: 0,
      back: 0,
      waiting: 0,
      through: 0,
      startedAt: performance.now(),
      movedAt: undefined,
      verdict: undefined,
      verdictMs: undefined,
    };
    this.batches.push(b);
    this.phase = 'moving';
    this.emit('progress', this.progress());
    const destBefore = await this.depthOf(this.destinations);
    const watchedBefore = await this.depthOf(this.depthWatched);
    const sourceBefore = await this.depthOf([this.queue]);
    this.watchGap = false;
    const since = Date.now();
    // a batch whose re-drive failed (a side not back in time) goes on with what it did not move: from the last verdict, not from scratch
    for (let attempt = 0; b.moved < size && !this.cancelled; attempt++) {
      this.job = await startRedrive(this.t, { ...this.request, limit: size - b.moved }, this.tuning);
      const p = await this.job.done;
      this.job = undefined;
      b.moved += p.moved;
      if (p.status !== 'failed') break;
      if (attempt >= 2)
        throw new Error(
          `batch ${index + 1}: ${p.error ?? 'the re-drive failed'} (${b.moved} of ${size} moved; re-run with --canary-from-batch ${index + 1})`,
        );
      await new Promise((r) => setTimeout(r, 1000));
    }
    const until = Date.now();
    b.movedAt = performance.now();
    if (this.cancelled || b.moved === 0) return b;
    this.phase = 'watching';
    this.emit('progress', this.progress());
    for (;;) {
      const fromTap = this.tapped.filter((x) => x.at >= since && x.at <= until);
      // a depth-watched queue: the source lost `moved` to the batch; anything above that came back
      const depthNow = await this.depthOf(this.depthWatched);
      const sourceDepthWatched = this.depthWatched.includes(this.queue);
      const byDepth = Math.max(0, depthNow - (watchedBefore - (sourceDepthWatched ? b.moved : 0)));
      // the tap was down for a while: what the source's depth says came back, if more
      const bySource = this.watchGap ? Math.max(0, (await this.depthOf([this.queue])) - (sourceBefore - b.moved)) : 0;
      b.back = Math.min(b.moved, Math.max(fromTap.length + byDepth, bySource));
      b.waiting = Math.min(b.moved - b.back, Math.max(0, (await this.depthOf(this.destinations)) - destBefore));
      const v = judgeBatch(
        { moved: b.moved, back: b.back, waiting: b.waiting, sinceMovedMs: performance.now() - b.movedAt },
        this.canary,
      );
      if (v.kind !== 'watching' || this.cancelled) {
        if (v.kind !== 'watching') b.verdict = v;
        b.verdictMs = Math.round(performance.now() - b.startedAt);
        b.through = v.kind === 'continue' ? v.through : Math.max(0, b.moved - b.back - b.waiting);
        for (const x of fromTap)
          if (this.returned.length < MAX_LISTED) this.returned.push({ batch: index + 1, ...x.copy });
        return b;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  private async finish(status: Exclude<CanaryStatus, 'running'>): Promise<void> {
    this.status = status;
    this.phase = 'finished';
    await this.conn?.close().catch(() => undefined);
    const p = this.progress();
    this.emit('progress', p);
    this.resolveDone(p);
  }
}

/** Starts a canary re-drive; errors name the option (`canary`, `canary-wait-ms`, `max-refail`) or the field, their messages in the user's `names` (the CLI's flags, the form's fields). */
export async function startCanaryRedrive(
  t: OperateTarget,
  conn: ChannelModel,
  r: RedriveRequest,
  canary: CanaryOptions,
  tuning: RedriveTuning = {},
  names: CanaryOptionNames = CLI_CANARY_NAMES,
): Promise<CanaryRedrive> {
  const opts: CanaryOptions = {
    ...canary,
    ...(canary.maxBatch === undefined && r.ratePerSecond !== undefined
      ? { maxBatch: Math.max(1, Math.floor(r.ratePerSecond)) }
      : {}),
  };
  const job = new CanaryRedrive(t, r, opts, tuning);
  await job.start(conn, names);
  return job;
}
