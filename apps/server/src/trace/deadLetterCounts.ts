/**
 * A parking queue's own count against what the trace saw dead-lettered into it. A quorum queue
 * dead-letters at most once unless told otherwise: a dead letter in flight while a leader moves
 * (the source's or the target's) can be lost, and nothing tells a client which one. With
 * x-dead-letter-strategy at-least-once (and x-overflow reject-publish) it is never lost, but a
 * dead letter whose confirm was lost in the move is sent again: the target can hold it twice.
 * The trace sees each dead letter leave once; the parking queue's count (a passive declare,
 * exact, less what it held before the trace) proves the difference either way. The messages
 * cannot be named, so they are counted (shortfall: dropped instead of parked; surplus:
 * duplicates) and said in a notice.
 */
import { type Design } from '@retry-studio/topology-core/model';
import { profileFor, queueConfig } from '@retry-studio/topology-core/sim';

/** the design's quorum queues that dead-letter, by strategy (design names) */
export function quorumDeadLetterSources(design: Design): { atMostOnce: string[]; atLeastOnce: string[] } {
  const profile = profileFor(design.profile);
  const sources = design.topology.queues
    .map((q) => queueConfig(q, design.topology.policies, profile))
    .filter((c) => c.quorum && c.dlx !== undefined);
  return {
    atMostOnce: sources.filter((c) => !c.atLeastOnce).map((c) => c.name),
    atLeastOnce: sources.filter((c) => c.atLeastOnce).map((c) => c.name),
  };
}

type Held = Readonly<Record<string, { ready: number; unacked: number }>>;

/**
 * Per parking queue (design name), how many fewer (`short`: dropped dead letters) or more
 * (`over`: dead letters sent twice) messages the broker holds than the trace parked there.
 * `parked`: traced copies resting in queues nothing consumes; `held`: the broker's ready +
 * unacked count; `before`: its ready count when the trace started (older messages are not the
 * trace's); `skip`: queues explained otherwise (their node was down, a stream's count lags).
 */
export function deadLetterDifference(
  parked: ReadonlyMap<string, number>,
  held: Held,
  before: Readonly<Record<string, number>>,
  skip: ReadonlySet<string>,
): { short: Record<string, number>; over: Record<string, number> } {
  const short: Record<string, number> = {};
  const over: Record<string, number> = {};
  for (const [q, n] of parked) {
    const h = held[q];
    if (!h || skip.has(q)) continue;
    const d = h.ready + h.unacked - (before[q] ?? 0) - n;
    if (d < 0) short[q] = -d;
    else if (d > 0) over[q] = d;
  }
  return { short, over };
}
