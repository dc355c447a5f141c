/** Every error response: what went wrong and, when a field is to blame, its path (`design.topology.queues[1]`, `broker`). */
export interface ErrorBody {
  readonly error: string;
  readonly field?: string;
  /** route-specific detail (a teardown's `refused` queues, a deploy's `result`, the management candidates `tried`) */
  readonly [detail: string]: unknown;
}
