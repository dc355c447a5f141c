/**
 * A trace's accounting: every message event passes through here on its way to the stream.
 *
 * Causal order. Events come from independent sources (the test publisher, each worker, the
 * observation of exchanges); each source is in order, but across them the broker's copies can
 * arrive late (a worker may receive a message before the copy that shows how it got there).
 * Each source is a lane; an event leaves its lane only once what it follows has happened for
 * that message: a delivery or an expiry from a queue needs the message in that queue, a
 * dead-letter after a rejection needs the rejection, the first hop of a published copy needs
 * the publish. A held event that waits longer than `maxHoldMs` goes out anyway (counted), and the
 * counts it moved are signed, so the late cause settles them.
 *
 * Fates. Per message, where its copies are (ready in queues, unacked at a consumer, rejected
 * and not yet dead-lettered, in transit between exchanges), as the broker did it; its fate is
 * in flight > parked > acked > dropped, so each published message is counted exactly once.
 */
import type { SimEvent } from '@retry-studio/topology-core/sim';
import type { EventInput } from './traceContext.js';

export type Lane = string;

/** how an event starts a copy's journey through exchanges (its first `routed`) */
export type CopyStart = 'publish' | 'dead-letter';

export type Fate = 'acked' | 'parked' | 'inFlight' | 'dropped';

interface Held {
  readonly e: EventInput;
  readonly t: number;
  readonly rxAt: number | undefined;
  readonly start: CopyStart | undefined;
}

class MessageState {
  readonly ready = new Map<string, number>();
  readonly unacked = new Map<string, number>();
  readonly rejected = new Map<string, number>();
  /** published copies not yet routed */
  publishes = 0;
  /** dead-lettered copies not yet routed */
  deadLetters = 0;
  acked = false;
  /** the consumer republished: the ack that follows settles the old copy, not the message */
  republishAck = false;
  dropped: string | undefined;
  lastT = 0;
  readonly lanes = new Map<Lane, Held[]>();
  /** queue -> when the copy entered (for TTL waits) */
  readonly enteredAt = new Map<string, number>();

  held(): number {
    let n = 0;
    for (const l of this.lanes.values()) n += l.length;
    return n;
  }

  /** nothing of this message is anywhere or pending: only its fate is left to keep */
  quiet(): boolean {
    return (
      this.ready.size === 0 &&
      this.unacked.size === 0 &&
      this.rejected.size === 0 &&
      this.publishes === 0 &&
      this.deadLetters === 0 &&
      !this.republishAck &&
      this.lanes.size === 0
    );
  }
}

/**
 * Signed counts: an event sent before its cause (after the longest hold) leaves a debt that the
 * late cause pays back, so the fates come out right even then.
 */
const bump = (m: Map<string, number>, k: string, d: number): void => {
  const n = (m.get(k) ?? 0) + d;
  if (n === 0) m.delete(k);
  else m.set(k, n);
};
const positive = (m: ReadonlyMap<string, number>): boolean => {
  for (const n of m.values()) if (n > 0) return true;
  return false;
};

export interface AccountingOptions {
  /** ms since the trace started */
  readonly now: () => number;
  /** an event leaves the accounting, in causal order, stamped */
  readonly out: (e: SimEvent, rxAt: number | undefined) => void;
  /** the next sequence number */
  readonly nextSeq: () => number;
  /** longest an event waits for what it follows (default 5000 ms: a flood's observation can lag by seconds) */
  readonly maxHoldMs?: number;
}

export interface Balance {
  readonly published: number;
  readonly acked: number;
  readonly parked: number;
  readonly inFlight: number;
  readonly dropped: number;
  /** published messages with no fate yet (at most 100) */
  readonly unaccounted: readonly string[];
  readonly balanced: boolean;
}

export class TraceAccounting {
  private readonly msgs = new Map<string, MessageState>();
  /** quiet messages, compacted to their fate (memory stays with the messages in flight) */
  private readonly settled = new Map<string, 'acked' | 'dropped'>();
  private readonly holding = new Set<string>();
  readonly published = new Set<string>();
  readonly confirmed = new Set<string>();
  readonly ttlWaits = new Map<string, { n: number; totalMs: number; maxMs: number }>();
  /** events that went out before what they follow was seen */
  forcedOut = 0;
  lastActivity = 0;

  constructor(private readonly opts: AccountingOptions) {}

  private state(msgId: string): MessageState {
    let s = this.msgs.get(msgId);
    if (!s) {
      s = new MessageState();
      // a settled message seen again (a late copy): it picks up where it was
      const f = this.settled.get(msgId);
      if (f === 'acked') s.acked = true;
      else if (f === 'dropped') s.dropped = 'no-route';
      this.settled.delete(msgId);
      this.msgs.set(msgId, s);
    }
    return s;
  }

  private compact(msgId: string, s: MessageState): void {
    if (!s.quiet()) return;
    this.msgs.delete(msgId);
    if (s.acked) this.settled.set(msgId, 'acked');
    else if (s.dropped !== undefined) this.settled.set(msgId, 'dropped');
  }

