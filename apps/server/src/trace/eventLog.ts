/**
 * A trace's events: a bounded ring (late subscribers replay what is still there) and live
 * subscribers, each a cursor into the ring, bounded in how far behind it may fall, so a slow or
 * stalled client can never grow memory.
 * Events are serialised once, into the bytes of their SSE frame in the ring (frameRing.ts: off
 * the V8 heap, no object per entry; written to every subscriber's socket as they are, a run of
 * them as one slice, not encoded again per write: a ring of 50,000 events as strings held 20 MB
 * of the heap and tripled the peak a burst's garbage grew it to). The ring is bounded by count
 * and by bytes, and a finished trace keeps less. `rxAt` (performance.now() when the broker
 * delivered what caused the event) feeds the delivery -> event-out latency figures.
 *
 * Writes are coalesced: the events one callback produced go to each subscriber in one socket
 * write when it returns (a burst's deliveries arrive many to a socket read; a write per event cost
 * more than the events), or sooner when many wait (FLUSH_AT, FLUSH_AFTER_MS). A `batch`
 * subscriber (the web app) gets each such run of events as ONE SSE message, `event: batch` with
 * a JSON array, so the browser dispatches one message per run instead of one per event; its `id`
 * is the last event's seq (Last-Event-ID works as before). Other subscribers get one SSE message
 * per event, as always.
 */
import type { SimEvent } from '@retry-studio/topology-core/sim';
import type { TraceNotice } from '@retry-studio/contract';
import { FrameRing } from './frameRing.js';

/** What the stream carries besides SimEvents: the contract's notice frame. */
export type { TraceNotice };

export interface Subscriber {
  /** one SSE message per turn with the events as a JSON array (`event: batch`) */
  readonly batch?: boolean;
  /** each live event's frame starts with the comment `: rx=<delivery time, epoch ms>`, each live chunk comes after `: sent=<epoch ms>` (benches) */
  readonly timing?: boolean;
  /** write frames; false means the socket buffer is full (call `drained` when it empties) */
  write(chunk: Buffer): boolean;
  /**
   * hand what was written to the socket now (a response holds its writes until the tick ends);
   * true when the socket holds nothing back (the OS took it all)
   */
  flush?(): boolean;
  /** the stream's last frame (`event: end`) was written */
  ended?(): void;
}

/** how far behind the newest event a subscriber may be (replay included) before the oldest it has not read are skipped */
const MAX_PENDING_PER_SUBSCRIBER = 20_000;
/** events per socket write (and per batch message): bounds the strings built at once, and what a stalled socket buffers */
const CHUNK = 250;
/**
 * chunks written to one subscriber per turn of the event loop; the rest in a later turn. A new
 * client replaying 20,000 events into a large loopback socket buffer would otherwise hold the loop
 * for the whole replay, and 300 of them for seconds (other requests wait meanwhile).
 */
const CHUNKS_PER_TURN = 8;
/**
 * A flush at the end of the callback that produced the events (a microtask), or sooner once this
 * many wait or the first waited this long: one socket read can carry thousands of deliveries,
 * and on a busy machine handling them all takes hundreds of ms, which the first must not wait.
 */
const FLUSH_AT = 200;
/** 1, not 2: a chained burst's delivery -> event-out p95 fell by about 0.7 ms, for no more CPU (bench:trace, noisy) */
const FLUSH_AFTER_MS = 1;
/** the ring's bytes (its frames), besides its count: a trace of large events keeps fewer */
const RING_BYTES = 24 * 1024 * 1024;
/** what a finished trace's ring keeps for late readers (the newest frames) */
const ENDED_RING_BYTES = 8 * 1024 * 1024;

const NOTICE_HEAD = 'event: notice\ndata: ';
const END_FRAME = Buffer.from('event: end\ndata: {}\n\n');
const BATCH_OPEN = Buffer.from('[');
const BATCH_COMMA = Buffer.from(',');
const BATCH_CLOSE = Buffer.from(']\n\n');

/**
 * A subscriber is a cursor into the ring, not a copy of it: a new one replays by reading the ring
 * where it starts (200 stalled clients of a 50,000-event trace once copied 10 million entries), and
 * one that falls too far behind skips ahead with a notice of what it missed.
 */
class Sub {
  /** absolute index of the next entry to write */
  next: number;
  blocked = false;
  /** a later turn writes the rest */
  scheduled = false;
  dropped = 0;
  constructor(
    readonly s: Subscriber,
    start: number,
    /** entries before this absolute index are a replay: filtered by `afterSeq`, no latency figure */
    readonly replayEnd: number,
    readonly afterSeq: number,
  ) {
    this.next = start;
  }
}

export class EventLog {
  private readonly ring: FrameRing;
  private readonly subs = new Set<Sub>();
  private ended = false;
  /** events enqueued since the last flush, and since when */
  private pending = 0;
  private pendingSince = 0;
  private readonly endListeners: (() => void)[] = [];
  seq = 0;
  total = 0;
  readonly counts: Record<string, number> = {};
  /** delivery -> frame handed to the socket, ms, for live 'delivered' events (each subscriber's write) */
  readonly latencies: number[] = [];
  private latencyCap = 200_000;

