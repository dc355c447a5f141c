/**
 * The source channel's deliveries in delivery-tag order, and the acks to send for them: one
 * `multiple` ack for the longest run whose copies are all confirmed, single acks for confirmed
 * deliveries behind one that is held (left in the queue until the job ends: a multiple ack
 * would take it too). A delivery still being published stops the run: a multiple ack never
 * covers a message without a confirmed copy. One instance per channel: tags are per channel.
 */
export type SlotState = 'open' | 'confirmed' | 'held' | 'acked';

export interface Slot<T> {
  readonly tag: number;
  state: SlotState;
  item: T;
}

export class SourceAcks<T> {
  private order: Slot<T>[] = [];
  /** every slot before it is acked or held */
  private cursor = 0;
  /** a held slot lies before the cursor: multiple acks are over for this channel */
  private anyHeld = false;

  constructor(private readonly send: (tag: number, multiple: boolean) => void) {}

  add(tag: number, item: T): Slot<T> {
    const s: Slot<T> = { tag, state: 'open', item };
    this.order.push(s);
    return s;
  }

  /** Sends what can be acked now; returns the items acked. */
  flush(): T[] {
    const acked: T[] = [];
    const from = this.cursor;
    let multi = -1;
    const singles: Slot<T>[] = [];
    for (; this.cursor < this.order.length; this.cursor++) {
      const s = this.order[this.cursor]!;
      if (s.state === 'open') break;
      if (s.state === 'held') this.anyHeld = true;
      else if (s.state === 'confirmed') {
        if (this.anyHeld) singles.push(s);
        else multi = this.cursor;
      }
    }
    if (multi >= 0) {
      this.send(this.order[multi]!.tag, true);
      // everything outstanding up to it is acked with it (slots acked singly before are not outstanding)
      for (let i = from; i <= multi; i++) {
        const s = this.order[i]!;
        if (s.state === 'confirmed') {
          s.state = 'acked';
          acked.push(s.item);
        }
      }
    }
    for (const s of singles) {
      this.send(s.tag, false);
      s.state = 'acked';
      acked.push(s.item);
    }
    if (this.cursor > 4096) {
      this.order = this.order.slice(this.cursor);
      this.cursor = 0;
    }
    return acked;
  }

  /** Slots not acked: what the broker requeues when this channel dies. */
  outstanding(): Slot<T>[] {
    return this.order.filter((s) => s.state !== 'acked');
  }
}
