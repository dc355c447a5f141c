/**
 * The checks that make a trace end with what the broker did, where no client sees an event:
 * - quiet, yet still waiting: copies the trace counts in a queue the broker holds empty are gone
 *   (purged, taken outside the trace, or lost by the broker; vanishedCopies.ts). They are dropped
 *   by name, with a notice;
 * - at the end: each parking queue's exact count (passive declare, less what it held before the
 *   first publish) against what the trace parked there (deadLetterCounts.ts). Where quorum queues
 *   dead-letter at most once, the broker may hold fewer (dropped); at least once, or after a
 *   publish or republish was sent again (a lost confirm, a connection loss), more (sent twice).
 *   Counted, and said in a notice.
 */
import type { Design } from '@retry-studio/topology-core/model';
import type { QueueConfig } from '@retry-studio/topology-core/sim';
import type { ManagedConnection } from '../broker/index.js';
import type { TraceAccounting } from './accounting.js';
import { deadLetterDifference, quorumDeadLetterSources } from './deadLetterCounts.js';
import type { DepthSampler } from './depthSampler.js';
import type { EventLog } from './eventLog.js';
import type { QueueAvailability } from './queueAvailability.js';
import { VanishedCopies } from './vanishedCopies.js';

/** at most this many queues are counted by passive declares (the sampler's own limit) */
const MAX_COUNTED_QUEUES = 200;

export interface EndOfTraceDeps {
  readonly design: Design;
  /** the design's queues with their effective settings (design names) */
  readonly configs: readonly QueueConfig[];
  /** the design's streams (design names): their count is the management API's, a statistics interval late */
  readonly streams: ReadonlySet<string>;
  readonly accounting: TraceAccounting;
  readonly sampler: DepthSampler;
  readonly availability: QueueAvailability;
  readonly conn: ManagedConnection;
  readonly log: EventLog;
  now(): number;
  /** broker name -> design name */
  back(name: string): string;
  /** a copy in this (design-named) queue is still moving: a running consumer or a TTL */
  live(queue: string): boolean;
  /** the observation is attached (the trace started) */
  observing(): boolean;
  /** copies the observation has not reported yet (1 when it cannot tell) */
  observerBacklog(): Promise<number>;
  isStopping(): boolean;
  /** a copy the broker no longer holds */
  dropVanished(queue: string, msgId: string): void;
  /** a queue the broker holds empty while the trace counts copies there, and nothing moves, for this long: they are gone (ms) */
  readonly vanishAfterMs: number;
  /** the sampling interval (ms): the vanished check runs no more often */
  readonly depthEveryMs: number;
}

export class EndOfTraceChecks {
  private readonly vanished = new VanishedCopies();
  private vanishCheckedAt = -Infinity;
  /** design queue -> the longest a message waits out a 4.3 delayed retry there (the broker does not count it meanwhile) */
  private readonly longestDelayMs: ReadonlyMap<string, number>;
  /** the design's quorum queues that dead-letter, by strategy: their parking queues are counted at the end */
  private readonly deadLetterSources: ReturnType<typeof quorumDeadLetterSources>;
  /** each queue's ready count before the first publish (design names): a parking queue may hold older messages */
  private readonly depthsBefore: Record<string, number> = {};
  /** per parking queue, dead letters the broker dropped */
  deadLettersDropped: Record<string, number> = {};
  /** per parking queue, dead letters the broker holds twice */
  deadLettersDuplicated: Record<string, number> = {};

  constructor(private readonly d: EndOfTraceDeps) {
    // a 4.3 delayed-retry queue's longest wait (min x delivery count, capped by max; 20 deliveries when unlimited)
    this.longestDelayMs = new Map(
      d.configs.flatMap((c) =>
        c.delayedRetry
          ? [[c.name, c.delayedRetry.maxMs ?? c.delayedRetry.minMs * (c.deliveryLimit ?? 20)] as const]
          : [],
      ),
    );
    this.deadLetterSources = quorumDeadLetterSources(d.design);
  }

  /** parking queues are counted at the end (and their depths taken at the start): few enough queues for passive declares */
  get countsDeadLetters(): boolean {
    return this.d.design.topology.queues.length <= MAX_COUNTED_QUEUES;
  }

  /** Before the first publish: what a parking queue held already is not the trace's. */
  async takeDepthsBefore(): Promise<void> {
    await this.d.sampler.sample(true);
    for (const [q, dep] of this.d.sampler.depths) this.depthsBefore[this.d.back(q)] = dep.ready;
  }

