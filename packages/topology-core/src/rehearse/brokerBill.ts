/**
 * The broker's bill during a rehearsal, from the calibration's cost per message: each queue's
 * depth as the broker counts it (ready + unacked: messages a 4.3 quorum queue holds for a delayed
 * retry are not), what it holds for later, its RAM and disk; messages held by delayed-message
 * exchanges; the node's RAM (its idle use + the queues + the quorum write-ahead log's memtables:
 * the bodies of quorum messages in their queues, and what consumed ones left there, up to the
 * log's size, when it rolls over; and, under a flow, heaps and binaries not yet collected) and disk; and the
 * resource alarms: memory at the high watermark, disk at the free-disk limit, each of which blocks
 * every publisher on the node until it clears.
 *
 * Fed with the rehearsal's depth changes (QueueDepths' listener) and holds; a figure counts once
 * its instant is over, as the depths do.
 */
import { EventHeap } from '../sim/eventHeap.js';

export interface BillQueue {
  readonly name: string;
  readonly ramBytes: number;
  readonly diskBytes: number;
  /** quorum: RAM per message in the write-ahead log's memtables while it is in the queue */
  readonly walRamBytes: number;
  /** node RAM per resident message under a steady flow on top of the settled figures: heaps and binaries not yet collected (not the queue's own) */
  readonly flowRamBytes: number;
  /** what a consumed message leaves behind: in the quorum WAL, or a classic queue's own state (its index journal) */
  readonly consumedBytes: number;
  /** how many consumed messages leave it at most (what the calibration measured, or a classic journal's size) */
  readonly consumedCap: number;
  /** it goes to the node-wide WAL (quorum, up to the log's size), else the queue's own RAM */
  readonly consumedInWal: boolean;
}

export interface BillOptions {
  readonly queues: readonly BillQueue[];
  /** a message held by a delayed-message exchange */
  readonly heldRamBytes: number;
  readonly heldDiskBytes: number;
  readonly idleNodeBytes: number;
  readonly walMaxBytes: number;
  /** the memory high watermark, bytes */
  readonly memoryLimitBytes: number;
  readonly diskFreeBytes: number;
  readonly diskFreeLimitBytes: number;
  readonly sampleMs: number;
}

export interface QueueBill {
  readonly name: string;
  /** ready + unacked, as the broker counts it */
  depth: number;
  /** held for a delayed retry (4.3 quorum): in the queue, not counted as ready */
  held: number;
  peakDepth: number;
  peakDepthAt: number;
  peakHeld: number;
  peakHeldAt: number;
  /** depth + held: what the queue keeps in RAM and on disk */
  peakResident: number;
  peakResidentAt: number;
  /** messages consumed from it, and what they left in its RAM (up to its cap) */
  consumed: number;
  retainedBytes: number;
  /** its RAM at its peak: what it holds and what consumed ones left */
  peakRam: number;
  peakRamAt: number;
}

export interface ExchangeHold {
  readonly exchange: string;
  held: number;
  peakHeld: number;
  peakAt: number;
}

export interface AlarmSpan {
  readonly kind: 'memory' | 'disk';
  readonly fromMs: number;
  /** null: still raised when the rehearsal ended */
  untilMs: number | null;
  /** the most the node held while it was raised */
  peakBytes: number;
  readonly limitBytes: number;
}

export interface NodeSeries {
  readonly t: number[];
  readonly ramBytes: number[];
  readonly diskBytes: number[];
  /** what the delayed-message exchanges hold together */
  readonly held: number[];
}

const EPS = 1e-6;

