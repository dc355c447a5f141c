/**
 * Observes every pass of a traced message through a design exchange on the real broker,
 * dead-letter hops included (the firehose does not show those).
 *
 * How: for each design exchange X, a server-owned observation queue is bound to X with a COPY
 * of every binding key/arguments that leaves X. The copy matches exactly when some design
 * binding matches, so X's routing result is empty exactly when it was empty before: the
 * alternate exchange, mandatory returns and unroutable drops behave as without observation.
 * (A catch-all mirror such as `#` would make unroutable messages "routed" and starve the AE.)
 * Limits: an exchange with no bindings has no mirror (what passes through it is seen where it
 * lands: its alternate exchange's mirror, or a return for our own mandatory publishes); the
 * default exchange cannot be bound (hops through it are inferred from the target queue).
 *
 * The observation queues are durable with persistent copies of persistent messages, so a
 * broker restart loses no observation; `x-expires` removes them if this server dies.
 */
import type { Channel, ConsumeMessage } from 'amqplib';
import { type AmqpTable, type BindingDef, type Topology } from '@retry-studio/topology-core/model';
import { topicMatches } from '@retry-studio/topology-core/routing';
import { messageIdentity } from '../operate/messageIdentity.js';
import { ShardPasses } from './shardPasses.js';

export interface ObservedCopy {
  /** the real (broker) name of the exchange this copy was routed through */
  readonly exchange: string;
  readonly msg: ConsumeMessage;
  /** the observation queue it came from (its own ordered lane) */
  readonly mirror: string;
  /** performance.now() when the copy arrived */
  readonly rxAt: number;
}

export interface MirrorQueue {
  readonly queue: string;
  readonly exchange: string;
  /** the exchange's type (how a shard's keys match) */
  readonly type: string;
  /** this queue's shard of the exchange's mirror (0 when it is not sharded) */
  readonly shard: number;
  readonly bindings: readonly { key: string; args: AmqpTable }[];
}

export const TRACE_HEADER = 'rs-trace-id';
export const MSG_HEADER = 'rs-msg-id';
const OBS_EXPIRES_MS = 15 * 60_000;
/**
 * A direct or topic exchange's mirror is split by binding key, at most this many queues: one
 * queue holds every pass through its exchange, so in a burst the copies of a later hop (a retry
 * tier coming back) would wait behind thousands of first passes while the worker already has
 * the message, and the delivery waits for its copy. A shard holds the passes of its keys only.
 */
export const MAX_MIRROR_SHARDS = 8;

/** The mirror bindings for a (real-named) topology. */
export function mirrorPlan(real: Topology, traceId: string): MirrorQueue[] {
  const out: MirrorQueue[] = [];
  real.exchanges.forEach((x, i) => {
    const seen = new Set<string>();
    const bindings: { key: string; args: AmqpTable }[] = [];
    for (const b of real.bindings.filter((b: BindingDef) => b.source === x.name)) {
      const args = b.arguments ?? {};
      const k = JSON.stringify([b.routing_key, args]);
      if (seen.has(k)) continue;
      seen.add(k);
      bindings.push({ key: b.routing_key, args });
    }
    if (bindings.length === 0) return;
    const type = x.type ?? 'direct';
    // only where a binding is its key alone; other types (headers, fanout, plugins) keep one queue
    const shards = type === 'direct' || type === 'topic' ? Math.min(MAX_MIRROR_SHARDS, bindings.length) : 1;
    for (let j = 0; j < shards; j++)
      out.push({
        queue: j === 0 ? `rs-trace.${traceId}.obs.${i}` : `rs-trace.${traceId}.obs.${i}.${j}`,
        exchange: x.name,
        type,
        shard: j,
        bindings: bindings.filter((_, n) => n % shards === j),
      });
  });
  return out;
}

const keyMatches = (type: string, bindingKey: string, routingKey: string): boolean =>
  type === 'topic' ? topicMatches(bindingKey, routingKey) : bindingKey === routingKey;

/**
 * A copy that matched several shards of one exchange (CC keys, overlapping topic patterns) is in
 * each of them: the lowest matching shard observes it, the others let it go. A copy whose keys
 * match no shard at all (BCC, which the broker strips) cannot be placed: 'unknown', and the
 * shards count its passes (ShardPasses).
 */
export function ownsCopy(
  mirror: MirrorQueue,
  siblings: readonly MirrorQueue[],
  routingKeys: readonly string[],
): boolean | 'unknown' {
  if (siblings.length <= 1) return true;
  const matches = (m: MirrorQueue) => m.bindings.some((b) => routingKeys.some((k) => keyMatches(m.type, b.key, k)));
  for (const m of siblings) {
    if (m.shard >= mirror.shard) break;
    if (matches(m)) return false;
  }
  return matches(mirror) ? true : 'unknown';
}

