/**
 * The queues of a trace that could not be reached (their node down), with when. A queue whose
 * node is down keeps its messages on disk: they are not counted dropped, the trace waits for the
 * queue to come back (or its duration to end) before it settles. Dead letters routed to it
 * meanwhile are dropped by the broker (dead-lettering is at-most-once), which the trace cannot
 * see message by message: the difference with what it holds once back is counted
 * (`lostWhileUnavailable`).
 */
import type { Depth } from './depthSampler.js';
import type { TraceNotice } from './eventLog.js';

type Notice = Omit<TraceNotice, 'kind' | 't'>;

export interface Unavailability {
  readonly fromMs: number;
  readonly untilMs?: number;
}

export class QueueAvailability {
  /** design queue -> when it was seen unavailable, and available again */
  private readonly unavailable = new Map<string, { fromMs: number; untilMs?: number }>();

  constructor(private readonly now: () => number) {}

  /**
   * A queue whose node is down (`message`: the broker's words); `copies`: what the trace saw
   * routed into it. The notice to give, or undefined when already said.
   */
  markUnavailable(queue: string, message: string, copies: number): Notice | undefined {
    if (this.unavailable.get(queue)?.untilMs === undefined && this.unavailable.has(queue)) return undefined; // already said
    this.unavailable.set(queue, { fromMs: this.now() });
    return {
      level: 'warn',
      code: 'queue-unavailable',
      message: `queue '${queue}' is unavailable (${message}): the ${copies} message(s) the trace saw routed into it are accounted once it is back (what it held stays on disk; dead letters routed to it meanwhile are dropped by the broker)`,
    };
  }

  /** A queue reachable again: the notice to give, or undefined when it was never unavailable. */
  markReachable(queue: string): Notice | undefined {
    const o = this.unavailable.get(queue);
    if (!o) return undefined;
    o.untilMs = this.now();
    return {
      level: 'info',
      code: 'queue-available',
      message: `queue '${queue}' is available again after ${Math.round(o.untilMs - o.fromMs)} ms`,
    };
  }

  /** unavailable now */
  isDown(queue: string): boolean {
    const o = this.unavailable.get(queue);
    return o !== undefined && o.untilMs === undefined;
  }

  /** the first queue unavailable now, what keeps a trace from settling */
  blocker(): string | undefined {
    for (const [q, o] of this.unavailable)
      if (o.untilMs === undefined) return `queue '${q}' is unavailable (its node is down)`;
    return undefined;
  }

  /** every queue that was unavailable during the trace */
  queues(): IterableIterator<string> {
    return this.unavailable.keys();
  }

  snapshot(): Record<string, Unavailability> {
    return Object.fromEntries([...this.unavailable].map(([q, o]) => [q, { ...o }]));
  }

  /**
   * Per queue that was unavailable, messages the trace saw resting there that the broker does
   * not hold (`resting`: the trace's counts; `held`: the broker's; design names).
   */
  lostWhileUnavailable(
    resting: Readonly<Record<string, number>>,
    held: Readonly<Record<string, Depth>>,
  ): Record<string, number> {
    const out: Record<string, number> = {};
    for (const q of this.unavailable.keys()) {
      const h = held[q];
      const lost = h ? (resting[q] ?? 0) - h.ready - h.unacked : 0;
      if (lost > 0) out[q] = lost;
    }
    return out;
  }
}
