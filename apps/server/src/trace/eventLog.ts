/**
 * A trace's events: a bounded ring (late subscribers replay what is still there) and live
 * subscribers, each a cursor into the ring, bounded in how far behind it may fall, so a slow or
 * stalled client can never grow memory.
 * Events are serialised once. `rxAt` (performance.now() when the broker delivered what caused
 * the event) feeds the delivery -> event-out latency figures.
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

/** What the stream carries besides SimEvents: the contract's notice frame. */
export type { TraceNotice };

export interface LogEntry {
  readonly seq: number;
  readonly kind: 'event' | 'notice';
  /** the JSON of the event or notice */
  readonly data: string;
  /** when the broker delivered what caused it (live events only, not replays) */
  readonly rxAt?: number;
  readonly isDelivery: boolean;
}

export interface Subscriber {
  /** one SSE message per turn with the events as a JSON array (`event: batch`) */
  readonly batch?: boolean;
  /** each live event's frame starts with the comment `: rx=<delivery time, epoch ms>` (benches) */
  readonly timing?: boolean;
  /** write frames; false means the socket buffer is full (call `drained` when it empties) */
  write(chunk: string): boolean;
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
const FLUSH_AFTER_MS = 2;

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
  private ring: LogEntry[] = [];
  private ringStart = 0;
  /** entries evicted from the ring so far: the absolute index of the oldest kept */
  private evicted = 0;
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
    private readonly capacity = 50_000,
    private readonly maxPending = MAX_PENDING_PER_SUBSCRIBER,
  ) {}

  nextSeq(): number {
    return ++this.seq;
  }

  emit(e: SimEvent, rxAt?: number): void {
    this.total += 1;
    this.counts[e.kind] = (this.counts[e.kind] ?? 0) + 1;
    this.push({
      seq: e.seq,
      kind: 'event',
      data: JSON.stringify(e),
      ...(rxAt !== undefined ? { rxAt } : {}),
      isDelivery: e.kind === 'delivered',
    });
  }

  notice(n: Omit<TraceNotice, 'kind'>): void {
    this.push({ seq: this.seq, kind: 'notice', data: JSON.stringify({ kind: 'notice', ...n }), isDelivery: false });
  }

  /** absolute index one past the newest entry */
  private get end_(): number {
    return this.evicted + this.ring.length - this.ringStart;
  }

  private at(abs: number): LogEntry {
    return this.ring[this.ringStart + abs - this.evicted]!;
  }

  private push(entry: LogEntry): void {
    if (this.ring.length - this.ringStart >= this.capacity) {
      this.ringStart += 1;
      this.evicted += 1;
      if (this.ringStart > 4096) {
        this.ring = this.ring.slice(this.ringStart);
        this.ringStart = 0;
      }
    }
    this.ring.push(entry);
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
    const oldest = Math.max(this.evicted, this.end_ - this.maxPending);
    if (sub.next < oldest) {
      sub.dropped += oldest - sub.next;
      sub.next = oldest;
    }
  }

  /** Writes what waits for `sub`, a chunk at a time, until the socket is full. */
  private writeOut(sub: Sub): void {
    if (sub.blocked) return;
    this.catchUp(sub);
    if (sub.dropped > 0) {
      const n = sub.dropped;
      sub.dropped = 0;
      sub.s.write(
        `event: notice\ndata: ${JSON.stringify({ kind: 'notice', level: 'warn', code: 'events-dropped', message: `${n} events were dropped because the client read too slowly`, t: 0 })}\n\n`,
      );
    }
    const end = this.end_;
    for (let chunks = 0; sub.next < end && !sub.blocked; chunks++) {
      if (chunks === CHUNKS_PER_TURN) {
        this.later(sub);
        return;
      }
      const chunk: LogEntry[] = [];
      const live: LogEntry[] = [];
      for (; sub.next < end && chunk.length < CHUNK; sub.next++) {
        const e = this.at(sub.next);
        if (sub.next >= sub.replayEnd) {
          chunk.push(e);
          live.push(e);
        } else if (e.seq > sub.afterSeq || (sub.afterSeq === 0 && e.seq === 0))
          chunk.push(e.rxAt === undefined ? e : { seq: e.seq, kind: e.kind, data: e.data, isDelivery: false });
      }
      if (chunk.length === 0) continue;
      // live subscribers at the same place get the same frames: built once, not once per client
      const ok = sub.s.write(
        live.length === chunk.length
          ? this.sharedFrames(sub.s, sub.next - chunk.length, chunk)
          : this.frames(sub.s, chunk),
      );
      const now = performance.now();
      for (const e of live) if (e.isDelivery && e.rxAt !== undefined) this.recordLatency(now - e.rxAt);
      if (!ok) sub.blocked = true;
    }
    if (this.ended && sub.next >= end && !sub.blocked) {
      this.subs.delete(sub);
      sub.s.write('event: end\ndata: {}\n\n');
      sub.s.ended?.();
    }
  }

  /** recent live chunks' frames by range and subscriber kind (300 clients of one trace cost one build) */
  private readonly frameCache = new Map<string, string>();

  private sharedFrames(s: Subscriber, start: number, entries: readonly LogEntry[]): string {
    const key = `${start}:${entries.length}:${s.batch ? 1 : 0}${s.timing ? 1 : 0}`;
    let out = this.frameCache.get(key);
    if (out === undefined) {
      out = this.frames(s, entries);
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

  private frames(s: Subscriber, entries: readonly LogEntry[]): string {
    let out = '';
    let batch: string[] = [];
    let last = 0;
    const closeBatch = () => {
      if (batch.length === 0) return;
      out += `id: ${last}\nevent: batch\ndata: [${batch.join(',')}]\n\n`;
      batch = [];
    };
    for (const e of entries) {
      if (e.kind === 'notice') {
        closeBatch();
        out += `event: notice\ndata: ${e.data}\n\n`;
      } else if (s.batch) {
        batch.push(e.data);
        last = e.seq;
      } else
        out += `${s.timing && e.rxAt !== undefined ? `: rx=${performance.timeOrigin + e.rxAt}\n` : ''}id: ${e.seq}\ndata: ${e.data}\n\n`;
    }
    closeBatch();
    return out;
  }

  /** The subscriber's socket drained: write what waited. */
  drained(handle: unknown): void {
    const sub = handle as Sub;
    sub.blocked = false;
    this.writeOut(sub);
  }

  /** Replays the ring after `afterSeq` (Last-Event-ID), then streams live; ends with `event: end` once the trace is over. Returns a handle. */
  subscribe(s: Subscriber, afterSeq = 0): { handle: unknown; unsubscribe: () => void } {
    const sub = new Sub(s, this.evicted, this.end_, afterSeq);
    this.subs.add(sub);
    this.writeOut(sub);
    return { handle: sub, unsubscribe: () => this.subs.delete(sub) };
  }

  get subscriberCount(): number {
    return this.subs.size;
  }

  /** The trace is over: each subscriber gets `event: end` after what it still has to read. */
  end(): void {
    this.ended = true;
    for (const sub of [...this.subs]) this.writeOut(sub);
    for (const f of this.endListeners.splice(0)) f();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  onEnd(f: () => void): void {
    if (this.ended) f();
    else this.endListeners.push(f);
  }

  /** Every event still in the ring (for the prediction comparison and tests). */
  events(): SimEvent[] {
    const out: SimEvent[] = [];
    for (let i = this.ringStart; i < this.ring.length; i++) {
      const e = this.ring[i]!;
      if (e.kind === 'event') out.push(JSON.parse(e.data) as SimEvent);
    }
    return out;
  }
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
