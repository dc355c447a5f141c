/**
 * The re-drive's publish side: copies go out in order, at the rate asked for, mandatory, on a
 * confirm channel of their own (batched by `FramePublisher` when it can attach). A copy counts
 * only once the broker confirmed it and did not return it: each ends in one outcome (confirmed,
 * refused by a nack or a return, or lost with the channel) that the job settles; the original
 * is acked only on `confirmed`.
 */
import type { ConfirmChannel, ConsumeMessage, Message } from 'amqplib';
import { waitForDrain, type ManagedConnection } from '../broker/index.js';
import { encodePropertyList, FramePublisher } from '../broker/publishFrames.js';
import { copyProperties, copyPropertyList } from './copyProperties.js';
import { copyIdentity } from './messageIdentity.js';
import { closedError, deadLetterOf, type Delivery } from './redriveDelivery.js';
import type { RedriveCounters } from './redriveCounters.js';

/** how a copy ended; `lost`: the publish channel died before its confirm, the copy may be on the broker */
export type CopyOutcome =
  { readonly kind: 'confirmed' } | { readonly kind: 'lost' } | { readonly kind: 'refused'; readonly reason: string };

const CONFIRMED: CopyOutcome = { kind: 'confirmed' };
const LOST: CopyOutcome = { kind: 'lost' };
const NACKED: CopyOutcome = {
  kind: 'refused',
  reason: 'the destination refused the publish (nack): left in the queue',
};

/** What the publisher needs from the job that owns it. */
export interface CopyPublisherHost {
  /** copies may go out now (running, not paused, not finishing) */
  readonly sending: boolean;
  /** the job still runs: publishing may resume */
  readonly active: boolean;
  /** the job failed: a confirm changes nothing any more */
  readonly failed: boolean;
  settle(d: Delivery, outcome: CopyOutcome): void;
  /** a publish that threw for another reason than a closed channel */
  refuse(d: Delivery, reason: string): void;
  lost(what: string): void;
  checkDone(): void;
}

export class CopyPublisher {
  /** copies not yet settled; what waits for the rate or the channel */
  readonly pending: Delivery[] = [];
  private inFlightCount = 0;
  /** copies published and not yet confirmed, oldest first: where a mandatory return is matched */
  private readonly flying = new Set<Delivery>();
  private pub: ConfirmChannel | undefined;
  /** the publish channel's batch writer (undefined: amqplib's publish, one message at a time) */
  private frames: FramePublisher | undefined;
  private gen = 0;
  private waker: (() => void) | undefined;

  constructor(
    private readonly host: CopyPublisherHost,
    private readonly counters: RedriveCounters,
    private readonly username: string,
    private readonly ratePerSecond: number | undefined,
  ) {}

  get inFlight(): number {
    return this.inFlightCount;
  }

  get connected(): boolean {
    return this.pub !== undefined;
  }

  /** the pump looks again (a copy queued, a status changed, a side came back) */
  wake(): void {
    this.waker?.();
  }

  async open(conn: Awaited<ReturnType<ManagedConnection['start']>>): Promise<void> {
    const ch = await conn.createConfirmChannel();
    ch.on('error', () => undefined);
    const gen = ++this.gen;
    ch.on('return', (m: ConsumeMessage) => {
      if (gen === this.gen) this.matchReturn(m);
    });
    ch.on('close', () => {
      if (gen === this.gen) this.host.lost('the publish channel closed');
    });
    this.pub = ch;
    this.frames = FramePublisher.attach(ch);
    this.wake();
  }

  /** the publish side is gone (false when it already was) */
  detach(): boolean {
    if (!this.pub) return false;
    this.pub = undefined;
    return true;
  }

  async close(): Promise<void> {
    const pub = this.pub;
    this.pub = undefined;
    await pub?.close().catch(() => undefined);
  }

  /** hands the batch of copies written so far to the socket: before the pump waits for anything */
  private flushCopies(): boolean {
    return this.frames?.channel === this.pub ? this.frames!.flush() : true;
  }

  async pump(): Promise<void> {
    const rate = this.ratePerSecond;
    // the next send's time; a pause or an outage does not build up a burst (at most 50 ms of catching up)
    let due = performance.now();
    while (this.host.active) {
      if (!this.host.sending || this.pending.length === 0 || !this.pub) {
        if (!this.flushCopies() && this.pub) await waitForDrain(this.pub).catch(() => undefined);
        this.host.checkDone();
        await new Promise<void>((r) => (this.waker = r));
        this.waker = undefined;
        continue;
      }
      // wait for the rate before taking the message: while it is still pending the job cannot finish under it
      if (rate) {
        const wait = due - performance.now();
        if (wait > 4) {
          this.flushCopies();
          await new Promise((r) => setTimeout(r, wait));
        }
        due = Math.max(due, performance.now() - 50) + 1000 / rate;
      }
      const pub = this.pub;
      const next = this.host.sending && pub ? this.pending.shift() : undefined;
      if (!next || !pub) continue;
      // a full batch goes out at once; a full writer is waited for
      if (!this.publish(pub, next) && !this.flushCopies()) await waitForDrain(pub).catch(() => undefined);
    }
  }

