/** Live depths: every queue of the vhost from ONE management request. */
import { ManagementError } from '../broker/index.js';
import { OperateError, type OperateTarget } from './operateTarget.js';
import type { QueueDepth } from '@retry-studio/contract';

/** what the HTTP API returns: one definition, in the contract */
export type { QueueDepth };

export async function readDepths(t: OperateTarget): Promise<{ at: string; queues: QueueDepth[] }> {
  const rows = await t.management.queueDepths(t.vhost).catch((err: unknown) => {
    if (err instanceof ManagementError && err.status === 404)
      throw new OperateError(`vhost '${t.vhost}' does not exist`, 'vhost', 404);
    throw err;
  });
  return {
    at: new Date().toISOString(),
    queues: rows.map((r) => ({
      name: r.name,
      type: r.type ?? 'classic',
      ready: r.messages_ready ?? 0,
      unacked: r.messages_unacknowledged ?? 0,
      consumers: r.consumers ?? 0,
      publishRate: r.message_stats?.publish_details?.rate ?? 0,
      deliverRate: r.message_stats?.deliver_get_details?.rate ?? 0,
      // the broker's own choice of policy (the truth for a live vhost, ties included)
      ...(r.policy ? { policy: r.policy } : {}),
    })),
  };
}