  recordLatency(ms: number): void {
    if (this.latencies.length < this.latencyCap) this.latencies.push(ms);
  }

  constructor(
    capacity = 50_000,
    private readonly maxPending = MAX_PENDING_PER_SUBSCRIBER,
    capacityBytes = RING_BYTES,
  ) {
    this.ring = new FrameRing(capacity, capacityBytes);
  }

  nextSeq(): number {
    return ++this.seq;
  }

  emit(e: SimEvent, rxAt?: number): void {
    this.total += 1;
    this.counts[e.kind] = (this.counts[e.kind] ?? 0) + 1;
    this.ring.push(e.seq, false, `id: ${e.seq}\ndata: `, JSON.stringify(e), rxAt ?? NaN, e.kind === 'delivered');
    this.pushed();
  }

  notice(n: Omit<TraceNotice, 'kind'>): void {
    this.ring.push(this.seq, true, NOTICE_HEAD, JSON.stringify({ kind: 'notice', ...n }), NaN, false);
    this.pushed();
  }

  private pushed(): void {
    if (this.subs.size === 0) return;
    if (this.pending++ === 0) {
      this.pendingSince = performance.now();
      queueMicrotask(this.flush);
    } else if (this.pending >= FLUSH_AT || performance.now() - this.pendingSince >= FLUSH_AFTER_MS) this.flush();
  }

  private readonly flush = (): void => {
    if (this.pending === 0) return;
    this.pending = 0;
    for (const sub of this.subs) this.writeOut(sub);
  };

  /** A subscriber too far behind (or off the ring's start) skips to what it may still read. */
  private catchUp(sub: Sub): void {
    const oldest = Math.max(this.ring.start, this.ring.end - this.maxPending);
    if (sub.next < oldest) {
      sub.dropped += oldest - sub.next;
      sub.next = oldest;
    }
  }

  /** Writes what waits for `sub`, a chunk at a time, until the socket is full; then hands it to the socket. */
  private writeOut(sub: Sub): void {
    if (sub.blocked) return;
    this.writeChunks(sub);
    sub.s.flush?.();
  }

  private writeChunks(sub: Sub): void {
    this.catchUp(sub);
    if (sub.dropped > 0) {
      const n = sub.dropped;
      sub.dropped = 0;
      sub.s.write(
        Buffer.from(
          `${NOTICE_HEAD}${JSON.stringify({ kind: 'notice', level: 'warn', code: 'events-dropped', message: `${n} events were dropped because the client read too slowly`, t: 0 })}\n\n`,
        ),
      );
    }
    const end = this.ring.end;
    for (let chunks = 0; sub.next < end && !sub.blocked; chunks++) {
      if (chunks === CHUNKS_PER_TURN) {
        this.later(sub);
        return;
      }
      const from = sub.next;
      const to = Math.min(end, from + CHUNK);
      sub.next = to;
      const ok = from >= sub.replayEnd ? this.writeLive(sub, from, to) : this.writeReplay(sub, from, to);
      // `write` says full for any chunk above the socket's mark, though the OS may take it at once:
      // blocked only when it did not (else a long callback's events would wait for its 'drain', at its end)
      if (!ok && sub.s.flush?.() !== true) sub.blocked = true;
    }
    if (this.ended && sub.next >= end && !sub.blocked) {
      this.subs.delete(sub);
      sub.s.write(END_FRAME);
      sub.s.ended?.();
    }
  }

  /** live entries [from, to): the same frames for every subscriber of a kind, built once */
  private writeLive(sub: Sub, from: number, to: number): boolean {
    // a timing subscriber (a bench) is told when each chunk was handed to its socket
    if (sub.s.timing) sub.s.write(Buffer.from(`: sent=${performance.timeOrigin + performance.now()}\n\n`));
    const ok = sub.s.write(this.sharedFrames(sub.s, from, to));
    const now = performance.now();
    for (let i = from; i < to; i++)
      if (this.ring.isDelivery(i) && !Number.isNaN(this.ring.rxAt(i))) this.recordLatency(now - this.ring.rxAt(i));
    return ok;
  }

  /** replayed entries [from, to) (and the live ones after `replayEnd`): those after Last-Event-ID, no timing */
  private writeReplay(sub: Sub, from: number, to: number): boolean {
    const picked: number[] = [];
    let firstLive = -1;
    for (let i = from; i < to; i++) {
      if (i >= sub.replayEnd) {
        if (firstLive < 0) firstLive = picked.length;
        picked.push(i);
      } else {
        const seq = this.ring.seq(i);
        if (seq > sub.afterSeq || (sub.afterSeq === 0 && seq === 0)) picked.push(i);
      }
    }
    if (picked.length === 0) return true;
    const ok = sub.s.write(this.frames(sub.s, picked, firstLive < 0 ? picked.length : firstLive));
    if (firstLive >= 0) {
      const now = performance.now();
      for (const i of picked.slice(firstLive))
        if (this.ring.isDelivery(i) && !Number.isNaN(this.ring.rxAt(i))) this.recordLatency(now - this.ring.rxAt(i));
    }
    return ok;
  }