  /**
   * Quiet, yet still waiting: drops by name the copies of every queue the broker has held empty,
   * with nothing moving, for the grace time.
   */
  async dropVanished(): Promise<void> {
    const d = this.d;
    if (d.design.topology.queues.length > MAX_COUNTED_QUEUES || !d.conn.isOpen || !d.observing()) return;
    // at the sampling pace: a long wait in a TTL queue is quiet too
    if (d.now() - this.vanishCheckedAt < d.depthEveryMs) return;
    this.vanishCheckedAt = d.now();
    const activity = d.accounting.lastActivity;
    // the observation has caught up, and the counts are taken after the last event
    if ((await d.observerBacklog()) > 0) return;
    if (!(await d.sampler.sample(true)) || d.isStopping() || d.accounting.lastActivity !== activity) return;
    const traced = new Map(
      [...d.accounting.resting()].filter(([q]) => d.live(q) && !this.d.streams.has(q) && !d.availability.isDown(q)),
    );
    const held = new Map([...d.sampler.depths].map(([q, dep]) => [d.back(q), dep.ready]));
    const gone = this.vanished.check({
      now: d.now(),
      lastActivity: activity,
      traced,
      held,
      graceMs: (q) => this.vanishGraceMs(q),
    });
    for (const q of gone) {
      const copies = d.accounting.messagesIn(q);
      const n = copies.reduce((x, m) => x + m.copies, 0);
      const names = copies.slice(0, 5).map((m) => m.msgId);
      d.log.notice({
        level: 'warn',
        code: 'copies-vanished',
        message:
          `queue '${q}' has held none of the ${n} message(s) the trace counted there (${names.join(', ')}${copies.length > names.length ? ', ...' : ''}) for ${Math.round(this.vanishGraceMs(q) / 100) / 10} s while nothing moved: ` +
          'they left without an event a client sees (the queue purged, a client outside the trace took them, or the broker lost them: a quorum queue dead-letters at most once, and a dead letter in flight while a leader moves can vanish); counted dropped',
        t: d.now(),
      });
      for (const { msgId, copies: k } of copies) for (let i = 0; i < k; i++) d.dropVanished(q, msgId);
    }
  }

  /** how long a queue the broker holds empty must stay so: a 4.3 delayed-retry queue does not count a message waiting out its delay */
  private vanishGraceMs(queue: string): number {
    return this.d.vanishAfterMs + (this.longestDelayMs.get(queue) ?? 0);
  }

  /**
   * At the end: the parking queues' counts against what the trace parked there. `resent`: a
   * publish or a worker's republish was sent again (a lost confirm, a reconnect), so a parking
   * queue may hold a message twice whatever the queue type.
   */
  async countDeadLetters(resent = false): Promise<void> {
    const d = this.d;
    const sources = this.deadLetterSources;
    if (!this.countsDeadLetters || !d.conn.isOpen) return;
    const counts = () => {
      const parked = new Map([...d.accounting.resting()].filter(([q]) => !d.live(q)));
      const held: Record<string, { ready: number; unacked: number }> = {};
      for (const [q, dep] of d.sampler.depths) held[d.back(q)] = dep;
      // a stream's count comes from the management API, a statistics interval late: it proves nothing
      const { short, over } = deadLetterDifference(
        parked,
        held,
        this.depthsBefore,
        new Set([...d.availability.queues(), ...this.d.streams]),
      );
      // only what each strategy explains: at most once drops, at least once sends again
      return {
        short: sources.atMostOnce.length > 0 ? short : {},
        over: sources.atLeastOnce.length > 0 || resent ? over : {},
      };
    };
    let c = counts();
    if (Object.keys(c.short).length === 0 && Object.keys(c.over).length === 0) return;
    // a last dead letter may still be on its way into the queue: look again once
    await new Promise((r) => setTimeout(r, 1000));
    await d.sampler.sample(true);
    c = counts();
    this.deadLettersDropped = c.short;
    this.deadLettersDuplicated = c.over;
  }

  /** The notices of what the broker dropped or sent twice, once the summary is final. */
  endNotices(lostWhileUnavailable: Readonly<Record<string, number>>): void {
    const { log, now } = this.d;
    for (const [q, n] of Object.entries(this.deadLettersDropped))
      log.notice({
        level: 'warn',
        code: 'dead-letters-dropped',
        message: `queue '${q}' holds ${n} message(s) fewer than the trace saw dead-lettered into it: the broker dropped them (a quorum queue dead-letters at most once by default, and a dead letter in flight while a leader moves can be lost); counted as dropped, not parked. x-dead-letter-strategy at-least-once with x-overflow reject-publish keeps them`,
        t: now(),
      });
    for (const [q, n] of Object.entries(this.deadLettersDuplicated))
      log.notice({
        level: 'warn',
        code: 'dead-letters-duplicated',
        message: `queue '${q}' holds ${n} message(s) more than the trace saw parked there: they were sent twice (at-least-once: a publish, republish or dead letter is sent again when its confirm was lost, in a connection loss or a leader move); parked counts each message once and duplicates counts these, so a consumer of '${q}' must expect duplicates`,
        t: now(),
      });
    for (const [q, n] of Object.entries(lostWhileUnavailable))
      log.notice({
        level: 'warn',
        code: 'lost-while-unavailable',
        message: `queue '${q}' holds ${n} message(s) fewer than the trace routed into it: dead letters routed to it while its node was down were dropped by the broker (dead-lettering is at-most-once; a quorum queue or dead-letter-strategy at-least-once keeps them)`,
        t: now(),
      });
  }
}
