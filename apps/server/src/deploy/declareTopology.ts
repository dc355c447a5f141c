/**
 * Declaring a topology's objects, written once: the deploy (applyPlan.ts, pipelined per phase),
 * the conformance runner (declareTopology, one object after the other) and upgrade-check's
 * --verify-on (object by object, each refusal kept) declare through these. Settings a definition
 * leaves out take RabbitMQ's defaults (durable, not auto-delete, not internal: planDeploy's
 * exchangeShape and queueShape; a policy applies to all, priority 0).
 */
import type { Channel } from 'amqplib';
import type { BindingDef, PolicyDef, Topology } from '@retry-studio/topology-core/model';
import type { ManagementClient } from '../broker/management.js';
import { exchangeShape, queueShape, type ExchangeShape, type QueueShape } from './planDeploy.js';

/** a channel that can declare (amqplib's Channel, or the channel of a ChannelModel) */
type DeclaringChannel = Pick<Channel, 'assertExchange' | 'assertQueue' | 'bindQueue' | 'bindExchange' | 'close' | 'on'>;

export function declareExchange(ch: DeclaringChannel, name: string, d: ExchangeShape): Promise<unknown> {
  return ch.assertExchange(name, d.type, {
    durable: d.durable,
    autoDelete: d.auto_delete,
    internal: d.internal,
    arguments: { ...d.arguments },
  });
}

export function declareQueue(ch: DeclaringChannel, name: string, d: QueueShape): Promise<unknown> {
  return ch.assertQueue(name, { durable: d.durable, autoDelete: d.auto_delete, arguments: { ...d.arguments } });
}

/** A policy goes over the management API (AMQP cannot set one). */
export function declarePolicy(mgmt: Pick<ManagementClient, 'putPolicy'>, vhost: string, p: PolicyDef): Promise<void> {
  return mgmt.putPolicy(vhost, p.name, {
    pattern: p.pattern,
    'apply-to': p['apply-to'] ?? 'all',
    priority: p.priority ?? 0,
    definition: { ...p.definition },
  });
}

export function declareBinding(ch: DeclaringChannel, b: BindingDef): Promise<unknown> {
  const args = { ...(b.arguments ?? {}) };
  return b.destination_type === 'exchange'
    ? ch.bindExchange(b.destination, b.source, b.routing_key, args)
    : ch.bindQueue(b.destination, b.source, b.routing_key, args);
}

/**
 * Declares every exchange, then every queue, then every binding, one at a time on one channel
 * (closed after). The first failure throws `declaring <object> failed: <the broker's message>`.
 */
export async function declareTopology(
  conn: { createChannel(): Promise<DeclaringChannel> },
  t: Topology,
): Promise<void> {
  const ch = await conn.createChannel();
  let failure: Error | undefined;
  ch.on('error', (err: Error) => (failure = err));
  const step = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
    try {
      await fn();
    } catch (err) {
      throw new Error(`declaring ${what} failed: ${(failure ?? (err as Error)).message}`);
    }
  };
  try {
    for (const e of t.exchanges)
      await step(`exchange '${e.name}'`, () => declareExchange(ch, e.name, exchangeShape(e)));
    for (const q of t.queues) await step(`queue '${q.name}'`, () => declareQueue(ch, q.name, queueShape(q)));
    for (const b of t.bindings)
      await step(`binding '${b.source}' -> '${b.destination}' (${b.routing_key})`, () => declareBinding(ch, b));
  } finally {
    await ch.close().catch(() => undefined);
  }
}
