/**
 * Where the message rests when the watch stops, read from the broker's management API: the depth
 * of each queue of the throwaway vhost (the framework's plumbing left out) and, when every queue is
 * empty, whether the broker counted an ack for each delivery (acked or discarded) or not (dropped).
 * The API's depths and counters lag by its statistics interval (5 s by default): read after it.
 */
import type { EndFacts } from '@retry-studio/topology-core/prove';
import type { ManagementClient, MgmtQueue } from '../broker/index.js';

/** the management API's statistics interval (collect_statistics_interval, 5 s by default) and a margin */
export const STATS_LAG_MS = 6500;

const stat = (q: MgmtQueue, k: string): number => {
  const s = q.message_stats as Record<string, unknown> | undefined;
  const v = s?.[k];
  return typeof v === 'number' ? v : 0;
};

export async function readEndFacts(
  mgmt: ManagementClient,
  vhost: string,
  opts: { lastAt: number; lastSucceeded: boolean; stillGoing: boolean; isPlumbing: (q: string) => boolean },
): Promise<EndFacts> {
  const wait = opts.lastAt + STATS_LAG_MS - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  const queues = (await mgmt.listQueues(vhost)).filter((q) => !opts.isPlumbing(q.name));
  const depths = queues.map((q) => ({
    queue: q.name,
    ready: q.messages_ready ?? 0,
    unacked: q.messages_unacknowledged ?? 0,
  }));
  const sum = (k: string) => queues.reduce((a, q) => a + stat(q, k), 0);
  return {
    depths,
    deliveries: sum('deliver') + sum('get'),
    acks: sum('ack'),
    lastSucceeded: opts.lastSucceeded,
    stillGoing: opts.stillGoing,
  };
}