export class BrokerBill {
  readonly queues = new Map<string, QueueBill>();
  readonly exchanges = new Map<string, ExchangeHold>();
  readonly alarms: AlarmSpan[] = [];
  readonly series: NodeSeries = { t: [], ramBytes: [], diskBytes: [], held: [] };
  /** what the delayed-message exchanges hold now */
  private heldTotal = 0;
  peakRam = 0;
  peakRamAt = 0;
  peakDisk = 0;
  peakDiskAt = 0;
  private readonly cost = new Map<string, BillQueue>();
  /** node RAM and disk of the queues and exchanges (without the idle node and the WAL) */
  private ram = 0;
  private disk = 0;
  /** the WAL's memtables: the bodies of quorum messages in their queues, and what consumed ones left */
  private walResident = 0;
  private walChurned = 0;
  /** heaps and binaries not yet collected, per resident message under the flow */
  private uncollected = 0;
  /** of the node's RAM at its peak, what was not yet collected */
  uncollectedAtPeak = 0;
  private instant = 0;
  private dirty = false;
  private readonly dirtyQueues = new Set<QueueBill>();
  private readonly dirtyExchanges = new Set<ExchangeHold>();
  /** 4.3 delayed-retry holds to release, by when */
  private readonly releases = new EventHeap<{ readonly queue: string; readonly w: number }>();
  private nextSample = 0;
  private memoryAlarm: AlarmSpan | undefined;
  private diskAlarm: AlarmSpan | undefined;

  constructor(private readonly o: BillOptions) {
    for (const q of o.queues) {
      this.cost.set(q.name, q);
      this.queue(q.name);
    }
  }

  private queue(name: string): QueueBill {
    let q = this.queues.get(name);
    if (!q) {
      q = {
        name,
        depth: 0,
        held: 0,
        peakDepth: 0,
        peakDepthAt: 0,
        peakHeld: 0,
        peakHeldAt: 0,
        peakResident: 0,
        peakResidentAt: 0,
        consumed: 0,
        retainedBytes: 0,
        peakRam: 0,
        peakRamAt: 0,
      };
      this.queues.set(name, q);
    }
    return q;
  }

  /** publishers are blocked now (a memory or disk alarm is raised) */
  get blocked(): boolean {
    return this.memoryAlarm !== undefined || this.diskAlarm !== undefined;
  }

  get nodeRamBytes(): number {
    return this.o.idleNodeBytes + this.ram + this.walBytes + this.uncollected;
  }

  /** the quorum write-ahead log's memtables now (up to its size) */
  get walBytes(): number {
    return Math.min(this.o.walMaxBytes, Math.max(0, this.walResident) + this.walChurned);
  }

  get nodeDiskBytes(): number {
    return this.disk;
  }

  /** settle what happened before `t`, releasing the delayed-retry holds due before it */
  advanceTo(t: number): void {
    while (this.releases.peekTime() < t) {
      const at = this.releases.peekTime();
      const r = this.releases.pop()!;
      this.at(at);
      this.unhold(r.queue, r.w);
    }
    this.at(t);
  }

  private at(t: number): void {
    if (t <= this.instant) return;
    if (this.dirty) this.settle(this.instant);
    while (this.nextSample < t) {
      this.series.t.push(this.nextSample);
      this.series.ramBytes.push(Math.round(this.nodeRamBytes));
      this.series.diskBytes.push(Math.round(this.disk));
      this.series.held.push(this.heldTotal);
      this.nextSample += this.o.sampleMs;
    }
    this.instant = t;
  }

  /** a queue's resident messages (ready + unacked + held) changed by `dw` at `t` */
  readonly change = (queue: string, dw: number, t: number): void => {
    this.advanceTo(t);
    const q = this.queue(queue);
    q.depth += dw;
    const c = this.cost.get(queue);
    if (c) {
      this.ram += dw * c.ramBytes;
      this.disk += dw * c.diskBytes;
      this.walResident += dw * c.walRamBytes;
      this.uncollected += dw * c.flowRamBytes;
      if (dw < 0) this.consumedFrom(q, c, -dw);
    }
    this.touch(q);
  };

