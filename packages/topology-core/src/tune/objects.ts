/** Broker objects a design declares: exchanges, queues, bindings and policies (the third cost). */
import type { Design } from '../model/design.js';

export const countObjects = (d: Design): number =>
  d.topology.exchanges.length +
  d.topology.queues.length +
  d.topology.bindings.length +
  (d.topology.policies?.length ?? 0);
