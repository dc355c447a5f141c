/**
 * What the re-drive remembers across a lost consume connection, so that nothing is lost and as
 * little as possible is copied twice. The broker requeues every unacked original; by identity
 * (`messageIdentity`, a content hash), this ledger says what each redelivery is:
 * - `copiedRequeued`: its copy was confirmed and its ack surely not sent: ack it, no second copy;
 * - `copiedMaybeAcked`: its copy was confirmed and its ack sent but not proven processed: copy it
 *   again (a possible duplicate), since a byte-identical twin cannot be told from it and acking
 *   the twin without a copy would lose it; checkpoints keep these to one batch of acks;
 * - an orphan: its copy was in flight: the redelivery waits for that copy's confirm.
 */
import type { Channel } from 'amqplib';
import { CountedSet } from './countedSet.js';
import type { CopyOutcome } from './copyPublisher.js';
import type { RedriveCounters } from './redriveCounters.js';
import { EDIT_NOT_TWICE, identityOf, type Delivery } from './redriveDelivery.js';
import type { Slot, SourceAcks } from './sourceAcks.js';

/** What the ledger needs from the job to settle a redelivery. */
export interface LedgerHost {
  /** is the consume channel `d` came on still open (so its tag can be acked or held) */
  live(d: Delivery): boolean;
  hold(d: Delivery, why: { reason?: string }): void;
  /** its copy (or its twin's) is confirmed: ack it */
  confirmed(d: Delivery): void;
  countMoved(d: Delivery): void;
  /** publish its copy (again) first */
  resend(d: Delivery): void;
  /** the job still runs (not finishing) */
  readonly active: boolean;
}

export class RedeliveryLedger {
  /** originals whose copy is confirmed and which the broker surely requeued */
  readonly copiedRequeued = new CountedSet();
  /** originals whose copy is confirmed and whose ack was sent but not proven processed when the consume side died */
  readonly copiedMaybeAcked = new CountedSet();
  /** originals whose copy was still unconfirmed when their consume channel died, by identity: their redelivery waits for the confirm */
  private readonly orphans = new Map<string, Delivery[]>();
  /** originals whose edited copy may have arrived: held when they come back, never copied again */
  readonly editUnsure = new CountedSet();
  private orphanCount = 0;
  /** acked originals not yet proven processed: the batch under a checkpoint, and the next one */
  private proving: Delivery[] | undefined;
  private unproven: Delivery[] = [];

  constructor(
    private readonly host: LedgerHost,
    private readonly counts: RedriveCounters,
  ) {}

  /** originals the queue still owes back after a loss (copies confirmed) */
  get awaited(): number {
    return this.copiedRequeued.size + this.copiedMaybeAcked.size + this.orphanCount + this.editUnsure.size;
  }

  addOrphan(d: Delivery): void {
    const id = identityOf(d);
    const list = this.orphans.get(id);
    if (list) list.push(d);
    else this.orphans.set(id, [d]);
    this.orphanCount += 1;
  }

  takeOrphan(id: string, which?: Delivery): Delivery | undefined {
    const list = this.orphans.get(id);
    if (!list) return undefined;
    const i = which ? list.indexOf(which) : 0;
    if (i < 0) return undefined;
    const [d] = list.splice(i, 1);
    if (list.length === 0) this.orphans.delete(id);
    this.orphanCount -= 1;
    return d;
  }

  /**
   * What a redelivered original is, after a loss: its copy confirmed (`copied`: ack it, no second
   * copy), its edited copy perhaps arrived (`edit-unsure`), its ack perhaps processed (`recopy`),
   * its copy still in flight (`waits` for that confirm), or none of these (`new`).
   */
  redelivered(d: Delivery): 'copied' | 'edit-unsure' | 'recopy' | 'waits' | 'new' {
    const id = identityOf(d);
    if (this.copiedRequeued.take(id)) return 'copied';
    if (this.editUnsure.take(id)) return 'edit-unsure';
    if (this.copiedMaybeAcked.take(id)) return 'recopy';
    const old = this.takeOrphan(id);
    if (!old) return 'new';
    old.successor = d;
    d.waitsFor = old;
    return 'waits';
  }

  /** Sends the acks that can go now (true when any did), then proves them with a checkpoint when `prove`. */
  flushAcks(
    acks: SourceAcks<Delivery>,
    src: Channel,
    queue: string,
    prove: boolean,
    current: () => boolean,
    proven: () => void,
  ): boolean {
    const acked = acks.flush();
    if (acked.length === 0) return false;
    for (const d of acked) this.unproven.push(d);
    if (prove) this.checkpoint(src, queue, current, proven);
    return true;
  }

  /**
   * Acks have no reply: an ack still on its way when the connection dies is lost, and its
   * original comes back although its copy was confirmed. A passive declare on the same channel
   * is answered by the queue after every earlier ack on the channel was handed to it, so its
   * reply proves those acks processed; until then they are kept (and become awaited
   * redeliveries if the consume side dies).
   */
  private checkpoint(src: Channel, queue: string, current: () => boolean, proven: () => void): void {
    if (this.proving || this.unproven.length === 0) return;
    const batch = (this.proving = this.unproven);
    this.unproven = [];
    src.checkQueue(queue).then(
      () => {
        if (!current() || this.proving !== batch) return;
        this.proving = undefined;
        this.checkpoint(src, queue, current, proven);
        proven();
      },
      () => undefined, // the channel died: consumeLost() took the batch over
    );
  }

