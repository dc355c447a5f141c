/**
 * A design policy as it is deployed: its name prefixed like every other object, its pattern
 * anchored to the prefixed names (the core's prefixedPolicyPattern), and the exchanges (and,
 * through the default exchange, the queue) its definition names renamed.
 */
import { policyTargetOf, prefixedPolicyPattern, type PolicyDef, type Topology } from '@retry-studio/topology-core';
import type { Renamer } from './deployTarget.js';

export function renamePolicy(p: PolicyDef, r: Renamer, design: Topology): PolicyDef {
  const d = p.definition;
  const definition = { ...d };
  for (const k of ['dead-letter-exchange', 'alternate-exchange'] as const) if (typeof d[k] === 'string') definition[k] = r.name(d[k]);
  // a DLRK through the default exchange names a queue
  if (d['dead-letter-exchange'] === '' && typeof d['dead-letter-routing-key'] === 'string') definition['dead-letter-routing-key'] = r.name(d['dead-letter-routing-key']);
  const names = [
    ...design.queues.map((q) => ({ name: q.name, target: policyTargetOf(q.arguments?.['x-queue-type']) })),
    ...design.exchanges.map((x) => ({ name: x.name, target: 'exchange' as const })),
  ];
  return { ...p, name: r.name(p.name), pattern: prefixedPolicyPattern(p, r.prefix, names), definition };
}
