/** A scenario that never goes quiet (e.g. a nack-requeue loop on a 4.3 quorum queue) ends at a time bound with this result. */

/** default bound for one scenario run (steps + settling), wall-clock on a broker, virtual on the simulator */
export const DEFAULT_MAX_RUN_MS = 30_000;

export function unsettledReason(maxRunMs: number, detail: string): string {
  return `did not settle in ${maxRunMs} ms (${detail})`;
}

export class ScenarioUnsettledError extends Error {
  override readonly name = 'ScenarioUnsettledError';
  constructor(
    readonly maxRunMs: number,
    detail: string,
  ) {
    super(unsettledReason(maxRunMs, detail));
  }
}
