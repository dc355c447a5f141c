/**
 * Parking exchanges that no queue dead-letters into: an exchange named for parking or dead letters
 * (park, dead, dlq, dlx, error, fail, poison) that routes to queues with no dead-letter route of their
 * own, yet is no queue's dead-letter exchange. In a definitions file it looks like the retry loops'
 * exit, but only a consumer that republishes there (after counting x-death) ever reaches it.
 */
import type { Flow } from './flow.js';

const PARKING_NAME = /park|dead|dlq|dlx|error|fail|poison/i;

/** `orders.parking (to orders.parked)`, for each such exchange of the topology. */
export function unusedParkingExits(flow: Flow): string[] {
  const dlxs = new Set<string>();
  for (const a of flow.args.values())
    if (typeof a['x-dead-letter-exchange'] === 'string') dlxs.add(a['x-dead-letter-exchange']);
  // the bindings to queues by source, once: a 1,000-queue file has as many exchanges as bindings
  const toQueues = new Map<string, string[]>();
  for (const b of flow.topology.bindings)
    if (b.destination_type === 'queue') {
      const list = toQueues.get(b.source);
      if (list) list.push(b.destination);
      else toQueues.set(b.source, [b.destination]);
    }
  const out: string[] = [];
  for (const x of flow.topology.exchanges) {
    if (dlxs.has(x.name)) continue;
    const queues = toQueues.get(x.name) ?? [];
    if (queues.length === 0 || queues.some((q) => typeof flow.args.get(q)?.['x-dead-letter-exchange'] === 'string'))
      continue;
    if (!PARKING_NAME.test(x.name) && !queues.some((q) => PARKING_NAME.test(q))) continue;
    out.push(`${x.name} (to ${[...new Set(queues)].join(', ')})`);
  }
  return out;
}
