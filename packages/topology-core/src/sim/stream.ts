/**
 * A stream in the simulator (docs streams, "Streams" and "Consuming"): an append-only log.
 * Every message routed to it, dead letters included (with their x-death), is kept at the next
 * offset. Each consumer reads from its own offset (`first`, `last`, `next` or a number) within
 * its prefetch and gets the `x-stream-offset` header; its ack only frees prefetch: nothing is
 * removed, so another reader, or a later one from `first`, sees the same messages. Retention
 * (x-max-age, x-max-length-bytes) removes whole segments and is not modelled.
 */
import type { AmqpValue } from '../model/definitions.js';
import type { StreamOffset } from '../model/consumer.js';
import type { Msg } from './types.js';
import { QEntry, type QueueState } from './queueState.js';
import type { ConsumerState, SimState } from './simState.js';
import { MsgRec } from './msgRecord.js';

/** Where a consumer attaching now starts reading. `last` is the last chunk: here the last message. */
export function startOffset(q: QueueState, offset: StreamOffset | undefined): number {
  const end = q.log.length;
  if (offset === 'first') return 0;
  if (offset === 'last') return Math.max(0, end - 1);
  if (typeof offset === 'number') return Math.min(Math.max(0, offset), end);
  return end; // 'next', the broker's default for an AMQP 0-9-1 consumer
}

/**
 * What a stream stores of a message. A client publish's `x-death` is not kept (measured on 3.10.8
 * and 4.3.6: a worker that parks a copy with its headers copied loses the x-death table, the
 * x-first-death-* headers stay), and 3.10 drops array and table headers too
 * (profiles.ts streamKeepsArrayHeaders). A dead letter keeps its x-death.
 */
function stored(sim: SimState, msg: Msg): Msg {
  const dropXDeath = msg.xDeathFromClient && msg.xDeath !== undefined;
  const dropTables = !sim.profile.streamKeepsArrayHeaders && Object.values(msg.headers).some(isTable);
  if (!dropXDeath && !dropTables) return msg;
  const headers = dropTables
    ? Object.fromEntries(Object.entries(msg.headers).filter(([, v]) => !isTable(v)))
    : msg.headers;
  return new MsgRec(msg.logical, msg.body, msg.bytes, {
    exchange: msg.exchange,
    routingKeys: msg.routingKeys,
    headers,
    xDeath: dropXDeath ? undefined : msg.xDeath,
    xDeathFromClient: dropXDeath ? false : msg.xDeathFromClient,
    expiration: msg.expiration,
    ccInKeys: msg.ccInKeys,
    deliveryCount: msg.deliveryCount,
  });
}

const isTable = (v: AmqpValue): boolean => v !== null && typeof v === 'object';

/** Appends a routed message to the stream and lets readers waiting at the end take it. */
export function appendToStream(sim: SimState, q: QueueState, routed: Msg): void {
  const offset = q.log.length;
  const msg = stored(sim, routed);
  q.log.push(msg);
  // a stream message stays on the broker for good (until retention): counted in flight once, never released
  sim.touchInFlight(1);
  if (sim.wantEvents)
    sim.emit({
      kind: 'enqueued',
      t: sim.t,
      seq: sim.seq++,
      msgId: msg.id,
      body: msg.body,
      queue: q.cfg.name,
      depth: offset + 1,
    });
  else sim.seq++;
  sim.depthChanged(q);
  dispatchStream(sim, q);
}

/** The headers a stream delivers a message with: its own plus `x-stream-offset`. */
export function streamHeaders(msg: Msg, offset: number): { readonly [k: string]: AmqpValue } {
  return { ...msg.headers, 'x-stream-offset': offset };
}

/** Each reader takes the next offsets its prefetch allows. */
export function dispatchStream(sim: SimState, q: QueueState): void {
  for (const slot of q.consumers) {
    const c = slot as ConsumerState;
    while (c.inflight < c.prefetch && c.streamNext < q.log.length) {
      const offset = c.streamNext++;
      // a delivery is a fresh entry over the logged message (pos = its offset); the log keeps the message
      sim.rules.deliver(sim, q, new QEntry(q.log[offset] as Msg, Infinity, offset), c);
    }
  }
}
