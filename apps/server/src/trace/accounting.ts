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
 * Fates. Where each message's copies are is the core's copy ledger (ready in queues, unacked at a
 * consumer, rejected and not yet dead-lettered, in transit between exchanges, refused), fed the
 * events as they go out; its fate is the core's decideOutcome over it (the one every place states),
 * so each published message is counted exactly once, in the balance's words.
 */
import {
  CopyLedger,
  decideOutcome,
  type MessageCopies,
  type MessageOutcome,
  type FateRules,
  type OutcomeKind,
  type SimEvent,
} from '@retry-studio/topology-core/sim';
import type { EventInput } from './traceContext.js';

export type Lane = string;

/** how an event starts a copy's journey through exchanges (its first `routed`) */
export type CopyStart = 'publish' | 'dead-letter';

/** How the balance counts an outcome (a new outcome kind is placed here once). */
const BALANCE_OF: Readonly<Record<OutcomeKind, 'acked' | 'parked' | 'inFlight' | 'dropped'>> = {
  acked: 'acked',
  parked: 'parked',
  moving: 'inFlight',
  held: 'inFlight',
  dropped: 'dropped',
  expired: 'dropped',
  limit: 'dropped',
  'publish-nacked': 'dropped',
  returned: 'dropped',
  // the application gave up and acked it: gone though the broker saw an ack
  discarded: 'dropped',
};

/** what a source knows of an event beyond the event itself */
export interface EmitOptions {
  /** performance.now() when its delivery or copy arrived */
  readonly rxAt?: number;
  /** how it starts a copy's journey (its first `routed`) */
  readonly start?: CopyStart;
  /** a redelivery of a message whose reject was lost with its channel (lostRejects.ts): its copy is back */
  readonly afterLostReject?: true;
}

interface Held {
  readonly e: EventInput;
  readonly t: number;
  readonly rxAt: number | undefined;
  readonly start: CopyStart | undefined;
  readonly afterLostReject: boolean;
}

/**
 * One message in flight. What it rarely needs is made when needed (a burst holds 10,000 of these):
 * its lanes once an event of it has to wait, its entry times once a copy of it may expire.
 */
class MessageState {
  /** lane -> its events waiting for what they follow (none while everything came in order) */
  lanes: Map<Lane, Held[]> | undefined;
  /** queue -> when a copy that may expire there entered (for TTL waits) */
  enteredAt: Map<string, number> | undefined;
  lastT = 0;

  constructor(readonly copies: MessageCopies) {}

  held(): number {
    let n = 0;
    if (this.lanes) for (const l of this.lanes.values()) n += l.length;
    return n;
  }

  /** nothing of this message is anywhere or pending, and its last event ended a copy: only its fate is left to keep */
  settled(): boolean {
    return (this.lanes === undefined || this.lanes.size === 0) && this.copies.settled;
  }
}

export interface AccountingOptions {
  /** ms since the trace started */
  readonly now: () => number;
  /** an event leaves the accounting, in causal order, stamped */
  readonly out: (e: SimEvent, rxAt: number | undefined) => void;
  /** the next sequence number */
  readonly nextSeq: () => number;
  /** longest an event waits for what it follows (default 5000 ms: a flood's observation can lag by seconds) */
  readonly maxHoldMs?: number;
  /** how the design's events are read for fates (its streams, workers, dead-lettering queues, queue order) */
  readonly rules?: FateRules;
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
  /** where every message's copies are (events go in as they go out, in causal order) */
  private ledger: CopyLedger;
  /** settled messages, compacted to their fate (memory stays with the messages in flight) */
  private readonly settled = new Map<string, MessageOutcome>();
  private readonly holding = new Set<string>();
  /**
   * settled messages -> when they last were: compacted once nothing more came for the longest
   * hold (a late copy, or the drop after a return, picks the entry up where it was)
   */
  private readonly settling = new Map<string, number>();
  readonly published = new Set<string>();
  readonly confirmed = new Set<string>();
  readonly ttlWaits = new Map<string, { n: number; totalMs: number; maxMs: number }>();
  /** events that went out before what they follow was seen */
  forcedOut = 0;
  lastActivity = 0;

  constructor(private readonly opts: AccountingOptions) {
    this.ledger = this.newLedger();
  }

  private newLedger(): CopyLedger {
    const rules = this.opts.rules;
    return new CopyLedger({
      ...(rules ? { streams: rules.streams } : {}),
      ...(rules?.workConsumers ? { workConsumers: rules.workConsumers } : {}),
    });
  }

  private state(msgId: string): MessageState {
    let s = this.msgs.get(msgId);
    if (!s) {
      // a settled message seen again (a late copy) starts a ledger entry of its own; its fate so far stays kept
      s = new MessageState(this.ledger.entry(msgId));
      this.msgs.set(msgId, s);
    }
    return s;
  }