  /** An event from `lane` (message events are ordered; others go straight out). */
  add(lane: Lane, e: EventInput, opts: { rxAt?: number; start?: CopyStart } = {}): void {
    const t = this.opts.now();
    this.lastActivity = t;
    if (e.msgId === '') return this.release(undefined, { e, t, rxAt: opts.rxAt, start: undefined });
    if (e.kind === 'published' && e.origin.kind === 'publisher') this.published.add(e.msgId);
    const s = this.state(e.msgId);
    let q = s.lanes.get(lane);
    if (!q) {
      q = [];
      s.lanes.set(lane, q);
    }
    q.push({ e, t, rxAt: opts.rxAt, start: opts.start });
    this.drain(e.msgId, s, false);
  }

  /** Releases what can go out; `force`: the oldest head of each lane too. */
  private drain(msgId: string, s: MessageState, force: boolean): void {
    let progress = true;
    while (progress) {
      progress = false;
      for (const [lane, q] of s.lanes) {
        while (q.length > 0 && this.canRelease(s, q[0]!)) {
          this.release(s, q.shift()!);
          progress = true;
        }
        if (q.length === 0) s.lanes.delete(lane);
      }
      if (!progress && force) {
        // the lane whose head waited longest goes first
        let oldest: Held[] | undefined;
        for (const q of s.lanes.values()) if (q.length > 0 && (!oldest || q[0]!.t < oldest[0]!.t)) oldest = q;
        if (oldest && this.opts.now() - oldest[0]!.t >= (this.opts.maxHoldMs ?? 5000)) {
          this.forcedOut += 1;
          this.release(s, oldest.shift()!);
          progress = true;
        }
      }
    }
    if (s.held() > 0) this.holding.add(msgId);
    else {
      this.holding.delete(msgId);
      this.compact(msgId, s);
    }
  }

  private canRelease(s: MessageState, h: Held): boolean {
    const e = h.e;
    switch (e.kind) {
      case 'delivered':
      case 'expired':
        return (s.ready.get(e.queue) ?? 0) > 0;
      case 'dead-lettered':
        return ((e.reason === 'rejected' ? s.rejected : s.ready).get(e.queue) ?? 0) > 0;
      case 'routed':
        return h.start !== 'publish' || s.publishes > 0;
      default:
        return true;
    }
  }

  private release(s: MessageState | undefined, h: Held): void {
    let t = h.t;
    if (s) {
      t = Math.max(t, s.lastT);
      s.lastT = t;
      this.apply(s, h, t);
    }
    this.opts.out({ ...h.e, t, seq: this.opts.nextSeq() } as SimEvent, h.rxAt);
  }

  private apply(s: MessageState, h: Held, t: number): void {
    const e = h.e;
    switch (e.kind) {
      case 'published':
        s.publishes += 1;
        if (e.origin.kind === 'consumer') s.republishAck = true;
        return;
      case 'routed':
        if (h.start === 'publish') s.publishes = Math.max(0, s.publishes - 1);
        else if (h.start === 'dead-letter') s.deadLetters = Math.max(0, s.deadLetters - 1);
        return;
      case 'enqueued':
        bump(s.ready, e.queue, 1);
        s.enteredAt.set(e.queue, t);
        return;
      case 'delivered':
        // A reject takes the message out of its queue, so the broker can hand it out again from
        // that queue (redelivered) without a new copy arriving there only if the reject never
        // reached it: sent on a channel that died with a broker restart. Such a delivery waited
        // out its hold (no enqueue came; on 4.3 a dead letter that comes back is redelivered too,
        // but it is enqueued first). That reject dead-letters nothing; the copy is back here.
        if (e.redelivered && (s.ready.get(e.queue) ?? 0) <= 0 && (s.rejected.get(e.queue) ?? 0) > 0) {
          bump(s.rejected, e.queue, -1);
          bump(s.ready, e.queue, 1);
        }
        bump(s.ready, e.queue, -1);
        bump(s.unacked, e.queue, 1);
        return;
      case 'requeued':
        bump(s.unacked, e.queue, -1);
        bump(s.ready, e.queue, 1);
        return;
      case 'acked':
        bump(s.unacked, e.queue, -1);
        if (s.republishAck) s.republishAck = false;
        else s.acked = true;
        return;
      case 'rejected':
        bump(s.unacked, e.queue, -1);
        bump(s.rejected, e.queue, 1);
        s.acked = false;
        return;
      case 'dead-lettered': {
        if (e.reason === 'rejected') bump(s.rejected, e.queue, -1);
        else bump(s.ready, e.queue, -1);
        s.deadLetters += 1;
        const since = s.enteredAt.get(e.queue);
        if (e.reason === 'expired' && since !== undefined) {
          const w = this.ttlWaits.get(e.queue) ?? { n: 0, totalMs: 0, maxMs: 0 };
          const ms = Math.max(0, t - since);
          w.n += 1;
          w.totalMs += ms;
          w.maxMs = Math.max(w.maxMs, ms);
          this.ttlWaits.set(e.queue, w);
        }
        return;
      }
      case 'dropped':
        // after a rejection (no DLX, missing DLX) or an expiry without DLX the copy leaves its queue
        if (e.queue !== undefined) {
          if ((s.rejected.get(e.queue) ?? 0) > 0) bump(s.rejected, e.queue, -1);
          else bump(s.ready, e.queue, -1);
        }
        s.dropped = e.why;
        return;
      case 'publish-nacked':
        s.publishes = Math.max(0, s.publishes - 1);
        s.dropped = 'overflow';
        return;
      default:
        return;
    }
  }

