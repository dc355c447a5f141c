/**
 * Design -> a Rascal (onebeyond/rascal) configuration: the vhost's exchanges, queues and
 * bindings, one publication per publisher and one subscription per consumer. Consumer
 * behaviours are code in Rascal (ackOrNack with a recovery strategy), so they are not part
 * of the config; the consumer skeleton export covers them.
 */
import type { Design } from '../model/design.js';
import { republishSlotSuffix, republishTargets } from './republishTargets.js';

export interface RascalConfig {
  readonly vhosts: Record<string, unknown>;
}

export function exportRascalConfig(d: Design, vhost = '/'): RascalConfig {
  const t = d.topology;
  const exchanges: Record<string, unknown> = {};
  for (const x of t.exchanges)
    exchanges[x.name] = {
      type: x.type,
      options: {
        durable: x.durable ?? true,
        autoDelete: x.auto_delete ?? false,
        internal: x.internal ?? false,
        arguments: { ...(x.arguments ?? {}) },
      },
    };
  const queues: Record<string, unknown> = {};
  for (const q of t.queues)
    queues[q.name] = {
      options: {
        durable: q.durable ?? true,
        autoDelete: q.auto_delete ?? false,
        arguments: { ...(q.arguments ?? {}) },
      },
    };
  const bindings: Record<string, unknown> = {};
  t.bindings.forEach((b, i) => {
    bindings[`b${i + 1}:${b.source}->${b.destination}`] = {
      source: b.source,
      destination: b.destination,
      destinationType: b.destination_type,
      bindingKey: b.routing_key,
      ...(b.arguments && Object.keys(b.arguments).length > 0 ? { options: { ...b.arguments } } : {}),
    };
  });
  const publications: Record<string, unknown> = {};
  for (const p of d.publishers)
    publications[p.id] = {
      ...(p.exchange === '' ? { queue: p.routingKey } : { exchange: p.exchange, routingKey: p.routingKey }),
      confirm: true,
      ...(p.properties
        ? {
            options: {
              ...(p.properties.headers ? { headers: { ...p.properties.headers } } : {}),
              ...(p.properties.expiration ? { expiration: p.properties.expiration } : {}),
            },
          }
        : {}),
    };
  // the exchanges consumers republish to, so that application code can use them by name
  for (const c of d.consumers)
    for (const r of republishTargets(c))
      publications[`${c.id}.${r.slot.kind === 'rule' ? 'retry' : 'republish-'}${republishSlotSuffix(r.slot)}`] =
        r.exchange === '' && r.routingKey
          ? { queue: r.routingKey, confirm: true }
          : { exchange: r.exchange, ...(r.routingKey ? { routingKey: r.routingKey } : {}), confirm: true };
  const subscriptions: Record<string, unknown> = {};
  for (const c of d.consumers) subscriptions[c.id] = { queue: c.queue, prefetch: c.prefetch ?? 1 };
  return { vhosts: { [vhost]: { assert: true, exchanges, queues, bindings, publications, subscriptions } } };
}
