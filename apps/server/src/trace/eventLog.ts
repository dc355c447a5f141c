/**
 * A trace's events: a bounded ring (late subscribers replay what is still there) and live
 * subscribers, each with its own bounded queue, so a slow client can never grow memory.
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

const MAX_PENDING_PER_SUBSCRIBER = 20_000;
/** events per socket write (and per batch message): bounds the strings built at once */
const CHUNK = 1000;
/**
 * A flush at the end of the callback that produced the events (a microtask), or sooner once this
 * many wait or the first waited this long: one socket read can carry thousands of deliveries,
 * and on a busy machine handling them all takes hundreds of ms, which the first must not wait.
 */
const FLUSH_AT = 200;
const FLUSH_AFTER_MS = 2;
const END: LogEntry = { seq: 0, kind: 'notice', data: '', isDelivery: false };

class Sub {
  queue: LogEntry[] = [];
  blocked = false;
  dropped = 0;
  constructor(readonly s: Subscriber) {}
}

export class EventLog {
  private ring: LogEntry[] = [];
  private ringStart = 0;
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

  constructor(private readonly capacity = 50_000) {}

  nextSeq(): number {
    return ++this.seq;
  }

  emit(e: SimEvent, rxAt?: number): void {
    this.total += 1;
    this.counts[e.kind] = (this.counts[e.kind] ?? 0) + 1;
    this.push({ seq: e.seq, kind: 'event', data: JSON.stringify(e), ...(rxAt !== undefined ? { rxAt } : {}), isDelivery: e.kind === 'delivered' });
  }

  notice(n: Omit<TraceNotice, 'kind'>): void {
    this.push({ seq: this.seq, kind: 'notice', data: JSON.stringify({ kind: 'notice', ...n }), isDelivery: false });
  }

  private push(entry: LogEntry): void {
    if (this.ring.length - this.ringStart >= this.capacity) {
      this.ringStart += 1;
      if (this.ringStart > 4096) {
        this.ring = this.ring.slice(this.ringStart);
        this.ringStart = 0;
      }
    }
    this.ring.push(entry);
    if (this.subs.size === 0) return;
    for (const sub of this.subs) this.enqueue(sub, entry);
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

  private enqueue(sub: Sub, entry: LogEntry): void {
    if (sub.queue.length >= MAX_PENDING_PER_SUBSCRIBER) sub.dropped += 1;
    else sub.queue.push(entry);
  }

  /** Writes what waits for `sub`, a chunk at a time, until the socket is full. */
  private writeOut(sub: Sub): void {
    if (sub.blocked) return;
    if (sub.dropped > 0) {
      const n = sub.dropped;
      sub.dropped = 0;
      sub.s.write(`event: notice\ndata: ${JSON.stringify({ kind: 'notice', level: 'warn', code: 'events-dropped', message: `${n} events were dropped because the client read too slowly`, t: 0 })}\n\n`);
    }
    let i = 0;
    while (i < sub.queue.length && !sub.blocked) {
      const chunk = sub.queue.slice(i, i + CHUNK);
      i += chunk.length;
      const at = chunk.indexOf(END);
      const ok = sub.s.write(this.frames(sub.s, at >= 0 ? chunk.slice(0, at) : chunk));
      const now = performance.now();
      for (const e of chunk) if (e.isDelivery && e.rxAt !== undefined) this.recordLatency(now - e.rxAt);
      if (at >= 0) {
        sub.queue = [];
        this.subs.delete(sub);
        sub.s.write('event: end\ndata: {}\n\n');
        sub.s.ended?.();
        return;
      }
      if (!ok) sub.blocked = true;
    }
    sub.queue = i >= sub.queue.length ? [] : sub.queue.slice(i);
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
      } else out += `${s.timing && e.rxAt !== undefined ? `: rx=${performance.timeOrigin + e.rxAt}\n` : ''}id: ${e.seq}\ndata: ${e.data}\n\n`;
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
    const sub = new Sub(s);
    for (let i = this.ringStart; i < this.ring.length; i++) {
      const e = this.ring[i]!;
      // replayed, not live: no latency figure
      if (e.seq > afterSeq || (afterSeq === 0 && e.seq === 0)) sub.queue.push({ seq: e.seq, kind: e.kind, data: e.data, isDelivery: false });
    }
    if (this.ended) sub.queue.push(END);
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
    for (const sub of [...this.subs]) {
      sub.queue.push(END);
      this.writeOut(sub);
    }
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
