/**
 * The live steps of the messages the prediction covers, kept for the comparison with it: each
 * event read into its message's milestones as it goes out (prediction.ts), not kept whole (a
 * delivery's headers and x-death are most of an event, and the comparison reads none of them).
 * Bounded: past MAX_COMPARED_EVENTS steps the comparison says it is truncated. The comparison
 * once the trace is over is kept, and the steps let go then, so a kept trace stays small.
 */
import type { SimEvent } from '@retry-studio/topology-core/sim';
import {
  addMilestone,
  MAX_COMPARED_EVENTS,
  MAX_PREDICTED_MESSAGES,
  type Comparison,
  type Milestones,
} from './prediction.js';

export class ComparedEvents {
  private kept: Milestones = new Map();
  private steps = 0;
  private truncated = false;
  private comparison: Comparison | undefined;

  /** `messageIndex`: a test message's 1-based index */
  constructor(private readonly messageIndex: (msgId: string) => number) {}

  keep(e: SimEvent): void {
    if (e.msgId === '' || e.kind === 'depth' || this.comparison !== undefined) return;
    if (this.messageIndex(e.msgId) > MAX_PREDICTED_MESSAGES) return;
    if (this.steps >= MAX_COMPARED_EVENTS) {
      this.truncated = true;
      return;
    }
    if (addMilestone(this.kept, e)) this.steps += 1;
  }

  /** the steps kept, all of them unless `truncated` */
  milestones(): { milestones: Milestones; truncated: boolean } {
    return { milestones: this.kept, truncated: this.truncated };
  }

  /** the final comparison, once kept */
  get final(): Comparison | undefined {
    return this.comparison;
  }

  /** Keeps the final comparison and lets the steps go. */
  keepFinal(c: Comparison): void {
    this.comparison = c;
    this.kept = new Map();
  }
}
