/**
 * Where each traced message (copy) is, from the events we emit: enqueued +1, delivered -1,
 * requeued +1, expired / dead-lettered -1. Counting (instead of a state machine) keeps it
 * right when the observation of an arrival comes after the worker's delivery.
 */
export interface RestingInfo {
  readonly queue: string;
  readonly count: number;
}

export class MessageTracker {
  private readonly where = new Map<string, Map<string, number>>();
  readonly published = new Set<string>();
  readonly confirmed = new Set<string>();
  readonly ackedFinal = new Set<string>();
  readonly dropped = new Map<string, string>();
  /** the queue each message entered last, and when (wall ms since start) */
  private readonly enteredAt = new Map<string, { queue: string; t: number }>();
  readonly ttlWaits = new Map<string, { n: number; totalMs: number; maxMs: number }>();
  lastActivity = 0;

  private bump(msgId: string, queue: string, d: number): void {
    let m = this.where.get(msgId);
    if (!m) {
      m = new Map();
      this.where.set(msgId, m);
    }
    const n = (m.get(queue) ?? 0) + d;
    if (n === 0) m.delete(queue);
    else m.set(queue, n);
    if (m.size === 0) this.where.delete(msgId);
  }

  enqueued(msgId: string, queue: string, t: number): void {
    this.bump(msgId, queue, 1);
    this.enteredAt.set(`${msgId}|${queue}`, { queue, t });
    this.lastActivity = t;
  }
  delivered(msgId: string, queue: string, t: number): void {
    this.bump(msgId, queue, -1);
    this.enteredAt.delete(`${msgId}|${queue}`);
    this.lastActivity = t;
  }
  requeued(msgId: string, queue: string, t: number): void {
    this.bump(msgId, queue, 1);
    this.lastActivity = t;
  }
  /** left `queue` by dead-lettering (reason expired: record the time it waited) */
  left(msgId: string, queue: string, t: number, expired: boolean): void {
    this.bump(msgId, queue, -1);
    this.lastActivity = t;
    const e = this.enteredAt.get(`${msgId}|${queue}`);
    if (expired && e) {
      const w = this.ttlWaits.get(queue) ?? { n: 0, totalMs: 0, maxMs: 0 };
      const ms = Math.max(0, t - e.t);
      w.n += 1;
      w.totalMs += ms;
      w.maxMs = Math.max(w.maxMs, ms);
      this.ttlWaits.set(queue, w);
    }
    this.enteredAt.delete(`${msgId}|${queue}`);
  }

  release(): void {
    this.where.clear();
    this.enteredAt.clear();
    this.published.clear();
    this.confirmed.clear();
    this.ackedFinal.clear();
    this.dropped.clear();
  }

  /** queue -> number of traced copies resting there (by our own bookkeeping) */
  resting(): Map<string, number> {
    const out = new Map<string, number>();
    for (const m of this.where.values()) for (const [q, n] of m) if (n > 0) out.set(q, (out.get(q) ?? 0) + n);
    return out;
  }

  /** the queues a message rests in now */
  locationOf(msgId: string): string[] {
    return [...(this.where.get(msgId)?.entries() ?? [])].filter(([, n]) => n > 0).map(([q]) => q);
  }
}
