/**
 * What every operate action works on: one vhost of one broker, reached over AMQP (browse,
 * re-drive) and the management API (definitions, depths, queue types, version).
 */
import type { ChannelModel } from 'amqplib';
import {
  ManagementError,
  requireManagement,
  resolveManagement,
  withThrowawayChannel,
  withVhost,
  type AmqpUrl,
  type ManagementClient,
} from '../broker/index.js';
import { profileForBrokerVersion, type BrokerVersionProfile } from '@retry-studio/topology-core/operate';

export interface OperateTarget {
  /** the AMQP URL with the vhost operated on */
  readonly url: AmqpUrl;
  readonly vhost: string;
  readonly management: ManagementClient;
}

/**
 * The target on `url`'s broker. Its management API comes from the broker layer's one
 * resolution (given, RETRY_STUDIO_MANAGEMENT_URL or discovered, and verified to be this broker).
 */
export async function operateTarget(
  url: AmqpUrl,
  opts: { vhost?: string | undefined; managementUrl?: string | undefined; management?: ManagementClient } = {},
): Promise<OperateTarget> {
  const vhost = opts.vhost ?? url.vhost;
  const management =
    opts.management ??
    requireManagement(
      await resolveManagement(url, opts.managementUrl !== undefined ? { managementUrl: opts.managementUrl } : {}),
    );
  return { url: withVhost(url, vhost), vhost, management };
}

/** An operate request that cannot be served as asked: the message names the field. */
export class OperateError extends Error {
  override readonly name = 'OperateError';
  constructor(
    message: string,
    readonly field: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export interface BrokerVersion extends BrokerVersionProfile {
  readonly version: string;
}

export async function brokerVersion(t: OperateTarget): Promise<BrokerVersion> {
  const ov = await t.management.overview();
  const version = String(ov.rabbitmq_version ?? ov.product_version ?? ov.management_version ?? '');
  return { version, ...profileForBrokerVersion(version) };
}

/**
 * The queue's type and arguments (management API), or a 404 naming the queue. Its `messages`
 * lag the queue by a stats interval: use `exactDepth` for counts that matter.
 */
export async function queueInfo(
  t: OperateTarget,
  queue: string,
): Promise<{ type: string; messages: number; consumers: number; arguments: Record<string, unknown> }> {
  const q = await t.management.queue(t.vhost, queue).catch((err: unknown) => {
    if (err instanceof ManagementError && err.status === 404) return undefined;
    throw err;
  });
  if (!q) throw new OperateError(`queue '${queue}' does not exist in vhost '${t.vhost}'`, 'queue', 404);
  return {
    type: String(q.type ?? q.arguments?.['x-queue-type'] ?? 'classic'),
    messages: Number(q.messages ?? 0),
    consumers: Number(q.consumers ?? 0),
    arguments: q.arguments ?? {},
  };
}

/** The depth right now (a passive declare on a throwaway channel; a stream reports 0). */
export async function exactDepth(conn: ChannelModel, queue: string): Promise<number> {
  return withThrowawayChannel(conn, async (ch) => (await ch.checkQueue(queue)).messageCount);
}
