/**
 * Where the message rests when the watch stops, read from the broker's management API: the depth
 * of each queue of the throwaway vhost (the framework's plumbing left out) and the vhost's publish
 * and ack counters (a message that is gone was acked or dropped: observedEnd).
 * The API's depths and counters lag by its statistics interval (5 s by default); a message held
 * unacked counts as held only when it still is HELD_MS after the last attempt (Celery 5.6 acks a
 * task's last retry about 10 s after it failed, measured with rabbitmqctl on 3.10).
 */
import type { EndFacts } from '@retry-studio/topology-core/prove';
import type { ManagementClient } from '../broker/index.js';
import { retryRead } from './managementRetry.js';

/** the management API's statistics interval (collect_statistics_interval, 5 s by default) and a margin */
export const STATS_LAG_MS = 6500;
/** how long after the last attempt an unacked message must still be unacked to be held */
export const HELD_MS = 30_000;
/** between two reads of the management API */
const POLL_MS = 2500;

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

export async function readEndFacts(
  mgmt: ManagementClient,
  vhost: string,
  opts: { lastAt: number; lastSucceeded: boolean; stillGoing: boolean; isPlumbing: (q: string) => boolean },
): Promise<EndFacts> {
  const read = async () => (await retryRead(() => mgmt.listQueues(vhost))).filter((q) => !opts.isPlumbing(q.name));
  await sleepUntil(opts.lastAt + STATS_LAG_MS);
  let queues = await read();
  const unacked = () => queues.some((q) => (q.messages_unacknowledged ?? 0) > 0);
  while (!opts.stillGoing && unacked() && Date.now() < opts.lastAt + HELD_MS) {
    await sleepUntil(Date.now() + POLL_MS);
    queues = await read();
  }
  const empty = queues.every((q) => (q.messages_ready ?? 0) === 0 && (q.messages_unacknowledged ?? 0) === 0);
  // the ack counters come from the channels' statistics, which may trail the queues' depths by an interval
  if (empty && !opts.stillGoing) {
    await sleepUntil(Date.now() + STATS_LAG_MS);
    queues = await read();
  }
  const counters = await retryRead(() => mgmt.vhostMessageStats(vhost));
  return {
    depths: queues.map((q) => ({
      queue: q.name,
      ready: q.messages_ready ?? 0,
      unacked: q.messages_unacknowledged ?? 0,
    })),
    publishes: counters.publish ?? 0,
    acks: counters.ack ?? 0,
    lastSucceeded: opts.lastSucceeded,
    stillGoing: opts.stillGoing,
  };
}
