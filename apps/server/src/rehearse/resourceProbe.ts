/**
 * The broker's bill read during a --verify-on run, twice a second: the node's memory (its live
 * breakdown: the RSS the memory alarm reads, and the categories that hold messages), its free disk
 * and both alarms, and each queue's own memory (its statistics, within their interval). Figures are taken above the first reading:
 * the node's idle use is not the run's.
 */
import type { MeasuredNode } from '@retry-studio/topology-core/rehearse';
import { messageMemoryBytes, type ManagementClient } from '../broker/index.js';

export class ResourceProbe {
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  private first: { ram: number; disk: number; messages: number } | undefined;
  private peakRam = 0;
  private peakRamAt = 0;
  private peakMessages = 0;
  private peakDisk = 0;
  private samples = 0;
  private readonly alarms = new Set<string>();
  readonly queuePeaks = new Map<string, number>();

  constructor(
    private readonly mgmt: ManagementClient,
    private readonly node: string,
    private readonly vhost: string,
    private readonly now: () => number,
    private readonly everyMs = 500,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sample(), this.everyMs);
    void this.sample();
  }

  private async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const t = this.now();
      const [mem, res, queues] = await Promise.all([
        this.mgmt.nodeMemory(this.node),
        this.mgmt.nodeResources(this.node),
        this.mgmt.queueMemory(this.vhost),
      ]);
      const ram = mem.total_rss ?? mem.total_allocated ?? 0;
      const disk = -(res.disk_free ?? 0);
      const messages = messageMemoryBytes(mem);
      this.first ??= { ram, disk, messages };
      this.peakMessages = Math.max(this.peakMessages, messages - this.first.messages);
      if (ram - this.first.ram > this.peakRam) [this.peakRam, this.peakRamAt] = [ram - this.first.ram, Math.round(t)];
      this.peakDisk = Math.max(this.peakDisk, disk - this.first.disk);
      if (res.mem_alarm) this.alarms.add('memory');
      if (res.disk_free_alarm) this.alarms.add('disk');
      for (const [q, m] of queues) this.queuePeaks.set(q, Math.max(this.queuePeaks.get(q) ?? 0, m));
      this.samples++;
    } catch {
      /* a missed reading: the next one counts */
    } finally {
      this.busy = false;
    }
  }

  async stop(): Promise<MeasuredNode> {
    if (this.timer) clearInterval(this.timer);
    while (this.busy) await new Promise((r) => setTimeout(r, 10));
    return {
      peakMemoryBytes: this.peakRam,
      peakMemoryAtMs: this.peakRamAt,
      peakDiskBytes: this.peakDisk,
      peakMessageMemoryBytes: this.peakMessages,
      samples: this.samples,
      alarms: [...this.alarms],
    };
  }
}
