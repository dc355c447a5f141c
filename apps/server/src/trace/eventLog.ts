/**
 * A trace's events: a bounded ring (late subscribers replay what is still there) and live
 * subscribers, each a cursor into the ring, bounded in how far behind it may fall, so a slow or
 * stalled client can never grow memory.
 * Events are serialised once, into the bytes of their SSE frame (a Buffer: off the V8 heap, and
 * written to every subscriber's socket as it is, not encoded again per write; a ring of 50,000
 * events as strings held 20 MB of the heap and tripled the peak a burst's garbage grew it to).
 * The ring is bounded by count and by bytes. `rxAt` (performance.now() when the broker delivered
 * what caused the event) feeds the delivery -> event-out latency figures.
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
  /** its SSE frame as a plain subscriber reads it: `id: SEQ\ndata: JSON\n\n` (a notice: `event: notice\ndata: JSON\n\n`) */
  readonly frame: Buffer;
  /** where its JSON starts in `frame` (it ends 2 bytes before the frame does) */
  readonly dataStart: number;
  /** when the broker delivered what caused it (live events only, not replays) */
  readonly rxAt: number | undefined;
  readonly isDelivery: boolean;
}

export interface Subscriber {
  /** one SSE message per turn with the events as a JSON array (`event: batch`) */
  readonly batch?: boolean;
  /** each live event's frame starts with the comment `: rx=<delivery time, epoch ms>` (benches) */
  readonly timing?: boolean;
  /** write frames; false means the socket buffer is full (call `drained` when it empties) */
  write(chunk: Buffer): boolean;
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
/** the ring's bytes (its frames), besides its count: a trace of large events keeps fewer */
const RING_BYTES = 24 * 1024 * 1024;

const NOTICE_HEAD = 'event: notice\ndata: ';
const END_FRAME = Buffer.from('event: end\ndata: {}\n\n');
const BATCH_OPEN = Buffer.from('[');
const BATCH_COMMA = Buffer.from(',');
const BATCH_CLOSE = Buffer.from(']\n\n');
const json = (e: LogEntry): Buffer => e.frame.subarray(e.dataStart, e.frame.length - 2);

/**
 * An entry of the log, its frame built once. A class, not an object spread together: entries
 * built by spreads each had a hidden class of their own (35,000 of them, 8 MB, in a burst).
 */
class Entry implements LogEntry {
  readonly frame: Buffer;
  readonly dataStart: number;
  constructor(
    readonly seq: number,
    readonly kind: LogEntry['kind'],
    head: string,
    data: string,
    readonly rxAt: number | undefined,
    readonly isDelivery: boolean,
  ) {
    this.frame = Buffer.from(`${head}${data}\n\n`);
    this.dataStart = head.length;
  }
}

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
  /** the frames' bytes in the ring */
  private ringBytes = 0;
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
    private readonly capacityBytes = RING_BYTES,
  ) {}

  nextSeq(): number {
    return ++this.seq;
  }

  emit(e: SimEvent, rxAt?: number): void {
    this.total += 1;
    this.counts[e.kind] = (this.counts[e.kind] ?? 0) + 1;
    this.push(new Entry(e.seq, 'event', `id: ${e.seq}\ndata: `, JSON.stringify(e), rxAt, e.kind === 'delivered'));
  }

  notice(n: Omit<TraceNotice, 'kind'>): void {
    this.push(new Entry(this.seq, 'notice', NOTICE_HEAD, JSON.stringify({ kind: 'notice', ...n }), undefined, false));
  }

  /** absolute index one past the newest entry */
  private get end_(): number {
    return this.evicted + this.ring.length - this.ringStart;
  }

  private at(abs: number): LogEntry {
    return this.ring[this.ringStart + abs - this.evicted]!;
  }

  private push(added: LogEntry): void {
    this.ringBytes += added.frame.length;
    while (
      this.ring.length - this.ringStart > 0 &&
      (this.ring.length - this.ringStart >= this.capacity || this.ringBytes > this.capacityBytes)
    ) {
      this.ringBytes -= this.ring[this.ringStart]!.frame.length;
      this.ring[this.ringStart] = undefined as never; // its frame goes now, not when the ring is next cut
      this.ringStart += 1;
      this.evicted += 1;
      if (this.ringStart > 4096) {
        this.ring = this.ring.slice(this.ringStart);
        this.ringStart = 0;
      }
    }
    this.ring.push(added);
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
        Buffer.from(
          `${NOTICE_HEAD}${JSON.stringify({ kind: 'notice', level: 'warn', code: 'events-dropped', message: `${n} events were dropped because the client read too slowly`, t: 0 })}\n\n`,
        ),
      );
    }
    const end = this.end_;
    for (let chunks = 0; sub.next < end && !sub.blocked; chunks++) {
      if (chunks === CHUNKS_PER_TURN) {
        this.later(sub);
        return;
      }
      const chunk: LogEntry[] = [];
      /** chunk entries before this one are a replay (no timing, no latency figure) */
      let firstLive = 0;
      const live: LogEntry[] = [];
      for (; sub.next < end && chunk.length < CHUNK; sub.next++) {
        const e = this.at(sub.next);
        if (sub.next >= sub.replayEnd) {
          chunk.push(e);
          live.push(e);
        } else if (e.seq > sub.afterSeq || (sub.afterSeq === 0 && e.seq === 0)) {
          chunk.push(e);
          firstLive = chunk.length;
        }
      }
      if (chunk.length === 0) continue;
      // live subscribers at the same place get the same frames: built once, not once per client
      const ok = sub.s.write(
        live.length === chunk.length
          ? this.sharedFrames(sub.s, sub.next - chunk.length, chunk)
          : this.frames(sub.s, chunk, firstLive),
      );
      const now = performance.now();
      for (const e of live) if (e.isDelivery && e.rxAt !== undefined) this.recordLatency(now - e.rxAt);
      if (!ok) sub.blocked = true;
    }
    if (this.ended && sub.next >= end && !sub.blocked) {
      this.subs.delete(sub);
      sub.s.write(END_FRAME);
      sub.s.ended?.();
    }
  }

  /** recent live chunks' frames by range and subscriber kind (300 clients of one trace cost one build) */
  private readonly frameCache = new Map<string, Buffer>();

  private sharedFrames(s: Subscriber, start: number, entries: readonly LogEntry[]): Buffer {
    const key = `${start}:${entries.length}:${s.batch ? 1 : 0}${s.timing ? 1 : 0}`;
    let out = this.frameCache.get(key);
    if (out === undefined) {
      out = this.frames(s, entries, 0);
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
  private frames(s: Subscriber, entries: readonly LogEntry[], firstLive: number): Buffer {
    const parts: Buffer[] = [];
    let batch: Buffer[] = [];
    let last = 0;
    const closeBatch = () => {
      if (batch.length === 0) return;
      parts.push(Buffer.from(`id: ${last}\nevent: batch\ndata: `), BATCH_OPEN, ...batch, BATCH_CLOSE);
      batch = [];
    };
    entries.forEach((e, i) => {
      if (e.kind === 'notice') {
        closeBatch();
        parts.push(e.frame);
      } else if (s.batch) {
        if (batch.length > 0) batch.push(BATCH_COMMA);
        batch.push(json(e));
        last = e.seq;
      } else {
        if (s.timing && e.rxAt !== undefined && i >= firstLive)
          parts.push(Buffer.from(`: rx=${performance.timeOrigin + e.rxAt}\n`));
        parts.push(e.frame);
      }
    });
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
      if (e.kind === 'event') out.push(JSON.parse(json(e).toString()) as SimEvent);
    }
    return out;
  }
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
