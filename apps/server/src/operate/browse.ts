/**
 * Browse a dead-letter or parking queue: read the first N messages and put them back, saying
 * exactly what looking changed (the core's browseEffect):
 * - classic: consumed unacked, then returned with basic.nack requeue=true (marked redelivered);
 * - quorum: refused before 4.3 unless `insist` (every return counts toward the delivery limit);
 *   on 4.3 returned with basic.nack, which does not count;
 * - stream: consumed from offset `first` and acked (stream acks are credit, nothing is removed).
 */
import type { ChannelModel, ConsumeMessage } from 'amqplib';
import { browseEffect, groupByCause, queueKindOf, type DeadLetterMessage } from '@retry-studio/topology-core/operate';
import { MAX_BROWSE } from '@retry-studio/contract';
import { deadLetterFromAmqp } from './deadLetterFromAmqp.js';
import { OperateError, brokerVersion, exactDepth, queueInfo, type OperateTarget } from './operateTarget.js';
import type { BrowseResponse } from '@retry-studio/contract';

/** the contract's limit: the request schema refuses more */
export { MAX_BROWSE };

export interface BrowseOptions {
  readonly queue: string;
  /** default 100 */
  readonly limit?: number;
  /** read a quorum queue before 4.3 anyway */
  readonly insist?: boolean;
  /** stop waiting for more messages after this long idle (ms, default 1000; a stream's reader starts slower: 2000) */
  readonly idleMs?: number;
}

/** what the HTTP API returns: one definition, in the contract */
export type BrowseResult = BrowseResponse;

export async function browseQueue(t: OperateTarget, conn: ChannelModel, opts: BrowseOptions): Promise<BrowseResult> {
  const limit = opts.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_BROWSE)
    throw new OperateError(`limit must be an integer from 1 to ${MAX_BROWSE}, got ${limit}`, 'limit');
  const t0 = performance.now();
  const [info, version] = await Promise.all([queueInfo(t, opts.queue), brokerVersion(t)]);
  const depth = await exactDepth(conn, opts.queue);
  const kind = queueKindOf(info.type, info.arguments);
  const effect = browseEffect(kind, version);
  if (effect.refuseUnlessInsist && !opts.insist)
    throw new OperateError(`not browsing '${opts.queue}': ${effect.message}`, 'insist', 409);
  const messages = await readMessages(
    conn,
    opts.queue,
    kind === 'stream',
    Math.min(limit, kind === 'stream' ? limit : depth),
    opts.idleMs ?? (kind === 'stream' ? 2000 : 1000),
  );
  return {
    queue: opts.queue,
    vhost: t.vhost,
    queueType: kind,
    depth: kind === 'stream' ? info.messages : depth,
    effect,
    messages,
    groups: groupByCause(messages),
    brokerVersion: version.version,
    elapsedMs: Math.round(performance.now() - t0),
  };
}

/** Consumes up to `want` messages and hands them back (nack requeue, or ack for a stream). */
async function readMessages(
  conn: ChannelModel,
  queue: string,
  stream: boolean,
  want: number,
  idleMs: number,
): Promise<DeadLetterMessage[]> {
  if (want <= 0) return [];
  const ch = await conn.createChannel();
  ch.on('error', () => undefined);
  const out: DeadLetterMessage[] = [];
  let tag: string | undefined;
  try {
    await ch.prefetch(want);
    await new Promise<void>((resolve, reject) => {
      let idle: NodeJS.Timeout | undefined;
      // a busy broker can be silent longer than idleMs with messages still ready: ask the queue before giving up
      const deadline = Date.now() + Math.max(10_000, idleMs * 5);
      const onIdle = (): void => {
        if (stream || out.length >= want || Date.now() > deadline) return resolve();
        ch.checkQueue(queue).then(
          (ok) => (ok.messageCount > 0 ? arm() : resolve()),
          () => resolve(),
        );
      };
      const arm = (): void => {
        clearTimeout(idle);
        idle = setTimeout(onIdle, idleMs);
      };
      ch.once('close', () => reject(new OperateError(`the channel closed while reading '${queue}'`, 'queue', 502)));
      const onMsg = (m: ConsumeMessage | null): void => {
        if (!m) return resolve(); // the queue was deleted
        if (out.length >= want) return;
        out.push(deadLetterFromAmqp(m, out.length));
        if (stream) ch.ack(m);
        if (out.length >= want) {
          clearTimeout(idle);
          resolve();
        } else arm();
      };
      ch.consume(queue, onMsg, { noAck: false, ...(stream ? { arguments: { 'x-stream-offset': 'first' } } : {}) }).then(
        (ok) => {
          tag = ok.consumerTag;
          arm();
        },
        reject,
      );
    });
    // cancel first, or the returned messages would come straight back to this consumer
    if (tag) await ch.cancel(tag);
    // basic.nack (not reject, not a channel close): on 4.3 quorum queues only rejects count toward the limit
    if (!stream) ch.nackAll(true);
  } finally {
    await ch.close().catch(() => undefined);
  }
  return out;
}