  /** `n` messages left `q`: what they leave behind, in the WAL or the queue's own state up to its cap */
  private consumedFrom(q: QueueBill, c: BillQueue, n: number): void {
    const before = Math.min(q.consumed, c.consumedCap);
    q.consumed += n;
    const added = (Math.min(q.consumed, c.consumedCap) - before) * c.consumedBytes;
    if (c.consumedInWal) {
      this.walChurned += added;
      return;
    }
    q.retainedBytes += added;
    this.ram += added;
  }

  /** a 4.3 quorum queue holds `w` (already counted in its depth) for a delayed retry until `until` */
  holdInQueue(queue: string, w: number, t: number, until: number): void {
    this.advanceTo(t);
    const q = this.queue(queue);
    q.held += w;
    q.depth -= w;
    this.touch(q);
    this.releases.push(until, { queue, w });
  }

  private unhold(queue: string, w: number): void {
    const q = this.queue(queue);
    q.held -= w;
    q.depth += w;
    this.touch(q);
  }

  /** a delayed-message exchange holds `dw` more (or fewer) messages from `t` */
  exchangeHeld(exchange: string, dw: number, t: number): void {
    this.advanceTo(t);
    let x = this.exchanges.get(exchange);
    if (!x) this.exchanges.set(exchange, (x = { exchange, held: 0, peakHeld: 0, peakAt: 0 }));
    x.held += dw;
    this.heldTotal += dw;
    this.ram += dw * this.o.heldRamBytes;
    this.disk += dw * this.o.heldDiskBytes;
    this.dirtyExchanges.add(x);
    this.dirty = true;
  }

  private touch(q: QueueBill): void {
    this.dirtyQueues.add(q);
    this.dirty = true;
  }

  private settle(t: number): void {
    for (const q of this.dirtyQueues) {
      const resident = q.depth + q.held;
      if (q.depth > q.peakDepth + EPS) [q.peakDepth, q.peakDepthAt] = [q.depth, t];
      if (q.held > q.peakHeld + EPS) [q.peakHeld, q.peakHeldAt] = [q.held, t];
      if (resident > q.peakResident + EPS) [q.peakResident, q.peakResidentAt] = [resident, t];
      const ram = resident * (this.cost.get(q.name)?.ramBytes ?? 0) + q.retainedBytes;
      if (ram > q.peakRam + EPS) [q.peakRam, q.peakRamAt] = [ram, t];
    }
    this.dirtyQueues.clear();
    for (const x of this.dirtyExchanges) if (x.held > x.peakHeld + EPS) [x.peakHeld, x.peakAt] = [x.held, t];
    this.dirtyExchanges.clear();
    this.dirty = false;
    const ram = this.nodeRamBytes;
    if (ram > this.peakRam) [this.peakRam, this.peakRamAt, this.uncollectedAtPeak] = [ram, t, this.uncollected];
    if (this.disk > this.peakDisk) [this.peakDisk, this.peakDiskAt] = [this.disk, t];
    this.memoryAlarm = this.alarm(this.memoryAlarm, 'memory', ram, this.o.memoryLimitBytes, t);
    this.diskAlarm = this.alarm(
      this.diskAlarm,
      'disk',
      this.disk,
      Math.max(0, this.o.diskFreeBytes - this.o.diskFreeLimitBytes),
      t,
    );
  }

  private alarm(
    open: AlarmSpan | undefined,
    kind: AlarmSpan['kind'],
    bytes: number,
    limit: number,
    t: number,
  ): AlarmSpan | undefined {
    if (bytes >= limit) {
      if (!open) {
        open = { kind, fromMs: t, untilMs: null, peakBytes: bytes, limitBytes: limit };
        this.alarms.push(open);
      }
      open.peakBytes = Math.max(open.peakBytes, bytes);
      return open;
    }
    if (open) open.untilMs = t;
    return undefined;
  }

  finish(endT: number): void {
    this.advanceTo(endT + 1e-9);
  }

  /** one queue's RAM and disk at its peak */
  costOf(queue: string): BillQueue | undefined {
    return this.cost.get(queue);
  }
}