  private compact(msgId: string, s: MessageState): void {
    this.settling.delete(msgId);
    if (!s.settled()) return;
    const fate = decideOutcome(s.copies, { truncated: false, endTime: s.lastT });
    if (fate) this.settled.set(msgId, fate);
    this.msgs.delete(msgId);
    this.ledger.delete(msgId);
    // its entry serves the next message (a burst's entries are not made and thrown away 10,000 times)
    this.ledger.release(s.copies);
  }

  /** An event from `lane` (message events are ordered; others go straight out). The event is stamped in place: pass a fresh one. */
  add(lane: Lane, e: EventInput, opts: EmitOptions = {}): void {
    const t = this.opts.now();
    this.lastActivity = t;
    if (e.msgId === '')
      return this.release(undefined, { e, t, rxAt: opts.rxAt, start: undefined, afterLostReject: false });
    if (e.kind === 'published' && e.origin.kind === 'publisher') this.published.add(e.msgId);
    const s = this.state(e.msgId);
    const h: Held = { e, t, rxAt: opts.rxAt, start: opts.start, afterLostReject: opts.afterLostReject === true };
    // nothing of it waits: in order, it goes at once (most events of a burst)
    if ((s.lanes === undefined || s.lanes.size === 0) && this.canRelease(s, h)) {
      this.release(s, h);
      this.settle(e.msgId, s);
      return;
    }
    const lanes = (s.lanes ??= new Map());
    let q = lanes.get(lane);
    if (!q) {
      q = [];
      lanes.set(lane, q);
    }
    q.push(h);
    this.drain(e.msgId, s, false);
  }

  /** Releases what can go out; `force`: the oldest head of each lane too. */
  private drain(msgId: string, s: MessageState, force: boolean): void {
    const lanes = s.lanes;
    let progress = lanes !== undefined;
    while (lanes && progress) {
      progress = false;
      for (const [lane, q] of lanes) {
        while (q.length > 0 && this.canRelease(s, q[0]!)) {
          this.release(s, q.shift()!);
          progress = true;
        }
        if (q.length === 0) lanes.delete(lane);
      }
      if (!progress && force) {
        // the lane whose head waited longest goes first
        let oldest: Held[] | undefined;
        for (const q of lanes.values()) if (q.length > 0 && (!oldest || q[0]!.t < oldest[0]!.t)) oldest = q;
        if (oldest && this.opts.now() - oldest[0]!.t >= (this.opts.maxHoldMs ?? 5000)) {
          this.forcedOut += 1;
          this.release(s, oldest.shift()!);
          progress = true;
        }
      }
    }
    if (lanes !== undefined && lanes.size === 0) s.lanes = undefined;
    this.settle(msgId, s);
  }

  /** after its events went out: whether it still holds some, and whether only its fate is left */
  private settle(msgId: string, s: MessageState): void {
    if (s.held() > 0) this.holding.add(msgId);
    else this.holding.delete(msgId);
    if (s.settled()) this.settling.set(msgId, this.opts.now());
    else this.settling.delete(msgId);
  }

  private canRelease(s: MessageState, h: Held): boolean {
    const e = h.e;
    const c = s.copies;
    switch (e.kind) {
      case 'delivered':
        // after a lost reject the copy is still in its queue, counted rejected: the ledger puts it back
        return c.readyAt(e.queue) > 0 || (h.afterLostReject === true && c.rejectedAt(e.queue) > 0);
      case 'expired':
        return c.readyAt(e.queue) > 0;
      case 'dead-lettered':
        return (e.reason === 'rejected' ? c.rejectedAt(e.queue) : c.readyAt(e.queue)) > 0;
      case 'routed':
        return h.start !== 'publish' || c.publishes > 0;
      default:
        return true;
    }
  }

  private release(s: MessageState | undefined, h: Held): void {
    let t = h.t;
    if (s) {
      t = Math.max(t, s.lastT);
      s.lastT = t;
    }
    // stamped in place: an event given to the accounting is its own from then on (a copy of each
    // of a burst's 360,000 events was a tenth of the server's allocation)
    const e = h.e as unknown as { t: number; seq: number } & SimEvent;
    e.t = t;
    e.seq = this.opts.nextSeq();
    if (s) this.apply(s, h, e);
    this.opts.out(e, h.rxAt);
  }