  /** false when the batch (or amqplib's writer) is full */
  private publish(pub: ConfirmChannel, d: Delivery): boolean {
    const mv = d.decision!;
    const frames = this.frames?.channel === pub ? this.frames : undefined;
    d.inFlight = true;
    d.returned = false;
    this.inFlightCount += 1;
    this.flying.add(d);
    try {
      const now = Date.now();
      if (d.edited) return this.publishEdited(pub, frames, d, now);
      // an arrow passed inline, not a named const: tsx's keepNames would rename every one (a defineProperty per message)
      if (frames)
        return frames.publish(
          mv.exchange,
          mv.routingKey,
          true,
          copyPropertyList(d.msg, this.username, () => deadLetterOf(d).headers, now),
          d.msg.content,
          (err) => this.onConfirm(d, err),
        );
      return pub.publish(
        mv.exchange,
        mv.routingKey,
        d.msg.content,
        { mandatory: true, ...copyProperties(d.msg, this.username, deadLetterOf(d).headers, now) },
        (err) => this.onConfirm(d, err),
      );
    } catch (err) {
      d.inFlight = false;
      this.inFlightCount -= 1;
      this.flying.delete(d);
      if (closedError(err)) this.pending.unshift(d);
      else this.host.refuse(d, `publish failed: ${(err as Error).message}`);
      return true;
    }
  }

  /** an edited copy: its properties and body encoded anew (the unedited path forwards the original's bytes) */
  private publishEdited(pub: ConfirmChannel, frames: FramePublisher | undefined, d: Delivery, now: number): boolean {
    const mv = d.decision!;
    const e = d.edited!;
    const props = copyProperties(d.msg, this.username, deadLetterOf(d).headers, now);
    const withEdit = { ...props, headers: { ...props.headers, ...e.headers } };
    if (frames)
      return frames.publish(mv.exchange, mv.routingKey, true, { base: encodePropertyList(withEdit) }, e.body, (err) =>
        this.onConfirm(d, err),
      );
    return pub.publish(mv.exchange, mv.routingKey, e.body, { mandatory: true, ...withEdit }, (err) =>
      this.onConfirm(d, err),
    );
  }

  /**
   * A basic.return names no publish: it is matched to the copy in flight with the same exchange,
   * routing key, body, properties and headers (the re-drive's marker left out). Byte-identical
   * copies are interchangeable, so the oldest is taken. Should none match exactly (a broker that
   * rewrote something), every copy in flight to that exchange and key counts as returned: their
   * originals stay in the queue, and copies that did arrive are counted as possible duplicates.
   */
  private matchReturn(m: Message): void {
    const ex = m.fields.exchange;
    const rk = m.fields.routingKey;
    let want: string | undefined;
    const sameRoute: Delivery[] = [];
    // oldest first: returns come in publish order, and earlier copies are confirmed and gone, so the match is near the front
    for (const d of this.flying) {
      if (d.returned || d.decision!.exchange !== ex || d.decision!.routingKey !== rk) continue;
      if (d.msg.content.equals(m.content) && (d.copyId ??= copyIdentity(d.msg)) === (want ??= copyIdentity(m))) {
        d.returned = true;
        return;
      }
      sameRoute.push(d);
    }
    for (const d of sameRoute) {
      d.returned = true;
      d.returnedUnsure = true;
    }
  }

  private onConfirm(d: Delivery, err: unknown): void {
    if (!d.inFlight) return;
    d.inFlight = false;
    this.inFlightCount -= 1;
    this.flying.delete(d);
    const returned = d.returned === true;
    // one of several copies taken for the returned one: if this one arrived, its original stays as well
    if (returned && d.returnedUnsure && !err) this.counters.duplicatesPossible += 1;
    d.returned = d.returnedUnsure = false;
    if (this.host.failed) return;
    this.host.settle(
      d,
      err
        ? closedError(err)
          ? LOST
          : NACKED
        : returned
          ? {
              kind: 'refused',
              reason: `returned unroutable by '${d.decision!.exchange || '(default)'}' with key '${d.decision!.routingKey}': left in the queue`,
            }
          : CONFIRMED,
    );
  }
}
