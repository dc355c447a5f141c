/**
 * A trace's SSE frames, newest last, bounded by count and by bytes: the event log's ring
 * (eventLog.ts). The frames' bytes are appended to large shared slabs (off the V8 heap) and each
 * entry is a few numbers in typed arrays, not objects: a ring of 50,000 entries as objects (an
 * entry and a Buffer view each) held 8 MB of the heap per trace, every one of them copied by each
 * scavenge of a burst and kept by each of the 20 finished traces a server keeps. Consecutive
 * frames sit side by side in a slab, so a run of them is written to a socket as one slice.
 *
 * Entries are numbered by an absolute index that only grows: `start` is the oldest still kept,
 * `end` one past the newest.
 */

/** bytes per slab; a frame above half of it gets a slab of its own */
const SLAB_BYTES = 256 * 1024;
const FIRST_CAPACITY = 1024;

const NOTICE = 1;
const DELIVERY = 2;

export class FrameRing {
  private seqs = new Float64Array(FIRST_CAPACITY);
  private rxAts = new Float64Array(FIRST_CAPACITY);
  private slabOf = new Int32Array(FIRST_CAPACITY);
  private offsets = new Int32Array(FIRST_CAPACITY);
  private lengths = new Int32Array(FIRST_CAPACITY);
  private heads = new Int32Array(FIRST_CAPACITY);
  private flags = new Uint8Array(FIRST_CAPACITY);
  /** absolute index of the arrays' slot 0 */
  private base = 0;
  private first = 0;
  private next = 0;
  /** slabs by absolute number, from `slabBase` on; the last is being filled up to `slabUsed` */
  private slabs: Buffer[] = [];
  private slabBase = 0;
  private slabUsed = SLAB_BYTES;
  /** the kept frames' bytes */
  bytes = 0;

  constructor(
    private readonly capacity: number,
    private readonly capacityBytes: number,
  ) {}

  /** absolute index of the oldest entry kept */
  get start(): number {
    return this.first;
  }
  /** absolute index one past the newest */
  get end(): number {
    return this.next;
  }

  /** Appends `head + json + "\n\n"` as a frame; `rxAt` NaN when it has none. Evicts the oldest past a bound. */
  push(seq: number, notice: boolean, head: string, json: string, rxAt: number, delivery: boolean): void {
    const headBytes = Buffer.byteLength(head);
    const length = headBytes + Buffer.byteLength(json) + 2;
    const [slab, offset] = this.room(length);
    let at = offset + slab.write(head, offset, 'utf8');
    at += slab.write(json, at, 'utf8');
    slab.write('\n\n', at, 'latin1');
    const i = this.slot();
    this.seqs[i] = seq;
    this.rxAts[i] = rxAt;
    this.slabOf[i] = this.slabBase + this.slabs.length - 1;
    this.offsets[i] = offset;
    this.lengths[i] = length;
    this.heads[i] = headBytes;
    this.flags[i] = (notice ? NOTICE : 0) | (delivery ? DELIVERY : 0);
    this.next += 1;
    this.bytes += length;
    while (this.next - this.first > 1 && (this.next - this.first > this.capacity || this.bytes > this.capacityBytes))
      this.evict();
  }

  /** Keeps at most `bytes` of the newest frames (a finished trace keeps less). */
  trim(bytes: number): void {
    while (this.next - this.first > 1 && this.bytes > bytes) this.evict();
  }

  seq(abs: number): number {
    return this.seqs[abs - this.base]!;
  }
  isNotice(abs: number): boolean {
    return (this.flags[abs - this.base]! & NOTICE) !== 0;
  }
  isDelivery(abs: number): boolean {
    return (this.flags[abs - this.base]! & DELIVERY) !== 0;
  }
  /** NaN: no delivery time */
  rxAt(abs: number): number {
    return this.rxAts[abs - this.base]!;
  }
  /** the entry's whole frame */
  frame(abs: number): Buffer {
    const i = abs - this.base;
    return this.slab(i).subarray(this.offsets[i]!, this.offsets[i]! + this.lengths[i]!);
  }
  /** the entry's frame's byte length */
  frameLength(abs: number): number {
    return this.lengths[abs - this.base]!;
  }
  /** copies the entry's whole frame into `target` at `at` (no view made); returns its length */
  copyFrame(abs: number, target: Buffer, at: number): number {
    const i = abs - this.base;
    const o = this.offsets[i]!;
    return this.slab(i).copy(target, at, o, o + this.lengths[i]!);
  }
  /** the entry's JSON */
  json(abs: number): Buffer {
    const i = abs - this.base;
    const o = this.offsets[i]!;
    return this.slab(i).subarray(o + this.heads[i]!, o + this.lengths[i]! - 2);
  }
  /** the frames of entries [from, to) as one slice when they sit side by side in one slab */
  span(from: number, to: number): Buffer | undefined {
    const a = from - this.base;
    const b = to - 1 - this.base;
    if (this.slabOf[a] !== this.slabOf[b]) return undefined;
    return this.slab(a).subarray(this.offsets[a]!, this.offsets[b]! + this.lengths[b]!);
  }

  private slab(i: number): Buffer {
    return this.slabs[this.slabOf[i]! - this.slabBase]!;
  }

  /** where `length` bytes go: the current slab, a new one, or one of their own */
  private room(length: number): [Buffer, number] {
    if (length > SLAB_BYTES / 2) {
      const own = Buffer.allocUnsafe(length);
      this.slabs.push(own);
      this.slabUsed = SLAB_BYTES; // the next frame starts a new slab
      return [own, 0];
    }
    if (this.slabUsed + length > SLAB_BYTES) {
      this.slabs.push(Buffer.allocUnsafe(SLAB_BYTES));
      this.slabUsed = 0;
    }
    const at = this.slabUsed;
    this.slabUsed += length;
    return [this.slabs[this.slabs.length - 1]!, at];
  }

  /** the arrays' slot for the next entry: moved down over evicted ones, or grown */
  private slot(): number {
    let i = this.next - this.base;
    if (i < this.seqs.length) return i;
    const kept = this.next - this.first;
    const from = this.first - this.base;
    const size = kept + 1 > this.seqs.length / 2 ? this.seqs.length * 2 : this.seqs.length;
    const move = <T extends Float64Array | Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = size === a.length ? a : make(size);
      b.set(a.subarray(from, from + kept));
      return b;
    };
    this.seqs = move(this.seqs, (n) => new Float64Array(n));
    this.rxAts = move(this.rxAts, (n) => new Float64Array(n));
    this.slabOf = move(this.slabOf, (n) => new Int32Array(n));
    this.offsets = move(this.offsets, (n) => new Int32Array(n));
    this.lengths = move(this.lengths, (n) => new Int32Array(n));
    this.heads = move(this.heads, (n) => new Int32Array(n));
    this.flags = move(this.flags, (n) => new Uint8Array(n));
    this.base = this.first;
    i = this.next - this.base;
    return i;
  }

  private evict(): void {
    const i = this.first - this.base;
    this.bytes -= this.lengths[i]!;
    this.first += 1;
    // slabs wholly before the oldest kept frame go
    const keepFrom =
      this.first < this.next ? this.slabOf[this.first - this.base]! : this.slabBase + this.slabs.length - 1;
    if (keepFrom > this.slabBase) {
      this.slabs.splice(0, keepFrom - this.slabBase);
      this.slabBase = keepFrom;
    }
  }
}