  /** Lets held events whose wait ran out go (call periodically); `all`: everything (at the end). */
  flush(all = false): void {
    for (const id of [...this.holding]) {
      const s = this.msgs.get(id)!;
      if (all) {
        while (s.held() > 0) this.drainAll(s);
        this.holding.delete(id);
        this.compact(id, s);
      } else this.drain(id, s, true);
    }
  }

  private drainAll(s: MessageState): void {
    for (const [lane, q] of s.lanes) {
      while (q.length > 0) {
        if (!this.canRelease(s, q[0]!)) this.forcedOut += 1;
        this.release(s, q.shift()!);
      }
      s.lanes.delete(lane);
    }
  }

  /** The message's copies, by queue (ready), for the fate. */
  where(msgId: string): { ready: ReadonlyMap<string, number>; busy: boolean } {
    const s = this.msgs.get(msgId);
    if (!s) return { ready: new Map(), busy: false };
    return {
      ready: s.ready,
      busy: positive(s.unacked) || positive(s.rejected) || s.publishes > 0 || s.deadLetters > 0 || s.held() > 0,
    };
  }

  /** `live(queue)`: the queue has a running consumer or a TTL (a copy there is still moving). */
  fate(msgId: string, live: (queue: string) => boolean): Fate | undefined {
    const s = this.msgs.get(msgId);
    if (!s) return this.settled.get(msgId);
    const w = this.where(msgId);
    if (w.busy) return 'inFlight';
    let parked = false;
    for (const [q, n] of s.ready) {
      if (n <= 0) continue;
      if (live(q)) return 'inFlight';
      parked = true;
    }
    if (parked) return 'parked';
    if (s.acked) return 'acked';
    if (s.dropped !== undefined) return 'dropped';
    return undefined;
  }

  /** What keeps a message from its final fate, if anything. */
  waitingFor(msgId: string, live: (queue: string) => boolean): string | undefined {
    const s = this.msgs.get(msgId);
    if (!s) return this.settled.has(msgId) ? undefined : `${msgId} is in transit`;
    if (s.held() > 0) return `${msgId}'s events wait for the broker's copies`;
    if (positive(s.unacked) || positive(s.rejected)) return `${msgId} is at a consumer`;
    if (s.publishes > 0 || s.deadLetters > 0) return `${msgId} is in transit`;
    for (const [q, n] of s.ready) if (n > 0 && live(q)) return `${msgId} waits in '${q}'`;
    if (!s.acked && s.dropped === undefined && !positive(s.ready)) return `${msgId} is in transit`;
    return undefined;
  }

  /** Each published message once. */
  balance(live: (queue: string) => boolean): Balance {
    const counts: Record<Fate, number> = { acked: 0, parked: 0, inFlight: 0, dropped: 0 };
    const unaccounted: string[] = [];
    for (const id of this.published) {
      const f = this.fate(id, live);
      if (f) counts[f] += 1;
      else unaccounted.push(id);
    }
    const total = counts.acked + counts.parked + counts.inFlight + counts.dropped;
    return {
      published: this.published.size,
      ...counts,
      unaccounted: unaccounted.slice(0, 100),
      balanced: unaccounted.length === 0 && total === this.published.size,
    };
  }

  /** queue -> traced copies resting there */
  resting(): Map<string, number> {
    const out = new Map<string, number>();
    for (const s of this.msgs.values()) for (const [q, n] of s.ready) if (n > 0) out.set(q, (out.get(q) ?? 0) + n);
    return out;
  }

  /** the messages with a copy ready in `queue` (e.g. to drop them when the queue is deleted) */
  messagesIn(queue: string): { msgId: string; copies: number }[] {
    const out: { msgId: string; copies: number }[] = [];
    for (const [id, s] of this.msgs) {
      const n = s.ready.get(queue) ?? 0;
      if (n > 0) out.push({ msgId: id, copies: n });
    }
    return out;
  }

  get heldMessages(): number {
    return this.holding.size;
  }

  /** the trace is over: drop the per-message state */
  forget(): void {
    this.msgs.clear();
    this.settled.clear();
    this.holding.clear();
    this.published.clear();
    this.confirmed.clear();
  }
}
