/**
 * A definitions file has no consumers or publishers. Simulate and compare then run it with the
 * ones lint and import-broker assume (the core's withAssumedActors: a work queue's consumer rejects
 * what it fails on, a publisher per way into each entry exchange), and say so.
 */
import { assumedConsumers, describeAssumedRoles, withAssumedActors as assume } from '@retry-studio/topology-core/lint';
import type { Design } from '@retry-studio/topology-core/model';

export interface WithActors {
  readonly design: Design;
  /** what was assumed, for stderr; undefined when the design had its own actors */
  readonly note?: string;
}

export function withAssumedActors(design: Design): WithActors {
  const r = assume(design);
  if (!r.assumed) return { design };
  const { consumers, publishers } = r.assumed;
  const shown = publishers
    .slice(0, 5)
    .map((p) => `${p.exchange === '' ? '(default exchange)' : p.exchange}:${p.routingKey}`);
  const roles = describeAssumedRoles(assumedConsumers(design.topology))
    .map((l) => `\n  ${l}`)
    .join('');
  return {
    design: r.design,
    note: `no consumers or publishers in the file: simulated with the ones lint assumes (${consumers.length} worker(s) that reject what they fail on, ${publishers.length} publisher(s): ${shown.join(', ')}${publishers.length > 5 ? ', …' : ''}); add your own with --publish/--consumer; assumed:${roles}`,
  };
}
