/**
 * Rejects a connection loss may have swallowed. A basic.reject is not confirmed: sent just before
 * the channel died, it may never have reached the broker, which then hands the message out again
 * (redelivered) on the next channel instead of dead-lettering it. The trace had counted it
 * rejected, so the redelivery waited for a copy that never came, the real dead letter that
 * followed it was paired with the lost reject, and the message stayed "at a consumer" until the
 * trace's duration ran out (1 in 2,000 after a closed connection).
 *
 * A worker keeps its last rejects per channel; when the channel closes they become uncertain. A
 * redelivery of one of them with the same x-death (a dead-lettered copy that came back has one
 * more death) is the message the reject never reached: the accounting lets its delivery go at
 * once, and the copy ledger puts the rejected copy back in its queue.
 */
import type { XDeathEntry } from '@retry-studio/topology-core/model';

/** rejects kept per channel (the ones a loss can swallow were sent in its last moments) */
const KEPT_PER_CHANNEL = 256;
/** uncertain rejects kept in all */
const KEPT_UNCERTAIN = 4096;

const signature = (xDeath: readonly XDeathEntry[] | undefined): string =>
  (xDeath ?? []).map((d) => `${d.queue}\u0000${d.reason}\u0000${d.count}`).join('\u0001');

export class LostRejects<Channel extends object> {
  private readonly recent = new WeakMap<Channel, Map<string, string>>();
  private readonly uncertain = new Map<string, string>();

  /** a reject sent on `ch` for this delivery (its x-death as delivered) */
  rejected(ch: Channel, msgId: string, xDeath: readonly XDeathEntry[] | undefined): void {
    let m = this.recent.get(ch);
    if (!m) this.recent.set(ch, (m = new Map()));
    m.delete(msgId);
    m.set(msgId, signature(xDeath));
    if (m.size > KEPT_PER_CHANNEL) m.delete(m.keys().next().value!);
  }

  /** the channel is gone: its last rejects may not have reached the broker */
  closed(ch: Channel): void {
    const m = this.recent.get(ch);
    if (!m) return;
    this.recent.delete(ch);
    for (const [id, sig] of m) {
      this.uncertain.delete(id);
      this.uncertain.set(id, sig);
    }
    while (this.uncertain.size > KEPT_UNCERTAIN) this.uncertain.delete(this.uncertain.keys().next().value!);
  }

  /** a delivery: true when it is the message an uncertain reject never reached (said once) */
  lost(msgId: string, redelivered: boolean, xDeath: readonly XDeathEntry[] | undefined): boolean {
    if (!redelivered) return false;
    const sig = this.uncertain.get(msgId);
    if (sig === undefined || sig !== signature(xDeath)) return false;
    this.uncertain.delete(msgId);
    return true;
  }

  clear(): void {
    this.uncertain.clear();
  }
}
