/**
 * Binary min-heap of scheduled work keyed by (time, seq): equal times come out in the order
 * they were scheduled. Keys live in parallel arrays so a push allocates nothing but the payload.
 */
export class EventHeap<T> {
  private times: number[] = [];
  private seqs: number[] = [];
  private items: T[] = [];
  private nextSeq = 0;

  get size(): number {
    return this.items.length;
  }

  /** time of the earliest entry, or Infinity when empty */
  peekTime(): number {
    return this.items.length > 0 ? (this.times[0] as number) : Infinity;
  }

  push(time: number, item: T): void {
    const times = this.times;
    const seqs = this.seqs;
    const items = this.items;
    const seq = this.nextSeq++;
    let i = items.length;
    times.push(time);
    seqs.push(seq);
    items.push(item);
    // sift up
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = times[p] as number;
      if (pt < time || (pt === time && (seqs[p] as number) < seq)) break;
      times[i] = pt;
      seqs[i] = seqs[p] as number;
      items[i] = items[p] as T;
      i = p;
    }
    times[i] = time;
    seqs[i] = seq;
    items[i] = item;
  }

  /** removes and returns the earliest entry; its time is `lastTime` */
  lastTime = 0;
  pop(): T | undefined {
    const items = this.items;
    const n = items.length;
    if (n === 0) return undefined;
    const times = this.times;
    const seqs = this.seqs;
    const top = items[0] as T;
    this.lastTime = times[0] as number;
    const lastItem = items.pop() as T;
    const lastT = times.pop() as number;
    const lastS = seqs.pop() as number;
    const m = n - 1;
    if (m > 0) {
      // sift the last entry down from the root
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= m) break;
        const r = l + 1;
        let c = l;
        if (r < m) {
          const lt = times[l] as number;
          const rt = times[r] as number;
          if (rt < lt || (rt === lt && (seqs[r] as number) < (seqs[l] as number))) c = r;
        }
        const ct = times[c] as number;
        if (ct > lastT || (ct === lastT && (seqs[c] as number) > lastS)) break;
        times[i] = ct;
        seqs[i] = seqs[c] as number;
        items[i] = items[c] as T;
        i = c;
      }
      times[i] = lastT;
      seqs[i] = lastS;
      items[i] = lastItem;
    }
    return top;
  }
}
