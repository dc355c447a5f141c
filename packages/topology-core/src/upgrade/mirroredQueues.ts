/**
 * Which queues a policy reaches, and which queues classic mirroring replicates today: the queues
 * whose applying policy (the one RabbitMQ chooses, model/policyMatch.ts) carries ha-* keys.
 */
import type { PolicyDef, Topology } from '../model/definitions.js';
import { choosePolicy, policyMatches, policyTargetOf } from '../model/policyMatch.js';

/** Queues the policy's pattern and apply-to match (whether or not a higher-priority policy wins). */
export function matchingPolicyQueues(topology: Topology, p: PolicyDef): string[] {
  return topology.queues
    .filter((q) => policyMatches(p, q.name, policyTargetOf(q.arguments?.['x-queue-type'])))
    .map((q) => q.name);
}

/** Classic queues that a mirroring policy (ha-*) applies to. */
export function mirroredQueues(topology: Topology): string[] {
  return topology.queues
    .filter((q) => {
      const target = policyTargetOf(q.arguments?.['x-queue-type']);
      if (target !== 'classic') return false;
      const p = choosePolicy(topology.policies, q.name, target).policy;
      return p !== undefined && Object.keys(p.definition).some((k) => k.startsWith('ha-'));
    })
    .map((q) => q.name);
}
