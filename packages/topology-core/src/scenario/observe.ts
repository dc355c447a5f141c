/**
 * A simulation's events and result -> `Observed`, normalised as the format README says:
 * x-death entries without `time`; `headers` every other header, omitted when empty;
 * `expiration` only when the message still carries one; deliveries per queue in order.
 */
import type { AmqpTable, AmqpValue } from '../model/definitions.js';
import type { SimEvent } from '../sim/events.js';
import type { XDeathEntry } from '../model/xDeath.js';
import type { MessageSnapshot, SimulationResult } from '../sim/types.js';
import type { Observed, ObservedDeath, ObservedDelivery, ObservedMessage } from './types.js';

export function normaliseDeaths(xd: readonly XDeathEntry[]): ObservedDeath[] {
  return xd.map((d) => ({
    queue: d.queue,
    reason: d.reason,
    count: d.count,
    exchange: d.exchange,
    'routing-keys': [...d['routing-keys']],
    ...(d['original-expiration'] !== undefined ? { 'original-expiration': d['original-expiration'] } : {}),
  }));
}

function normaliseHeaders(h: { readonly [k: string]: AmqpValue }): AmqpTable | undefined {
  const out: { [k: string]: AmqpValue } = {};
  let n = 0;
  for (const [k, v] of Object.entries(h)) {
    if (k === 'x-death') continue;
    out[k] = v;
    n++;
  }
  return n > 0 ? out : undefined;
}

function observedMessage(m: {
  readonly body: string;
  readonly headers: { readonly [k: string]: AmqpValue };
  readonly xDeath?: readonly XDeathEntry[];
  readonly expiration?: string;
}): ObservedMessage {
  const headers = normaliseHeaders(m.headers);
  return {
    body: m.body,
    ...(m.xDeath && m.xDeath.length > 0 ? { 'x-death': normaliseDeaths(m.xDeath) } : {}),
    ...(headers ? { headers } : {}),
    ...(m.expiration !== undefined ? { expiration: m.expiration } : {}),
  };
}

export function observe(result: Pick<SimulationResult, 'events' | 'final' | 'publishNacked' | 'returned'>): Observed {
  const deliveries: { [q: string]: ObservedDelivery[] } = {};
  for (const e of result.events as readonly SimEvent[]) {
    if (e.kind !== 'delivered') continue;
    const list = deliveries[e.queue] ?? (deliveries[e.queue] = []);
    const m = observedMessage({
      body: e.body,
      headers: e.headers,
      ...(e.xDeath ? { xDeath: e.xDeath } : {}),
      ...(e.expiration !== undefined ? { expiration: e.expiration } : {}),
    });
    list.push({ ...m, redelivered: e.redelivered });
  }
  const final: { [q: string]: ObservedMessage[] } = {};
  for (const [q, msgs] of Object.entries(result.final)) {
    if (msgs.length === 0) continue;
    final[q] = (msgs as MessageSnapshot[]).map((m) => observedMessage(m));
  }
  return {
    deliveries,
    final,
    ...(result.publishNacked.length > 0 ? { publish_nacked: [...result.publishNacked] } : {}),
    ...(result.returned.length > 0 ? { returned: [...result.returned] } : {}),
  };
}
