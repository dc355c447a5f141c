/**
 * Each message's processing attempts and successful processings, counted across the trace's
 * workers. Attempts are counted per logical message (a failure model describes the message: a
 * chain of tiers is one message's attempts), exactly as the simulator counts
 * FailureContext.attempt. A message processed successfully twice on the same queue is a
 * duplicate: redelivered after its ack was lost (a consumer's channel closed, a queue's leader
 * moved). Every worker acks after processing, so delivery is at-least-once here: a duplicate is
 * that, not a loss or a bug.
 */
export class ProcessingCounts {
  private readonly attempts = new Map<string, number>();
  /** successful processings per message and queue */
  private readonly processedOk = new Map<string, number>();
  private duplicateCount = 0;
  /** the messages behind `duplicates` that the prediction covers (the comparison flags them) */
  readonly duplicateIds = new Set<string>();

  /** `covered`: whether the prediction covers this message */
  constructor(private readonly covered: (msgId: string) => boolean) {}

  /** The message's next processing attempt (1-based). */
  nextAttempt(msgId: string): number {
    const n = (this.attempts.get(msgId) ?? 0) + 1;
    this.attempts.set(msgId, n);
    return n;
  }

  /** A worker processed `msgId` successfully on `queue`. */
  processed(msgId: string, queue: string): void {
    const k = `${msgId}\u0000${queue}`;
    const n = (this.processedOk.get(k) ?? 0) + 1;
    this.processedOk.set(k, n);
    if (n === 2) {
      this.duplicateCount += 1;
      if (this.covered(msgId)) this.duplicateIds.add(msgId);
    }
  }

  /** messages processed successfully more than once on one queue */
  get duplicates(): number {
    return this.duplicateCount;
  }

  /** The summary is final: the per-message counts go (the count and `duplicateIds` stay). */
  forget(): void {
    this.attempts.clear();
    this.processedOk.clear();
  }
}
