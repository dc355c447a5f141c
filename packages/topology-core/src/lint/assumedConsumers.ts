/**
 * What a topology implies about its consumers when none are declared (a definitions file, a
 * live vhost): the one assumption the linter, the vhost importer and an upgrade check share.
 * - a queue with a dead-letter route and no TTL is a work queue: its consumer rejects a
 *   message it fails on (so failures dead-letter, as on the broker);
 * - a queue with a TTL and a dead-letter route (and no live consumer) is a wait queue: nobody
 *   consumes it, its messages dead-letter when they expire;
 * - a queue that only dead letters reach, with no dead-letter route of its own (and no live
 *   consumer), is a parking lot: nobody consumes it, dead letters pile up there;
 * - a stream is a parking place whoever reads it (readers move nothing);
 * - any other queue is idle (or a work queue that acks, when the broker shows consumers on it).
 */
import type { AmqpValue, Topology } from '../model/definitions.js';
import type { ConsumerSpec } from '../model/consumer.js';
import { effectiveArguments, queueEffectiveSettings } from '../model/effectiveSettings.js';

/** What a queue is for, read from its effective arguments and who feeds it. */
export type QueueRole = 'work' | 'wait' | 'parking' | 'idle';

export interface AssumedConsumers {
  /** queue name -> role */
  readonly roles: Readonly<Record<string, QueueRole>>;
  /** one worker per work queue: it rejects on failure where the queue dead-letters, else acks */
  readonly consumers: readonly ConsumerSpec[];
  /** every queue's effective arguments (arguments and policies combined) */
  readonly args: ReadonlyMap<string, Record<string, AmqpValue>>;
}

export interface AssumeOptions {
  /** live consumer counts per queue (a vhost import), when the broker gave them */
  readonly liveConsumers?: ReadonlyMap<string, number | undefined>;
}

/** The consumer id the assumption gives a work queue. */
export const assumedWorkerId = (queue: string): string => `worker-${queue}`;

export function assumedConsumers(topology: Topology, opts: AssumeOptions = {}): AssumedConsumers {
  const live = (q: string): boolean => (opts.liveConsumers?.get(q) ?? 0) > 0;
  const dlxOf = new Map<string, string>();
  const args = new Map<string, Record<string, AmqpValue>>();
  for (const q of topology.queues) {
    const a = effectiveArguments(queueEffectiveSettings(q, topology));
    args.set(q.name, a);
    const dlx = a['x-dead-letter-exchange'];
    if (typeof dlx === 'string') dlxOf.set(q.name, dlx);
  }
  // which queues dead letters reach: the queues each dead-letter exchange routes to
  const dlxs = new Set(dlxOf.values());
  const fedByDlx = new Set<string>();
  for (const b of topology.bindings) if (dlxs.has(b.source) && b.destination_type === 'queue') fedByDlx.add(b.destination);
  for (const [q, dlx] of dlxOf) {
    // the default exchange as DLX routes by the dead-letter routing key, i.e. to that queue
    const dlrk = args.get(q)?.['x-dead-letter-routing-key'];
    if (dlx === '' && typeof dlrk === 'string') fedByDlx.add(dlrk);
  }
  const fedByBinding = new Set<string>();
  for (const b of topology.bindings) if (!dlxs.has(b.source) && b.destination_type === 'queue') fedByBinding.add(b.destination);

  const roles: Record<string, QueueRole> = {};
  const consumers: ConsumerSpec[] = [];
  for (const q of topology.queues) {
    const a = args.get(q.name) ?? {};
    const hasDlx = typeof a['x-dead-letter-exchange'] === 'string';
    const hasTtl = a['x-message-ttl'] !== undefined;
    let role: QueueRole;
    if (a['x-queue-type'] === 'stream') role = 'parking';
    else if (hasDlx && hasTtl && !live(q.name)) role = 'wait';
    else if (hasDlx) role = 'work';
    else if (fedByDlx.has(q.name) && !fedByBinding.has(q.name) && !live(q.name)) role = 'parking';
    else role = live(q.name) ? 'work' : 'idle';
    roles[q.name] = role;
    if (role === 'work')
      consumers.push({
        id: assumedWorkerId(q.name),
        queue: q.name,
        label: `worker ${q.name}`,
        behaviour: { kind: 'worker', onFailure: [{ then: hasDlx ? { kind: 'reject' } : { kind: 'ack' } }] },
      });
  }
  return { roles, consumers, args };
}
