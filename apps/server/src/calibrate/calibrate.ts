/**
 * `pnpm calibrate`: measures a broker into a retry-calibration/1 file (the core's calibration
 * floor reads it): RAM and disk per message for its classic and quorum queues, with and without a
 * TTL, at 100 B, 1 KiB and 16 KiB bodies; messages held by a delayed-message exchange where the
 * plugin is enabled; and one queue's ceilings. Every measurement in a throwaway vhost of its own.
 */
import { cpus, platform, arch, totalmem } from 'node:os';
import {
  CALIBRATION_FORMAT,
  type Calibration,
  type FootprintRow,
  type QueueStorage,
} from '@retry-studio/topology-core/calibration';
import { queueCeilings } from './ceilings.js';
import type { CalibrationRun } from './calibrationRun.js';
import { delayedExchangeFootprint } from './delayedExchange.js';
import { FLOW_RATE_PER_SECOND, flowFootprint } from './flow.js';
import { queueFootprint } from './footprint.js';

export const BODY_SIZES = [100, 1024, 16384] as const;

/** the categories that hold messages and connections: whoever else uses the broker, not the node itself */
const OTHERS = [
  'queue_procs',
  'queue_slave_procs',
  'quorum_queue_procs',
  'quorum_queue_dlx_procs',
  'stream_queue_procs',
  'stream_queue_replica_reader_procs',
  'stream_queue_coordinator_procs',
  'msg_index',
  'binary',
  'quorum_ets',
  'connection_readers',
  'connection_writers',
  'connection_channels',
  'connection_other',
];

/** the node's own memory: its Erlang total less what holds messages and connections (a shared broker holds other users' too) */
export function bareNodeBytes(memory: Readonly<Record<string, number>>): number | undefined {
  const total = memory.total_erlang;
  if (total === undefined) return undefined;
  let others = 0;
  for (const c of OTHERS) others += memory[c] ?? 0;
  return Math.max(0, total - others);
}
/** the quorum write-ahead log rolls over at this size by default (raft.wal_max_size_bytes; RabbitMQ docs, quorum queues, resource use) */
const DEFAULT_WAL_MAX_BYTES = 512 * 1024 * 1024;

/** the kinds a version has: 3.x classic v1, v2 and lazy; from 3.13 on classic means v2 */
export function storagesOf(profile: string): QueueStorage[] {
  return profile === '3.10' ? ['classic', 'classic-v2', 'classic-lazy', 'quorum'] : ['classic', 'quorum'];
}

/** what a calibration measures; all of them unless `--measure` names some (a part measured again, to merge into a file) */
export const CALIBRATION_PARTS = ['footprint', 'flow', 'ceilings', 'delayed-exchange'] as const;
export type CalibrationPart = (typeof CALIBRATION_PARTS)[number];

export interface CalibrateOptions {
  readonly bodySizes?: readonly number[];
  readonly storages?: readonly QueueStorage[];
  readonly measure?: readonly CalibrationPart[];
  readonly note?: string;
}

export async function calibrate(run: CalibrationRun, o: CalibrateOptions = {}): Promise<Calibration> {
  const mgmt = run.target.management;
  const ov = await mgmt.overview();
  const idle = await mgmt.nodeResources(run.node);
  const idleNode = bareNodeBytes(await mgmt.nodeMemory(run.node));
  const storages = o.storages ?? storagesOf(run.target.profile);
  const bodies = o.bodySizes ?? BODY_SIZES;
  run.log(
    `calibrating RabbitMQ ${run.target.version} (node ${run.node}): ${storages.join(', ')}; ${run.messages} messages a fill, ${run.runs} runs each`,
  );
  const parts = new Set(o.measure ?? CALIBRATION_PARTS);
  const footprint: FootprintRow[] = [];
  if (parts.has('footprint'))
    for (const storage of storages)
      for (const ttl of [false, true])
        for (const b of bodies) footprint.push(await queueFootprint(run, storage, ttl, b));
  const flow = [];
  if (parts.has('flow'))
    for (const storage of storages.filter((s) => s === 'classic' || s === 'quorum'))
      flow.push(await flowFootprint(run, storage));
  const ceilings = [];
  if (parts.has('ceilings'))
    for (const storage of storages.filter((s) => s === 'classic' || s === 'quorum'))
      ceilings.push(await queueCeilings(run, storage));
  const delayedExchange = parts.has('delayed-exchange')
    ? await delayedExchangeFootprint(run)
    : { measured: false as const, reason: 'not measured in this run (--measure)' };
  if (!delayedExchange.measured) run.log(`  delayed-message exchange: not measured: ${delayedExchange.reason}`);
  return {
    format: CALIBRATION_FORMAT,
    broker: {
      version: run.target.version,
      ...(typeof ov.erlang_version === 'string' ? { erlang: ov.erlang_version } : {}),
      node: run.node,
    },
    measuredAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      memoryBytes: totalmem(),
      platform: `${platform()} ${arch()}`,
      ...(o.note ? { note: o.note } : {}),
    },
    method:
      `per message: a fresh queue filled with ${run.messages} persistent messages in two halves, the node's memory breakdown read before and after each (GET /api/nodes/NODE/memory, median of 3 readings): ` +
      `RAM = the queue's own memory (its statistics: the least of 3 readings 5.5 s apart, and the least over the runs, a heap reading only more than its live data) + msg_index over the whole fill (+ binary over the second half for classic queues: bodies in RAM; a fixed write cache cancels), quorum WAL RAM = quorum_ets over the whole fill + binary over the second half; what as many messages consumed and acked at once leave behind (the categories that hold messages: queue_procs, quorum_queue_procs, msg_index, binary, quorum_ets); ` +
      `disk over the second half: ${run.dataDir ? "the data directory's allocated blocks" : "the node's free disk (shared with every other writer to that filesystem: noisy)"}; ` +
      `flow: ${run.messages} 1 KiB persistent messages at ${FLOW_RATE_PER_SECOND} msg/s rejected by a consumer into a queue that holds them, the peak of the categories that hold messages (read every 250 ms) over the messages held; ` +
      `ceilings: ${run.ceilingMessages} 1 KiB persistent messages on one channel, client and broker on one machine; the idle node is its Erlang total less what holds messages and connections`,
    node: {
      ...(idle.mem_limit !== undefined ? { memoryLimitBytes: idle.mem_limit } : {}),
      ...(idleNode !== undefined ? { idleMemoryBytes: idleNode } : {}),
      ...(idle.disk_free_limit !== undefined ? { diskFreeLimitBytes: idle.disk_free_limit } : {}),
      walMaxBytes: DEFAULT_WAL_MAX_BYTES,
    },
    footprint,
    ceilings,
    ...(flow.length > 0 ? { flow } : {}),
    delayedExchange,
  };
}
