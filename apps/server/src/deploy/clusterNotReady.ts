/** A deploy refused before it declares anything, because the cluster is not fit for it (a node down, mixed versions). */
import type { ClusterProblem } from '../broker/cluster.js';

export class ClusterNotReadyError extends Error {
  override readonly name = 'ClusterNotReadyError';
  constructor(readonly problems: readonly ClusterProblem[]) {
    super(`nothing was deployed: ${problems.map((p) => p.message).join('; ')}`);
  }
}
