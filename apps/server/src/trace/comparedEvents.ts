/**
 * The live events of the messages the prediction covers, kept for the comparison with it
 * (bounded: past MAX_COMPARED_EVENTS the comparison says it is truncated), and the comparison
 * once the trace is over; its events are let go then, so a kept trace stays small.
 */
import type { SimEvent } from '@retry-studio/topology-core/sim';
import { MAX_COMPARED_EVENTS, MAX_PREDICTED_MESSAGES, type Comparison } from './prediction.js';

export class ComparedEvents {
  private readonly kept: SimEvent[] = [];
  private truncated = false;
  private comparison: Comparison | undefined;

  /** `messageIndex`: a test message's 1-based index */
  constructor(private readonly messageIndex: (msgId: string) => number) {}

  keep(e: SimEvent): void {
    if (e.msgId === '' || e.kind === 'depth' || this.messageIndex(e.msgId) > MAX_PREDICTED_MESSAGES) return;
    if (this.kept.length < MAX_COMPARED_EVENTS) this.kept.push(e);
    else this.truncated = true;
  }

  /** the events kept, all of them unless `truncated` */
  events(): { events: readonly SimEvent[]; truncated: boolean } {
    return { events: this.kept, truncated: this.truncated };
  }

  /** the final comparison, once kept */
  get final(): Comparison | undefined {
    return this.comparison;
  }

  /** Keeps the final comparison and lets the events go. */
  keepFinal(c: Comparison): void {
    this.comparison = c;
    this.kept.length = 0;
  }
}