  private apply(s: MessageState, h: Held, e: SimEvent): void {
    // a copy's first hop the trace names; a later one (or one it does not name) is read in order
    s.copies.apply(e, h.start);
    if (e.kind === 'enqueued' && e.expiresAt !== undefined) (s.enteredAt ??= new Map()).set(e.queue, e.t);
    else if (e.kind === 'dead-lettered' && e.reason === 'expired') {
      const since = s.enteredAt?.get(e.queue);
      if (since === undefined) return;
      const w = this.ttlWaits.get(e.queue) ?? { n: 0, totalMs: 0, maxMs: 0 };
      const ms = Math.max(0, e.t - since);
      w.n += 1;
      w.totalMs += ms;
      w.maxMs = Math.max(w.maxMs, ms);
      this.ttlWaits.set(e.queue, w);
    }
  }

  /** Lets held events whose wait ran out go (call periodically); `all`: everything (at the end). */
  flush(all = false): void {
    for (const id of [...this.holding]) {
      const s = this.msgs.get(id)!;
      if (all) {
        while (s.held() > 0) this.drainAll(s);
        this.holding.delete(id);
        if (s.settled()) this.settling.set(id, this.opts.now());
      } else this.drain(id, s, true);
    }
    const now = this.opts.now();
    for (const [id, since] of [...this.settling])
      if (all || now - since >= (this.opts.maxHoldMs ?? 5000)) this.compact(id, this.msgs.get(id)!);
  }

  private drainAll(s: MessageState): void {
    if (!s.lanes) return;
    for (const q of s.lanes.values())
      while (q.length > 0) {
        if (!this.canRelease(s, q[0]!)) this.forcedOut += 1;
        this.release(s, q.shift()!);
      }
    s.lanes = undefined;
  }

  /** a queue where a copy keeps moving: `live` (a running consumer or a TTL), never a stream */
  private active(live: (queue: string) => boolean): (queue: string) => boolean {
    return (q) => live(q) && !this.ledger.isStream(q);
  }

  /**
   * The message's fate so far, in the one vocabulary (the core's decideOutcome over the ledger):
   * the trace still runs, so a copy at a consumer, between queues or waiting in a `live` queue
   * (a running consumer or a TTL) keeps it moving. Undefined: nothing shows where it is yet.
   */
  fate(msgId: string, live: (queue: string) => boolean): MessageOutcome | undefined {
    const s = this.msgs.get(msgId);
    if (!s) return this.settled.get(msgId);
    const active = this.active(live);
    const c = s.copies;
    const rules = this.opts.rules;
    return (
      decideOutcome(c, {
        truncated: s.held() > 0 || c.onItsWay(true, active),
        endTime: s.lastT,
        active,
        ...(rules ? { deadLettering: (q: string) => rules.deadLettering.has(q), rank: rules.rank } : {}),
      }) ?? this.settled.get(msgId)
    );
  }

  /**
   * Whether a delivery of the message from `queue` would wait for the copy that put it there: the
   * message is known, nothing of it waits already, and no copy of it is ready in that queue.
   */
  awaitsCopy(msgId: string, queue: string): boolean {
    const s = this.msgs.get(msgId);
    return s !== undefined && s.held() === 0 && s.copies.readyAt(queue) === 0;
  }

  /** What keeps a message from its final fate, if anything. */
  waitingFor(msgId: string, live: (queue: string) => boolean): string | undefined {
    const s = this.msgs.get(msgId);
    if (!s) return this.settled.has(msgId) ? undefined : `${msgId} is in transit`;
    const c = s.copies;
    if (s.held() > 0) return `${msgId}'s events wait for the broker's copies`;
    if (c.unacked > 0 || c.pending > 0) return `${msgId} is at a consumer`;
    if (c.inTransit) return `${msgId} is in transit`;
    const active = this.active(live);
    const resting = c.restingIn();
    const waiting = resting.find(active);
    if (waiting !== undefined) return `${msgId} waits in '${waiting}'`;
    if (resting.length === 0 && !c.ended && !this.settled.has(msgId)) return `${msgId} is in transit`;
    return undefined;
  }

  /** Each published message once. */
  balance(live: (queue: string) => boolean): Balance {
    const counts = { acked: 0, parked: 0, inFlight: 0, dropped: 0 };
    const unaccounted: string[] = [];
    for (const id of this.published) {
      const f = this.fate(id, live);
      if (f) counts[BALANCE_OF[f.kind]] += 1;
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
    for (const s of this.msgs.values())
      for (const [q, n] of s.copies.ready) if (n > 0) out.set(q, (out.get(q) ?? 0) + n);
    return out;
  }

  /** the messages with a copy ready in `queue` (e.g. to drop them when the queue is deleted) */
  messagesIn(queue: string): { msgId: string; copies: number }[] {
    const out: { msgId: string; copies: number }[] = [];
    for (const [id, s] of this.msgs) {
      const n = s.copies.readyAt(queue);
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
    // a new ledger: the old one's entries kept for reuse go with it
    this.ledger = this.newLedger();
    this.settled.clear();
    this.holding.clear();
    this.settling.clear();
    this.published.clear();
    this.confirmed.clear();
  }
}
