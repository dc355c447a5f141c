/**
 * A definitions file has no consumers or publishers. Simulate and compare then run it with the
 * ones lint and import-broker assume (core lint/assumedConsumers.ts: a work queue's consumer
 * rejects what it fails on, a publisher per way into each entry exchange), and say so.
 */
import { assumedConsumers, assumedPublishers } from '@retry-studio/topology-core/lint';
import type { Design } from '@retry-studio/topology-core/model';

export interface WithActors {
  readonly design: Design;
  /** what was assumed, for stderr; undefined when the design had its own actors */
  readonly note?: string;
}

export function withAssumedActors(design: Design): WithActors {
  if (design.publishers.length > 0 || design.consumers.length > 0) return { design };
  const assumed = assumedConsumers(design.topology);
  const publishers = assumedPublishers(design.topology, assumed);
  if (publishers.length === 0) return { design };
  return {
    design: { ...design, consumers: [...assumed.consumers], publishers },
    note: `no consumers or publishers in the file: simulated with the ones lint assumes (${assumed.consumers.length} worker(s) that reject what they fail on, ${publishers.length} publisher(s): ${publishers
      .slice(0, 5)
      .map((p) => `${p.exchange}:${p.routingKey}`)
      .join(', ')}${publishers.length > 5 ? ', …' : ''}); add your own with --publish/--consumer`,
  };
}
