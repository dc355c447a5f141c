/**
 * A delayed exchange (x-delayed-message) holding a message until its x-delay ends; the
 * simulator routes it on from that exchange then (see the 'delayed' work item).
 */
import type { Msg, MsgShape } from './types.js';
import { MsgRec } from './msgRecord.js';
import type { SimState } from './simState.js';

/** hold `msg` in each delayed exchange that took it; `negate`: the dead-letter case of 3.10 */
export function holdDelayed(
  sim: SimState,
  msg: Msg,
  delayed: readonly { readonly exchange: string; readonly delayMs: number }[],
  negate: boolean,
): void {
  for (const d of delayed) {
    if (sim.wantEvents)
      sim.emit({
        kind: 'delayed',
        t: sim.t,
        seq: sim.seq++,
        msgId: msg.id,
        body: msg.body,
        exchange: d.exchange,
        delayMs: d.delayMs,
        until: sim.t + d.delayMs,
      });
    else sim.seq++;
    sim.touchInFlight(1);
    sim.heap.push(sim.t + d.delayMs, {
      k: 'delayed',
      exchange: d.exchange,
      msg: negate ? withDelayNegated(msg, d.delayMs) : msg,
    });
  }
}

/** a dead letter held by a delayed exchange comes out with x-delay negated (3.10 + plugin 3.10.2) */
function withDelayNegated(m: Msg, delayMs: number): Msg {
  const shape: MsgShape = {
    exchange: m.exchange,
    routingKeys: m.routingKeys,
    headers: { ...m.headers, 'x-delay': -delayMs },
    xDeath: m.xDeath,
    xDeathFromClient: m.xDeathFromClient,
    expiration: m.expiration,
    ccInKeys: m.ccInKeys,
    deliveryCount: m.deliveryCount,
  };
  return new MsgRec(m.logical, m.body, m.bytes, shape);
}
