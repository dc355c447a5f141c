/**
 * Weighted queue depths during a rehearsal (a cohort counts as its messages): each queue's depth
 * (ready + unacked, as the broker's `messages`; the copies are the copy ledger's, the tally passes
 * on their changes), its peak, a series sampled every `sampleMs`, and when it came back to its
 * steady depth after the last outage (drainMs).
 */
export interface DepthSeries {
  /** sample instants, ms */
  readonly t: number[];
  readonly depth: number[];
}

/** told every depth change: the queue, by how much (weighted), at which instant */
export type DepthListener = (queue: string, dw: number, t: number) => void;

export interface QueueTrack {
  readonly name: string;
  depth: number;
  peak: number;
  peakAt: number;
  readonly series: DepthSeries;
  /** the highest depth before the first outage: its steady depth */
  steady: number;
  above: boolean;
  /** when it last came back to its steady depth after the last outage ended */
  drainedAt: number;
  /** a TTL applied here (a wait queue): on a retry path though it has no consumer */
  timed: boolean;
}

/** a depth within this much of the steady one counts as steady (cohort weights are fractions) */
const EPS = 1e-6;

export class QueueDepths {
  readonly tracks = new Map<string, QueueTrack>();
  private nextSample = 0;
  private steadyFrozen = false;
  /** the instant whose changes are not settled yet */
  private instant = 0;
  /** queues changed in that instant */
  private readonly dirty = new Set<QueueTrack>();

  constructor(
    queues: readonly string[],
    private readonly sampleMs: number,
    /** the first outage's start (steady depths are measured before it); Infinity without outages */
    private readonly steadyUntil: number,
    /** the last outage's end */
    private readonly drainFrom: number,
    private readonly listener?: DepthListener,
  ) {
    for (const name of queues) this.track(name);
  }

  private track(name: string): QueueTrack {
    let q = this.tracks.get(name);
    if (!q) {
      q = {
        name,
        depth: 0,
        peak: 0,
        peakAt: 0,
        series: { t: [], depth: [] },
        steady: 0,
        above: false,
        drainedAt: 0,
        timed: false,
      };
      this.tracks.set(name, q);
    }
    return q;
  }

  /** settle the instant before `t` and take the samples due before `t` (call before applying an event at `t`) */
  advance(t: number): void {
    if (t > this.instant) {
      for (const q of this.dirty) this.settle(q, this.instant);
      this.dirty.clear();
      this.instant = t;
    }
    if (!this.steadyFrozen && t >= this.steadyUntil) this.steadyFrozen = true;
    while (this.nextSample < t) {
      for (const q of this.tracks.values()) {
        q.series.t.push(this.nextSample);
        q.series.depth.push(q.depth);
      }
      this.nextSample += this.sampleMs;
    }
  }

  markTimed(queue: string): void {
    this.track(queue).timed = true;
  }

  /** the queue's copies changed by `dw` (weighted) */
  change(queue: string, dw: number): void {
    const q = this.track(queue);
    q.depth += dw;
    this.dirty.add(q);
    this.listener?.(q.name, dw, this.instant);
  }

  /**
   * A depth counts once its instant is over: a message enqueued and delivered and acked within
   * one instant (processing 0) never stood in the queue, and no broker sample would see it.
   */
  private settle(q: QueueTrack, t: number): void {
    if (q.depth > q.peak + EPS) {
      q.peak = q.depth;
      q.peakAt = t;
    }
    if (!this.steadyFrozen) {
      if (q.depth > q.steady) q.steady = q.depth;
      return;
    }
    const above = q.depth > q.steady + EPS;
    if (q.above && !above && t >= this.drainFrom) q.drainedAt = t;
    q.above = above;
  }

  /** the last samples up to `endT` */
  finish(endT: number): void {
    this.advance(endT + 1e-9);
  }
}
