/**
 * Queue depths read from the broker itself during a --verify-on run, every `everyMs` (4 times a
 * second by default): a passive declare gives the ready count at once (the management API's
 * figures lag by its statistics interval), plus the deliveries our workers hold unacked.
 */
import type { Channel } from 'amqplib';
import type { ManagedConnection } from '../broker/index.js';

export interface DepthSamples {
  readonly t: number[];
  /** by queue, one depth per sample */
  readonly depth: Map<string, number[]>;
}

export class DepthProbe {
  readonly samples: DepthSamples = { t: [], depth: new Map() };
  private ch: Channel | undefined;
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(
    private readonly queues: readonly string[],
    private readonly unacked: ReadonlyMap<string, number>,
    private readonly now: () => number,
    private readonly everyMs = 250,
  ) {
    for (const q of queues) this.samples.depth.set(q, []);
  }

  async start(conn: ManagedConnection): Promise<void> {
    this.ch = await conn.createChannel();
    // a failed reading here is seen by the run's own reading (an unhandled one ended the process)
    this.timer = setInterval(() => void this.sample().catch(() => undefined), this.everyMs);
  }

  /** one reading of every queue now */
  async sample(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!this.ch || this.busy) return out;
    this.busy = true;
    try {
      const t = this.now();
      for (const q of this.queues) out.set(q, (await this.ch.checkQueue(q)).messageCount + (this.unacked.get(q) ?? 0));
      this.samples.t.push(Math.round(t));
      for (const q of this.queues) this.samples.depth.get(q)!.push(out.get(q)!);
    } finally {
      this.busy = false;
    }
    return out;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    while (this.busy) await new Promise((r) => setTimeout(r, 10));
    await this.ch?.close().catch(() => undefined);
  }
}

/**
 * From the samples: when every retry-path queue was back at its steady depth (its highest
 * before the first outage) for good, after the last outage ended; null when it never was.
 */
export function measuredDrainMs(
  s: DepthSamples,
  retryQueues: readonly string[],
  firstStart: number,
  lastEnd: number,
): number | null {
  let drainedAt = lastEnd;
  for (const q of retryQueues) {
    const d = s.depth.get(q) ?? [];
    let steady = 0;
    for (let i = 0; i < s.t.length && s.t[i]! < firstStart; i++) steady = Math.max(steady, d[i]!);
    let lastAbove = -1;
    for (let i = 0; i < s.t.length; i++) if (s.t[i]! >= lastEnd && d[i]! > steady) lastAbove = i;
    if (lastAbove === s.t.length - 1 && lastAbove >= 0) return null;
    if (lastAbove >= 0) drainedAt = Math.max(drainedAt, s.t[lastAbove + 1]!);
  }
  return drainedAt - lastEnd;
}
