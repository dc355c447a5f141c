/**
 * Dead letters the broker dropped that the trace counted as parked. A quorum queue dead-letters
 * at most once unless told otherwise (x-dead-letter-strategy at-least-once with x-overflow
 * reject-publish): a dead letter in flight while a leader moves (the source's or the target's) can
 * be lost, and nothing tells a client which one. The trace sees the dead letter leave and assumes
 * it arrived; the parking queue's own count (a passive declare, exact) proves the difference. The
 * messages cannot be named, so they are counted (dropped instead of parked) and said in a notice.
 */
import { profileFor, queueConfig, type Design } from '@retry-studio/topology-core';

/** the design's quorum queues that dead-letter at most once (design names) */
export function atMostOnceDeadLetterSources(design: Design): string[] {
  const profile = profileFor(design.profile);
  return design.topology.queues
    .map((q) => queueConfig(q, design.topology.policies, profile))
    .filter((c) => c.quorum && c.dlx !== undefined && !c.atLeastOnce)
    .map((c) => c.name);
}

/**
 * Per parking queue (design name), how many fewer messages the broker holds than the trace counts
 * parked there. `parked`: traced copies resting in queues nothing consumes; `held`: the broker's
 * ready + unacked count; `skip`: queues already explained otherwise (their node was down).
 */
export function deadLetterShortfall(
  parked: ReadonlyMap<string, number>,
  held: Readonly<Record<string, { ready: number; unacked: number }>>,
  skip: ReadonlySet<string>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [q, n] of parked) {
    const h = held[q];
    if (!h || skip.has(q)) continue;
    const short = n - h.ready - h.unacked;
    if (short > 0) out[q] = short;
  }
  return out;
}
