/**
 * A trace's events: a bounded ring (late subscribers replay what is still there) and live
 * subscribers, each with its own bounded queue, so a slow client can never grow memory.
 * Events are serialised once. `rxAt` (performance.now() when the broker delivered what caused
 * the event) feeds the delivery -> event-out latency figures.
 */
import type { SimEvent } from '@retry-studio/topology-core';

/** What the stream carries besides SimEvents. */
export interface TraceNotice {
  readonly kind: 'notice';
  readonly level: 'info' | 'warn' | 'error';
  readonly code: string;
  readonly message: string;
  readonly t: number;
}

export interface LogEntry {
  readonly seq: number;
  /** the SSE frame, ready to write */
  readonly frame: string;
  readonly rxAt?: number;
  readonly isDelivery: boolean;
}

export interface Subscriber {
  /** write one frame; false means the socket buffer is full */
  write(frame: string, entry?: LogEntry): boolean;
  /** when the frame was written, with the delivery time it came from */
  onWritten?(entry: LogEntry, at: number): void;
}

const MAX_PENDING_PER_SUBSCRIBER = 20_000;

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
  private readonly endListeners: (() => void)[] = [];
  seq = 0;
  total = 0;
  readonly counts: Record<string, number> = {};
  /** delivery -> frame handed to the socket, ms, for live 'delivered' events (recorded by the stream) */
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
    this.push({ seq: e.seq, frame: `id: ${e.seq}\ndata: ${JSON.stringify(e)}\n\n`, ...(rxAt !== undefined ? { rxAt } : {}), isDelivery: e.kind === 'delivered' });
  }

  notice(n: Omit<TraceNotice, 'kind'>): void {
    this.push({ seq: this.seq, frame: `event: notice\ndata: ${JSON.stringify({ kind: 'notice', ...n })}\n\n`, isDelivery: false });
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
    for (const sub of this.subs) this.deliver(sub, entry);
  }

  private deliver(sub: Sub, entry: LogEntry): void {
    if (sub.blocked) {
      if (sub.queue.length >= MAX_PENDING_PER_SUBSCRIBER) sub.dropped += 1;
      else sub.queue.push(entry);
      return;
    }
    this.writeNow(sub, entry);
  }

  private writeNow(sub: Sub, entry: LogEntry): void {
    const ok = sub.s.write(entry.frame, entry);
    sub.s.onWritten?.(entry, performance.now());
    if (!ok) sub.blocked = true;
  }

  /** The subscriber's socket drained: flush what waited. */
  drained(handle: unknown): void {
    const sub = handle as Sub;
    sub.blocked = false;
    if (sub.dropped > 0) {
      const n = sub.dropped;
      sub.dropped = 0;
      sub.s.write(`event: notice\ndata: ${JSON.stringify({ kind: 'notice', level: 'warn', code: 'events-dropped', message: `${n} events were dropped because the client read too slowly`, t: 0 })}\n\n`);
    }
    let i = 0;
    while (i < sub.queue.length && !sub.blocked) this.writeNow(sub, sub.queue[i++]!);
    sub.queue = sub.queue.slice(i);
  }

  /** Replays the ring after `afterSeq` (Last-Event-ID), then streams live. Returns a handle. */
  subscribe(s: Subscriber, afterSeq = 0): { handle: unknown; unsubscribe: () => void } {
    const sub = new Sub(s);
    for (let i = this.ringStart; i < this.ring.length; i++) {
      const e = this.ring[i]!;
      // replayed, not live: no latency figure
      if (e.seq > afterSeq || (afterSeq === 0 && e.seq === 0)) this.deliver(sub, { seq: e.seq, frame: e.frame, isDelivery: false });
    }
    this.subs.add(sub);
    return { handle: sub, unsubscribe: () => this.subs.delete(sub) };
  }

  get subscriberCount(): number {
    return this.subs.size;
  }

  end(): void {
    this.ended = true;
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
      const f = this.ring[i]!.frame;
      if (f.startsWith('id: ')) out.push(JSON.parse(f.slice(f.indexOf('data: ') + 6)) as SimEvent);
    }
    return out;
  }
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