  /** recent live chunks' frames by range and subscriber kind (300 clients of one trace cost one build) */
  private readonly frameCache = new Map<string, Buffer>();

  private sharedFrames(s: Subscriber, from: number, to: number): Buffer {
    // a plain subscriber reads the frames as they sit in the ring
    if (!s.batch && !s.timing) {
      const span = this.ring.span(from, to);
      if (span) return span;
    }
    const key = `${from}:${to - from}:${s.batch ? 1 : 0}${s.timing ? 1 : 0}`;
    let out = this.frameCache.get(key);
    if (out === undefined) {
      const all: number[] = [];
      for (let i = from; i < to; i++) all.push(i);
      out = this.frames(s, all, 0);
      this.frameCache.set(key, out);
      if (this.frameCache.size > 32) this.frameCache.delete(this.frameCache.keys().next().value!);
    }
    return out;
  }

  private later(sub: Sub): void {
    if (sub.scheduled) return;
    sub.scheduled = true;
    setImmediate(() => {
      sub.scheduled = false;
      if (this.subs.has(sub)) this.writeOut(sub);
    });
  }

  /** the entries' frames for `s` (entries before `firstLive` are a replay: no timing comment) */
  private frames(s: Subscriber, entries: readonly number[], firstLive: number): Buffer {
    return s.batch ? this.batchFrames(entries) : this.plainFrames(s.timing === true, entries, firstLive);
  }

  /** one frame per entry (a timing subscriber's live ones after their `: rx=` comment), copied into one buffer: no view per frame */
  private plainFrames(timing: boolean, entries: readonly number[], firstLive: number): Buffer {
    const ring = this.ring;
    const comments: (string | undefined)[] = [];
    let size = 0;
    for (let i = 0; i < entries.length; i++) {
      const abs = entries[i]!;
      const rxAt = ring.rxAt(abs);
      const comment =
        timing && !Number.isNaN(rxAt) && i >= firstLive ? `: rx=${performance.timeOrigin + rxAt}\n` : undefined;
      comments.push(comment);
      size += (comment?.length ?? 0) + ring.frameLength(abs);
    }
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (let i = 0; i < entries.length; i++) {
      const comment = comments[i];
      if (comment !== undefined) at += out.write(comment, at, 'latin1');
      at += ring.copyFrame(entries[i]!, out, at);
    }
    return out;
  }

  /** runs of events as one `event: batch` message each (a JSON array), notices between them as they are */
  private batchFrames(entries: readonly number[]): Buffer {
    const ring = this.ring;
    const parts: Buffer[] = [];
    let batch: Buffer[] = [];
    let last = 0;
    const closeBatch = () => {
      if (batch.length === 0) return;
      parts.push(Buffer.from(`id: ${last}\nevent: batch\ndata: `), BATCH_OPEN, ...batch, BATCH_CLOSE);
      batch = [];
    };
    for (const abs of entries) {
      if (ring.isNotice(abs)) {
        closeBatch();
        parts.push(ring.frame(abs));
      } else {
        if (batch.length > 0) batch.push(BATCH_COMMA);
        batch.push(ring.json(abs));
        last = ring.seq(abs);
      }
    }
    closeBatch();
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** The subscriber's socket drained: write what waited. */
  drained(handle: unknown): void {
    const sub = handle as Sub;
    sub.blocked = false;
    this.writeOut(sub);
  }

  /** Replays the ring after `afterSeq` (Last-Event-ID), then streams live; ends with `event: end` once the trace is over. Returns a handle. */
  subscribe(s: Subscriber, afterSeq = 0): { handle: unknown; unsubscribe: () => void } {
    const sub = new Sub(s, this.ring.start, this.ring.end, afterSeq);
    this.subs.add(sub);
    this.writeOut(sub);
    return { handle: sub, unsubscribe: () => this.subs.delete(sub) };
  }

  get subscriberCount(): number {
    return this.subs.size;
  }

  /** The trace is over: each subscriber gets `event: end` after what it still has to read; the ring keeps less for late readers. */
  end(): void {
    this.ended = true;
    for (const sub of [...this.subs]) this.writeOut(sub);
    // a subscriber still reading keeps its place (a trimmed entry it had not read is said dropped)
    this.ring.trim(ENDED_RING_BYTES);
    for (const f of this.endListeners.splice(0)) f();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  onEnd(f: () => void): void {
    if (this.ended) f();
    else this.endListeners.push(f);
  }

  /** Every event still in the ring (for tests and the upgrade check's one-message trace). */
  events(): SimEvent[] {
    const out: SimEvent[] = [];
    for (let i = this.ring.start; i < this.ring.end; i++)
      if (!this.ring.isNotice(i)) out.push(JSON.parse(this.ring.json(i).toString()) as SimEvent);
    return out;
  }
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
