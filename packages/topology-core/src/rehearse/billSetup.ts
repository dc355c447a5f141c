/**
 * The broker's side of a rehearsal, read from a calibration (the one given, else the shipped one
 * of the rules' version): each queue's storage and cost per message, its ceilings, the cost of a
 * message a delayed-message exchange holds, and the node (its RAM, the version's default memory
 * high watermark, its free disk and the free-disk limit).
 */
import {
  calibrationFor,
  ceilingsOf,
  heldCost,
  messageCost,
  storageOf,
  storageText,
  type Calibration,
  type MessageCost,
} from '../calibration/index.js';
import type { BrokerProfileId, Design } from '../model/design.js';
import type { QueueConfig } from '../sim/queueConfig.js';
import type { BillOptions } from './brokerBill.js';
import type { QueueCeilings } from './capacity.js';
import { DEFAULT_BROKER_MEMORY_BYTES, DEFAULT_DISK_FREE_BYTES } from './load.js';
import type { CalibrationUsed } from './report.js';
import type { ResolvedLoad } from './resolveLoad.js';

/** the default vm_memory_high_watermark.relative: 0.4 on 3.x, 0.6 from 4.0 on (RabbitMQ docs, memory) */
export const watermarkOf = (profile: BrokerProfileId): number => (profile === '3.10' ? 0.4 : 0.6);
/** the default disk_free_limit.absolute (RabbitMQ docs, disk alarms) */
const DEFAULT_DISK_FREE_LIMIT = 50_000_000;
const DEFAULT_WAL_MAX = 512 * 1024 ** 2;
/**
 * At most this many consumed messages count in what a classic queue keeps of them: 3.x's queue
 * index journal holds up to 32,768 entries (queue_index_max_journal_entries) until it flushes. What
 * each leaves is the calibration's figure (0 where it was not measured).
 */
const JOURNAL_ENTRIES = 32_768;

export interface QueueCost {
  readonly storage: string;
  readonly cost: MessageCost;
  readonly quorum: boolean;
}

export interface BillSetup {
  readonly bill: Omit<BillOptions, 'sampleMs'>;
  readonly ceilings: ReadonlyMap<string, QueueCeilings>;
  readonly queues: ReadonlyMap<string, QueueCost>;
  readonly held: MessageCost;
  readonly watermark: number;
  readonly brokerMemoryBytes: number;
  readonly calibration: CalibrationUsed;
  readonly notes: readonly string[];
}

export function billSetup(
  design: Design,
  r: ResolvedLoad,
  configs: readonly QueueConfig[],
  given?: Calibration,
): BillSetup {
  const use = calibrationFor(r.profile, given);
  const cal = use.calibration;
  const notes = [...use.notes];
  const queues = new Map<string, QueueCost>();
  const ceilings = new Map<string, QueueCeilings>();
  const missing = new Set<string>();
  design.topology.queues.forEach((q, i) => {
    const storage = storageOf(q, design.topology.policies, r.profile, design.topology.policyPins);
    const ttl = configs[i]?.ttl !== undefined;
    const kind = storage === 'stream' ? 'classic' : storage;
    const cost = messageCost(cal, kind, ttl, r.bodyBytes) ??
      messageCost(calibrationFor(r.profile).calibration, kind, ttl, r.bodyBytes) ?? {
        ramBytes: 0,
        walRamBytes: 0,
        flowRamBytes: 0,
        consumedBytes: 0,
        consumedOver: 0,
        diskBytes: r.bodyBytes,
        basis: 'not calibrated: the body on disk only',
      };
    if (!messageCost(cal, kind, ttl, r.bodyBytes)) missing.add(storageText(storage, r.profile));
    queues.set(q.name, {
      storage: storageText(storage, r.profile),
      cost:
        storage === 'stream'
          ? {
              ...cost,
              ramBytes: 0,
              walRamBytes: 0,
              flowRamBytes: 0,
              basis: `estimated as a classic queue's disk: ${cost.basis}`,
            }
          : cost,
      quorum: storage === 'quorum',
    });
    const c = ceilingsOf(cal, kind);
    if (c)
      ceilings.set(q.name, {
        deliverAckPerSec: c.deliverAckPerSec.value,
        requeuePerSec: c.requeuePerSec.value,
        deadLetterPerSec: c.deadLetterPerSec.value,
        publishPerSec: c.publishPerSec.value,
      });
  });
  if (missing.size > 0)
    notes.push(
      `the calibration has no figures for ${[...missing].join(', ')} queues: the shipped calibration's are used`,
    );
  if (cal.ceilings.length === 0)
    notes.push('the calibration has no ceilings: deliveries, publishes and dead-letterings are not bounded');
  const watermark = watermarkOf(r.profile);
  const brokerMemoryBytes = r.load.brokerMemoryBytes ?? DEFAULT_BROKER_MEMORY_BYTES;
  const anyQuorum = [...queues.values()].some((q) => q.quorum);
  const held = heldCost(cal, r.bodyBytes);
  return {
    bill: {
      queues: [...queues].map(([name, q]) => ({
        name,
        ramBytes: q.cost.ramBytes,
        diskBytes: q.cost.diskBytes,
        walRamBytes: q.cost.walRamBytes,
        flowRamBytes: q.cost.flowRamBytes,
        consumedBytes: q.cost.consumedBytes,
        consumedCap: q.quorum ? q.cost.consumedOver : JOURNAL_ENTRIES,
        consumedInWal: q.quorum,
      })),
      heldRamBytes: held.ramBytes,
      heldDiskBytes: held.diskBytes,
      idleNodeBytes: cal.node.idleMemoryBytes ?? 0,
      walMaxBytes: anyQuorum ? (cal.node.walMaxBytes ?? DEFAULT_WAL_MAX) : 0,
      memoryLimitBytes: watermark * brokerMemoryBytes,
      diskFreeBytes: r.load.diskFreeBytes ?? DEFAULT_DISK_FREE_BYTES,
      diskFreeLimitBytes: cal.node.diskFreeLimitBytes ?? DEFAULT_DISK_FREE_LIMIT,
    },
    ceilings,
    queues,
    held,
    watermark,
    brokerMemoryBytes,
    calibration: {
      brokerVersion: cal.broker.version,
      measuredAt: cal.measuredAt,
      source: use.source,
      machine: `${cal.machine.cpus} CPUs, ${Math.round(cal.machine.memoryBytes / 1024 ** 3)} GiB, ${cal.machine.platform}${cal.machine.note ? `; ${cal.machine.note}` : ''}`,
    },
    notes,
  };
}
