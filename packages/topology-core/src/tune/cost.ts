/**
 * The stated cost: broker operations (publishes + dead-letterings + deliveries, summed over the
 * outage lengths), then peak RAM (what the node holds above its idle use: queues, messages held by
 * a delayed retry or a delayed-message exchange, the quorum WAL), then peak disk, then broker objects. A difference under 1% in one figure is
 * a tie, so the next figure decides: a 0.1% saving in operations does not buy twice the memory.
 */
import type { TuneCost, TuneMetrics } from './types.js';

export const costOf = (metrics: readonly TuneMetrics[], objects: number): TuneCost => ({
  brokerOps: metrics.reduce((s, m) => s + m.brokerOps, 0),
  memoryBytes: Math.max(0, ...metrics.map((m) => m.peakMemoryBytes)),
  diskBytes: Math.max(0, ...metrics.map((m) => m.peakDiskBytes)),
  objects,
});

const TIE = 0.01;
const cmp = (a: number, b: number): number => (Math.abs(a - b) <= TIE * Math.max(Math.abs(a), Math.abs(b)) ? 0 : a - b);

export const compareCost = (a: TuneCost, b: TuneCost): number =>
  cmp(a.brokerOps, b.brokerOps) ||
  cmp(a.memoryBytes, b.memoryBytes) ||
  cmp(a.diskBytes, b.diskBytes) ||
  a.objects - b.objects;
