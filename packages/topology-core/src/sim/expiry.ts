/**
 * Expiry: message TTL (checked at the head only, as RabbitMQ does, with one timer per queue)
 * dead-letters with reason `expired`; a queue's x-expires deletes it, dropping its messages.
 */
import type { QueueState } from './queueState.js';
import type { SimState } from './simState.js';
import { deadLetter } from './deadLetterRoute.js';

/** remove expired messages from the head only */
export function dropExpired(sim: SimState, q: QueueState): void {
  for (;;) {
    const h = q.head();
    if (!h || h.expiresAt > sim.t) return;
    q.takeHead();
    const m = h.msg;
    const n = h.deliveryCount;
    sim.release(h);
    if (sim.wantEvents)
      sim.emit({ kind: 'expired', t: sim.t, seq: sim.seq++, msgId: m.id, body: m.body, queue: q.cfg.name });
    else sim.seq++;
    deadLetter(sim, q, m, 'expired', n);
  }
}

export function ensureTimer(sim: SimState, q: QueueState): void {
  const h = q.head();
  if (!h || h.expiresAt === Infinity) return;
  if (h.expiresAt < q.timerAt) {
    q.timerAt = h.expiresAt;
    sim.heap.push(h.expiresAt, { k: 'expire', q });
  }
}

export function deleteQueue(sim: SimState, q: QueueState): void {
  // deleting a queue discards its messages: no dead-lettering (docs dlx#overview)
  for (let e = q.takeHead(); e; e = q.takeHead()) {
    const m = e.msg;
    sim.release(e);
    sim.drop(m, 'queue-deleted', q.cfg.name, undefined);
  }
  sim.queues.delete(q.cfg.name);
  sim.router.deleteQueue(q.cfg.name);
}
