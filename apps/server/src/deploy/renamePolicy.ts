/**
 * A design policy as it is deployed: its name prefixed like every other object and its pattern
 * anchored to the prefixed names (the core's prefixedPolicyPattern). The names its definition
 * holds (dead-letter and alternate exchanges, a DLRK through the default exchange) are renamed by
 * the core's reference walker before this runs.
 */
import {
  policyTargetOf,
  prefixedPolicyPattern,
  type PolicyDef,
  type Topology,
} from '@retry-studio/topology-core/model';
import type { Renamer } from './deployTarget.js';

export function renamePolicy(original: PolicyDef, walked: PolicyDef, r: Renamer, design: Topology): PolicyDef {
  const names = [
    ...design.queues.map((q) => ({ name: q.name, target: policyTargetOf(q.arguments?.['x-queue-type']) })),
    ...design.exchanges.map((x) => ({ name: x.name, target: 'exchange' as const })),
  ];
  return { ...walked, name: r.name(original.name), pattern: prefixedPolicyPattern(original, r.prefix, names) };
}