/** the keys the exchange routed a copy by: its routing key and CC */
export function routingKeysOf(msg: ConsumeMessage): string[] {
  const cc: unknown = msg.properties.headers?.CC;
  return Array.isArray(cc) ? [msg.fields.routingKey, ...cc.map(String)] : [msg.fields.routingKey];
}

export class Observer {
  private channels: Channel[] = [];
  private stopped = false;
  readonly mirrors: MirrorQueue[];
  /** per sharded exchange: BCC-only copies counted across its shards (kept across reconnects) */
  private readonly passes = new Map<string, ShardPasses>();

  constructor(
    real: Topology,
    readonly traceId: string,
    private readonly onCopy: (c: ObservedCopy) => void,
  ) {
    this.mirrors = mirrorPlan(real, traceId);
  }

  private passesOf(exchange: string, shards: number): ShardPasses {
    let p = this.passes.get(exchange);
    if (!p) this.passes.set(exchange, (p = new ShardPasses(shards)));
    return p;
  }

  /** Declare (idempotently) and consume; run again after every reconnect. */
  async setup(conn: { createChannel(): Promise<Channel> }): Promise<void> {
    if (this.stopped) return;
    this.channels = [];
    for (const m of this.mirrors) {
      const siblings = this.mirrors.filter((o) => o.exchange === m.exchange);
      // a channel per mirror: the broker serialises a channel's deliveries, and the observation must keep up with the workers
      const ch = await conn.createChannel();
      this.channels.push(ch);
      await ch.prefetch(500);
      await ch.assertQueue(m.queue, { durable: true, arguments: { 'x-expires': OBS_EXPIRES_MS } });
      for (const b of m.bindings) await ch.bindQueue(m.queue, m.exchange, b.key, { ...b.args });
      // one ack (multiple) for the copies handled in the same turn of the event loop
      let last: ConsumeMessage | undefined;
      const flush = () => {
        const msg = last;
        last = undefined;
        try {
          if (msg) ch.ack(msg, true);
        } catch {
          /* channel gone (broker restart): the copies are redelivered */
        }
      };
      await ch.consume(m.queue, (msg) => {
        if (!msg) return; // cancelled (queue deleted): nothing more to observe there
        const rxAt = performance.now();
        try {
          if (msg.properties.headers?.[TRACE_HEADER] === this.traceId) {
            const owns = ownsCopy(m, siblings, routingKeysOf(msg));
            if (
              owns === true ||
              (owns === 'unknown' &&
                this.passesOf(m.exchange, siblings.length).firstSight(
                  `${msg.fields.routingKey}\0${messageIdentity(msg)}`,
                  m.shard,
                ))
            )
              this.onCopy({ exchange: m.exchange, mirror: m.queue, msg, rxAt });
          }
        } finally {
          if (!last) setImmediate(flush);
          last = msg;
        }
      });
    }
  }

  /**
   * The mirror queue that will see a copy passing `exchange` (real name) by these keys: a direct or
   * topic exchange's shard whose binding keys match them (undefined for other types, whose copies
   * match by headers or not at all: no shard can be named from the keys alone).
   */
  mirrorOf(exchange: string, routingKeys: readonly string[]): MirrorQueue | undefined {
    const siblings = this.mirrors.filter((m) => m.exchange === exchange);
    if (siblings[0]?.type !== 'direct' && siblings[0]?.type !== 'topic') return undefined;
    return siblings.find((m) => ownsCopy(m, siblings, routingKeys) === true);
  }

  /** copies still waiting in the observation queues (0 when the observation has caught up) */
  async backlog(conn: { createChannel(): Promise<Channel> }): Promise<number> {
    const ch = await conn.createChannel();
    try {
      let n = 0;
      for (const m of this.mirrors) n += (await ch.checkQueue(m.queue)).messageCount;
      return n;
    } finally {
      await ch.close().catch(() => undefined);
    }
  }

  async teardown(conn: { createChannel(): Promise<Channel> } | undefined): Promise<void> {
    this.stopped = true;
    for (const ch of this.channels) await ch.close().catch(() => undefined);
    if (!conn) return;
    try {
      const ch = await conn.createChannel();
      for (const m of this.mirrors) await ch.deleteQueue(m.queue).catch(() => undefined);
      await ch.close().catch(() => undefined);
    } catch {
      /* broker gone: x-expires removes the queues */
    }
  }
}
