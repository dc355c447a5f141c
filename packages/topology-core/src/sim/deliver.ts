/**
 * A delivery to a consumer: the headers it gets (a stream's offset, a quorum queue's counts), the
 * `delivered` event, and the outcome scheduled after the consumer's processing time. Below
 * publishRoute (an idle consumer takes a message at once) and deliverAck (dispatch, settling).
 */
import type { Logical } from './types.js';
import type { QEntry, QueueState } from './queueState.js';
import type { ConsumerState, Delivery, SimState } from './simState.js';
import { streamHeaders } from './stream.js';
import { deliveredHeaders } from './quorum.js';

export function deliver(sim: SimState, q: QueueState, e: QEntry, c: ConsumerState): void {
  c.inflight++;
  q.unacked++;
  const msg = e.msg;
  const seen = countDelivery(msg.logical, c.ord);
  const headers = q.cfg.stream
    ? streamHeaders(msg, e.pos)
    : q.cfg.quorum && (e.acquiredCount > 0 || e.deliveryCount > 0)
      ? deliveredHeaders(sim, q, e)
      : msg.headers;
  const routingKey = msg.routingKeys[0] ?? '';
  sim.lastActivity = sim.t;
  if (sim.wantEvents)
    sim.emit({
      kind: 'delivered',
      t: sim.t,
      seq: sim.seq++,
      msgId: msg.id,
      body: msg.body,
      queue: q.cfg.name,
      consumer: c.id,
      redelivered: e.redelivered,
      headers,
      ...(msg.xDeath ? { xDeath: msg.xDeath } : {}),
      ...(msg.expiration !== undefined ? { expiration: msg.expiration } : {}),
      routingKey,
      exchange: msg.exchange,
    });
  else sim.seq++;
  sim.depthChanged(q);
  const d = e as Delivery;
  d.consumer = c;
  d.headers = headers;
  d.attempt = seen;
  d.inProcess = 0;
  d.retry = undefined;
  if (c.unsettled) c.unsettled.push(d);
  const busy = sim.input.processingMsOf;
  sim.heap.push(sim.t + (busy ? busy(c.id, msg.logical.index, c.processingMs) : c.processingMs), d);
}

/** one more delivery of this message to consumer `ord`; returns that consumer's count (1-based) */
function countDelivery(L: Logical, ord: number): number {
  if (L.counts === undefined) {
    if (ord < 4) {
      const shift = ord * 7;
      const n = ((L.seen >>> shift) & 127) + 1;
      if (n < 128) {
        L.seen = (L.seen & ~(127 << shift)) | (n << shift);
        return n;
      }
    }
    // unpack: from now on one slot per consumer
    const counts: number[] = [];
    for (let i = 0; i < 4; i++) counts[i] = (L.seen >>> (i * 7)) & 127;
    L.counts = counts;
  }
  const n = (L.counts[ord] ?? 0) + 1;
  L.counts[ord] = n;
  return n;
}
