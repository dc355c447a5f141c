/**
 * Quorum queues: the headers a delivery gets (x-delivery-count; 4.3 also x-acquired-count),
 * returns that count toward the delivery limit (4.3: basic.reject only), dead-lettering with
 * reason delivery_limit, and 4.3's delayed retry.
 */
import type { AmqpValue } from '../model/definitions.js';
import type { QEntry, QueueState } from './queueState.js';
import type { SimState } from './simState.js';
import { deadLetter } from './deadLetterRoute.js';

export function deliveredHeaders(sim: SimState, q: QueueState, e: QEntry): { readonly [k: string]: AmqpValue } {
  if (!q.cfg.quorum || (e.acquiredCount === 0 && e.deliveryCount === 0)) return e.msg.headers;
  // 4.3: x-delivery-count counts failed deliveries, x-acquired-count every return (docs quorum-queues#poison-message-handling);
  // a dead letter not yet returned here shows the count it carries as both (recorded: dead-letter-delivery-count-into-quorum)
  if (sim.profile.onlyRejectsCountTowardLimit) {
    const acquired = e.acquiredCount > 0 ? e.acquiredCount : e.deliveryCount;
    return e.deliveryCount > 0
      ? { ...e.msg.headers, 'x-delivery-count': e.deliveryCount, 'x-acquired-count': acquired }
      : { ...e.msg.headers, 'x-acquired-count': acquired };
  }
  // quorum queues add x-delivery-count on redelivery (rabbit_fifo_client.erl L791-801)
  return { ...e.msg.headers, 'x-delivery-count': e.deliveryCount };
}

/** the end of a delayed retry: back among the returns, then dispatch */
export function retryReady(sim: SimState, q: QueueState, e: QEntry): void {
  if (sim.queues.get(q.cfg.name) !== q) {
    // the queue was deleted while it was held
    const m = e.msg;
    sim.release(e);
    sim.drop(m, 'queue-deleted', q.cfg.name, undefined);
    return;
  }
  sim.rules.toReady(sim, q, e);
  sim.rules.dispatch(sim, q);
}

/** a quorum queue takes a message back (basic.nack / basic.reject with requeue; `failedReturn`: counts as failed) */
export function quorumReturn(
  sim: SimState,
  q: QueueState,
  e: QEntry,
  consumer: string,
  viaReject: boolean,
  failedReturn = viaReject,
  multiple = false,
): void {
  const msg = e.msg;
  // 4.3: only a failed delivery (basic.reject) increments delivery-count; every return increments acquired-count
  const failed = failedReturn || !sim.profile.onlyRejectsCountTowardLimit;
  e.acquiredCount++;
  if (failed) e.deliveryCount++;
  const limit = q.cfg.deliveryLimit;
  // delivery_count > limit dead-letters (rabbit_fifo.erl L1756-1781)
  if (failed && limit !== undefined && e.deliveryCount > limit) {
    sim.rules.emitRequeued(sim, q, msg, consumer, viaReject, undefined, multiple);
    const n = e.deliveryCount;
    sim.release(e);
    deadLetter(sim, q, msg, 'delivery_limit', n);
    return;
  }
  // 4.3 delayed retry: held for min(min x delivery-count, max) before it is ready again (docs
  // quorum-queues#delayed-retry). A nack leaves delivery-count as it was, so the docs say it is
  // not "delayed longer than the minimum": at least min x 1.
  const dr = q.cfg.delayedRetry;
  if (dr !== undefined && (dr.type === 'all' || (dr.type === 'failed') === failed)) {
    const delay = Math.min(dr.minMs * Math.max(1, e.deliveryCount), dr.maxMs);
    sim.rules.emitRequeued(sim, q, msg, consumer, viaReject, delay, multiple);
    sim.heap.push(sim.t + delay, { k: 'qq-retry', q, e });
    return;
  }
  sim.rules.emitRequeued(sim, q, msg, consumer, viaReject, undefined, multiple);
  sim.rules.toReady(sim, q, e);
}
