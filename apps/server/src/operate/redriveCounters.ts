/**
 * The job's counts: the core's tally (moved, by destination, filtered out, skipped: the same type
 * the dry run's plan has) and what only a live run knows: read, left, possible duplicates. Each
 * count is taken back when its original returns to the queue (a lost consume channel), so
 * `moved` counts confirmed copies once, whatever the connections did.
 */
import {
  AT_LEAST_ONCE_NOTE,
  destinationLabel,
  RedriveTally,
  xDeathNote,
  type BrokerVersionProfile,
  type RedriveDecision,
} from '@retry-studio/topology-core/operate';
import type { Delivery, Held } from './redriveDelivery.js';

import type { RedriveProgress, RedriveStatus } from '@retry-studio/contract';

/** the job's progress as the HTTP API and the CLI report it: one definition, in the contract */
export type { RedriveProgress, RedriveStatus };

export class RedriveCounters extends RedriveTally {
  before = 0;
  seen = 0;
  left = 0;
  /** decided to move (the limit counts these) */
  scheduled = 0;
  /** held unacked until the end, this run and beyond it (the window fills with these) */
  held = 0;
  duplicatesPossible = 0;
  deduplicated = 0;
  reconnects = 0;
  private readonly labels = new WeakMap<object, string>();

  /** a confirmed copy, by destination: its label made once per decision (a fixed decision is one object for every copy) */
  countMovedTo(decision: Extract<RedriveDecision, { kind: 'move' }>): void {
    let l = this.labels.get(decision);
    if (l === undefined) this.labels.set(decision, (l = destinationLabel(decision)));
    this.countMoved(l);
  }

  /** left in the queue: counted in `left` (and why) when it counted as read */
  countHeld(d: Delivery, why: { reason?: string; filtered?: boolean }): void {
    this.held += 1;
    if (!d.counted) return;
    d.held = { ...(why.reason ? { reason: why.reason } : {}), filtered: why.filtered === true };
    this.left += 1;
    if (why.filtered) this.filteredOut += 1;
    if (why.reason) this.countSkipped(why.reason);
  }

  /** the original went back to the queue: it will be read (and counted) again */
  uncount(d: Delivery): void {
    if (d.counted) this.seen -= 1;
    if (d.scheduled) this.scheduled -= 1;
    if (d.held) this.uncountHeld(d.held);
    d.counted = d.scheduled = false;
    d.held = undefined;
  }

  private uncountHeld(h: Held): void {
    this.left -= 1;
    if (h.filtered) this.filteredOut -= 1;
    if (h.reason !== undefined) this.uncountSkipped(h.reason);
  }
}

/** What the counts do not know: the job's state at the moment of asking. */
export interface RedriveJobState {
  readonly id: string;
  readonly queue: string;
  readonly status: RedriveStatus;
  readonly inFlight: number;
  readonly reconnecting: boolean;
  readonly lastLoss: string | undefined;
  readonly error: string | undefined;
  readonly stoppedEarly: string | undefined;
  readonly elapsedMs: number;
  readonly broker: BrokerVersionProfile;
}

export function redriveProgress(c: RedriveCounters, s: RedriveJobState): RedriveProgress {
  return {
    id: s.id,
    queue: s.queue,
    status: s.status,
    before: c.before,
    seen: c.seen,
    moved: c.moved,
    left: c.left,
    filteredOut: c.filteredOut,
    inFlight: s.inFlight,
    byDestination: { ...c.byDestination },
    skipped: { ...c.skipped },
    duplicatesPossible: c.duplicatesPossible,
    deduplicated: c.deduplicated,
    reconnects: c.reconnects,
    reconnecting: s.reconnecting,
    ...(s.lastLoss ? { lastLoss: s.lastLoss } : {}),
    ...(s.error ? { error: s.error } : {}),
    ...(s.stoppedEarly ? { stoppedEarly: s.stoppedEarly } : {}),
    elapsedMs: s.elapsedMs,
    notes: [
      AT_LEAST_ONCE_NOTE,
      xDeathNote(s.broker),
      ...(c.duplicatesPossible > 0
        ? [
            `${c.duplicatesPossible} possible duplicates: copies in flight at the crash (published but not yet confirmed, or acked but the ack not yet proven, when a connection died, so published again)`,
          ]
        : []),
    ],
  };
}