  /** back in the queue: read again, or (a copy made, its ack unproven) copied again when it comes back */
  unseeOrRecopy(d: Delivery): void {
    if (d.editUnsure) {
      this.editUnsure.add(identityOf(d));
      this.counts.uncount(d);
    } else if (d.recopy) this.copiedMaybeAcked.add(identityOf(d));
    else this.counts.uncount(d);
  }

  /**
   * The consume side died and the broker requeued every unacked original (`outstanding`): each is
   * read again, or awaited here. Acks not proven may not have reached the queue either: their
   * originals may come back.
   */
  consumeLost(outstanding: readonly Slot<Delivery>[]): void {
    for (const s of outstanding) {
      const d = s.item;
      // confirmed copy (or a redelivery being acked without one), ack not sent: surely requeued
      if (s.state === 'confirmed') this.copiedRequeued.add(identityOf(d));
      else if (s.state === 'held') this.unseeOrRecopy(d);
      else if (d.inFlight) this.addOrphan(d);
      else if (d.waitsFor) {
        // a redelivery waiting for an orphan's confirm went back too: the orphan waits for the next one
        d.waitsFor.successor = undefined;
        this.addOrphan(d.waitsFor);
        d.waitsFor = undefined;
      } else this.unseeOrRecopy(d); // still to publish: read again
      if (s.state === 'held') this.counts.held -= 1;
    }
    for (const d of [...(this.proving ?? []), ...this.unproven]) this.copiedMaybeAcked.add(identityOf(d));
    this.proving = undefined;
    this.unproven = [];
  }

  /**
   * A copy ended. The original is acked only on a confirmed copy; a refused one stays in the queue.
   * Lost (the publish side died before the confirm): the copy may be on the broker; the original
   * is published again (now, or when the queue redelivers it), a possible duplicate.
   */
  settle(d: Delivery, o: CopyOutcome): 'live' | 'orphan' {
    if (!this.host.live(d)) {
      this.settleOrphan(d, o);
      return 'orphan';
    }
    if (o.kind === 'lost') {
      this.counts.duplicatesPossible += 1;
      if (d.edited) {
        d.editUnsure = true;
        this.host.hold(d, { reason: EDIT_NOT_TWICE });
      } else if (this.host.active) this.host.resend(d);
      else this.host.hold(d, {});
    } else if (d.recopy) {
      // its first copy was confirmed: this one, or the original left in the queue, may be a second
      this.counts.duplicatesPossible += 1;
      if (o.kind === 'refused') this.host.hold(d, {});
      else this.host.confirmed(d);
    } else if (o.kind === 'refused') this.host.hold(d, { reason: o.reason });
    else {
      this.host.countMoved(d);
      this.host.confirmed(d);
    }
    return 'live';
  }

  /**
   * An orphan's copy ended: its consume channel died while the copy was in flight, the queue
   * redelivers the original (or already did: `successor`), and this outcome decides what happens
   * to it. Confirmed: the redelivery is acked without a copy (or awaited). Lost: the copy may be on
   * the broker; the original is published again, a possible duplicate. Refused: it stays.
   */
  private settleOrphan(d: Delivery, o: CopyOutcome): void {
    if (!d.successor) this.takeOrphan(identityOf(d), d);
    const next = d.successor;
    d.successor = undefined;
    if (next) next.waitsFor = undefined;
    const nextLive = next !== undefined && this.host.live(next);
    if (o.kind === 'lost') {
      this.counts.duplicatesPossible += 1;
      if (d.edited) d.editUnsure = true;
      if (nextLive && d.edited) {
        next.counted = d.counted;
        next.editUnsure = true;
        if (d.scheduled) this.counts.scheduled -= 1;
        this.host.hold(next, { reason: EDIT_NOT_TWICE });
      } else if (nextLive) {
        next.counted = d.counted;
        next.scheduled = d.scheduled;
        if (d.recopy) next.recopy = true;
        if (d.dl) next.dl = d.dl;
        next.decision = d.decision!;
        this.host.resend(next);
      } else this.unseeOrRecopy(d);
    } else if (o.kind === 'refused') {
      if (d.recopy) this.counts.duplicatesPossible += 1;
      if (nextLive) {
        next.counted = d.counted;
        next.scheduled = false;
        if (d.scheduled) this.counts.scheduled -= 1;
        this.host.hold(next, { reason: o.reason });
      } else this.unseeOrRecopy(d);
    } else {
      if (d.recopy) this.counts.duplicatesPossible += 1;
      else this.host.countMoved(d);
      if (nextLive) {
        this.counts.deduplicated += 1;
        this.host.confirmed(next);
      } else this.copiedRequeued.add(identityOf(d));
    }
  }
}
