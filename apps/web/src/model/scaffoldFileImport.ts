/**
 * A definitions file opened in the designer gets the consumers and publishers its topology implies,
 * as a vhost imported from a live broker does (the core's one assumption, lint/assumedConsumers.ts:
 * a worker per work queue, a publisher per way into every entry exchange). A file carries no
 * consumers or publishers, so Simulate had nothing to publish with ("Add a publisher") right after
 * the import.
 */
import { withAssumedActors } from '@retry-studio/topology-core/lint';
import type { Design } from '@retry-studio/topology-core/model';

export function scaffoldFileImport(design: Design): Design {
  return withAssumedActors(design).design;
}
