/**
 * Copies the trace counts in a queue that the broker no longer holds. A message can leave a
 * queue without any event a client sees: the queue purged, a client outside the trace taking
 * it, or the broker losing it (a quorum queue dead-letters at most once by default, and a dead
 * letter in flight while its leader moves can vanish before it reaches the dead-letter
 * exchange). Left alone, the trace would wait for such a copy until its duration ran out and
 * then call it in flight.
 *
 * A queue is suspect while the trace counts copies ready in it, the broker's exact count
 * (a passive declare taken after the last event) says it holds none, and nothing moved since.
 * It is confirmed once that has lasted `graceMs` for the queue (longer for a 4.3 delayed-retry
 * quorum queue: a message waiting out its delay is not counted by the broker). Only a queue the
 * broker says is empty is named: then every copy the trace counts there is gone, so the
 * messages can be named too. A queue that still holds some is left: its copies keep moving, and
 * it is looked at again once it is empty.
 */

export interface VanishedCheck {
  /** trace time now */
  readonly now: number;
  /** the trace's last event (any message); a suspicion holds only while this stays put */
  readonly lastActivity: number;
  /** design queue -> copies the trace counts ready there (queues that may still move: consumed or with a TTL) */
  readonly traced: ReadonlyMap<string, number>;
  /** design queue -> the broker's ready count, sampled after `lastActivity`; absent: not known exactly */
  readonly held: ReadonlyMap<string, number>;
  /** how long an empty queue must stay empty before its copies are called gone */
  readonly graceMs: (queue: string) => number;
}

export class VanishedCopies {
  /** queue -> since when it looked empty, and the activity stamp then */
  private readonly suspects = new Map<string, { since: number; activity: number }>();

  /** the queues whose traced copies are gone (each returned once: the caller drops them) */
  check(c: VanishedCheck): string[] {
    const out: string[] = [];
    for (const q of [...this.suspects.keys()])
      if (!((c.traced.get(q) ?? 0) > 0 && c.held.get(q) === 0)) this.suspects.delete(q);
    for (const [q, n] of c.traced) {
      if (n <= 0 || c.held.get(q) !== 0) continue;
      const s = this.suspects.get(q);
      if (!s || s.activity !== c.lastActivity) {
        this.suspects.set(q, { since: c.now, activity: c.lastActivity });
        continue;
      }
      if (c.now - s.since >= c.graceMs(q)) {
        this.suspects.delete(q);
        out.push(q);
      }
    }
    return out;
  }
}
