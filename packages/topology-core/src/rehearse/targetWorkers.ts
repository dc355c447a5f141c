/**
 * An outage target that is a queue nobody consumes in the design (a wait queue of a definitions
 * file, which lint assumes nobody consumes): the rehearsal gives it a worker of its own (one that
 * rejects what it fails on where the queue dead-letters, else acks), and says so, rather than
 * refusing the outage. The CLI and the browser's Rehearse tab both call it.
 */
import { assumedWorkerId } from '../lint/assumedConsumers.js';
import type { ConsumerSpec } from '../model/consumer.js';
import type { Design } from '../model/design.js';
import { queueEffectiveSettings } from '../model/effectiveSettings.js';
import type { RehearsalLoad } from './load.js';

export interface WithTargets {
  readonly design: Design;
  readonly notes: readonly string[];
}

export function withTargetWorkers(design: Design, load: RehearsalLoad): WithTargets {
  const consumers = [...design.consumers];
  const notes: string[] = [];
  for (const t of load.targets ?? []) {
    const target = t.target;
    if (consumers.some((c) => c.id === target || c.queue === target)) continue;
    const q = design.topology.queues.find((x) => x.name === target);
    if (!q) continue;
    const settings = queueEffectiveSettings(q, {
      policies: design.topology.policies,
      ...(design.topology.policyPins ? { policyPins: design.topology.policyPins } : {}),
    }).settings;
    const dlx = settings['x-dead-letter-exchange'] !== undefined;
    const worker: ConsumerSpec = {
      id: assumedWorkerId(q.name),
      queue: q.name,
      label: `worker ${q.name}`,
      behaviour: { kind: 'worker', onFailure: [{ then: dlx ? { kind: 'reject' } : { kind: 'ack' } }] },
    };
    consumers.push(worker);
    notes.push(
      `${q.name} has no consumer${design.consumers.length > 0 ? ' in the design' : ' lint assumes'}: rehearsed with a worker on it that ${dlx ? 'rejects' : 'acks'} what it fails on (the outage stops it)`,
    );
  }
  return notes.length === 0 ? { design, notes } : { design: { ...design, consumers }, notes };
}
