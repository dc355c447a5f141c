/**
 * How big a design is on the canvas, and where its drawing changes: up to LAYERED_MAX_NODES nodes a design is
 * laid out along its flow (graph/autoLayout.ts's layered layout) and the import's stand-in publishers are folded
 * into the nodes they publish to (model/assumedActors.ts); a bigger one is laid out in name-prefix blocks with
 * every node in place (its opening view is the overview, no name is read at it).
 */
import type { Design } from '@retry-studio/topology-core/model';

/** exchanges, queues, consumers and publishers: the nodes the design has (before any is folded) */
export const nodeCount = (d: Design): number =>
  d.topology.queues.length + d.topology.exchanges.length + d.consumers.length + d.publishers.length;

/** Above this many nodes the layered layout is too slow to wait for (seconds at a thousand nodes, minutes at five thousand). */
export const LAYERED_MAX_NODES = 400;
