/**
 * Delivering and settling: dispatch to consumers within their prefetch, the consumer's outcome
 * (script, worker, router behaviours; in-process retries), ack, reject, requeue and republish
 * (the ack waits for the copy's confirm), and returning a message to ready.
 */
import { pausedByNodeLoss } from './nodeLoss.js';
import type { ConsumerAction } from '../model/consumer.js';
import type { Logical, Msg } from './types.js';
import { QEntry, entryPos, type QueueState } from './queueState.js';
import { backoffMs, chooseAction, planRepublish, processingSucceeds } from '../behaviour/evaluate.js';
import type { ConsumerState, Delivery, SimState } from './simState.js';
import { clientPublish, dropHeadOverflow } from './publishRoute.js';
import { deadLetter } from './deadLetterRoute.js';
import { dropExpired, ensureTimer } from './expiry.js';
import { deliveredHeaders, quorumReturn } from './quorum.js';
import { dispatchStream, streamHeaders } from './stream.js';

const OK = { ok: true } as const;
const NOT_OK = { ok: false } as const;
const NO_OPTS = {} as const;

/** deliver ready messages while a consumer has spare prefetch */
export function dispatch(sim: SimState, q: QueueState): void {
  if (sim.outages.size > 0 && pausedByNodeLoss(sim, q)) return;
  if (q.cfg.stream) return dispatchStream(sim, q);
  while (q.readyCount > 0) {
    dropExpired(sim, q);
    if (q.readyCount === 0) break;
    const c = q.pickConsumer();
    if (!c) break;
    const e = q.takeHead() as QEntry;
    deliver(sim, q, e, c as ConsumerState);
  }
  ensureTimer(sim, q);
}

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
  sim.heap.push(sim.t + c.processingMs, d);
}

export function verdict(sim: SimState, d: Delivery): boolean {
  const c = d.consumer;
  const L = d.msg.logical;
  // per logical message, across every worker consumer (a chain of tiers is one message's attempts)
  const runs = ++L.runs;
  // one reused context object: no allocation per processing run
  const ctx = sim.failureCtx;
  ctx.attempt = runs;
  ctx.body = d.msg.body;
  ctx.messageIndex = L.index;
  const ok = processingSucceeds(c.failure, ctx);
  if (sim.wantEvents)
    sim.emit({ kind: 'processed', t: sim.t, seq: sim.seq++, msgId: L.id, body: d.msg.body, queue: c.queue.cfg.name, consumer: c.id, attempt: runs, ok });
  else sim.seq++;
  return ok;
}

export function outcome(sim: SimState, d: Delivery): void {
  const c = d.consumer;
  const b = c.behaviour;
  let action: ConsumerAction;
  if (b.kind === 'script') {
    const n = (c.perBody.get(d.msg.body) ?? 0) + 1;
    c.perBody.set(d.msg.body, n);
    action = chooseAction(b, d, { scriptIndex: n });
  } else if (b.kind === 'worker') {
    action = chooseAction(b, d, verdict(sim, d) ? OK : NOT_OK);
  } else action = chooseAction(b, d, NO_OPTS);
  apply(sim, d, action);
}

export function retryAttempt(sim: SimState, d: Delivery): void {
  const r = d.retry as Extract<ConsumerAction, { kind: 'retryInProcess' }>;
  d.inProcess++;
  const ok = verdict(sim, d);
  const b = d.consumer.behaviour;
  if (ok) {
    apply(sim, d, b.kind === 'worker' ? (b.onSuccess ?? { kind: 'ack' }) : { kind: 'ack' });
    return;
  }
  if (d.inProcess >= r.maxAttempts) {
    apply(sim, d, r.recover);
    return;
  }
  sim.heap.push(sim.t + backoffMs(r.backoff, d.inProcess), { k: 'retry', d });
}

export function settle(sim: SimState, d: Delivery): void {
  d.consumer.inflight--;
  d.consumer.queue.unacked--;
}

export function apply(sim: SimState, d: Delivery, action: ConsumerAction): void {
  const c = d.consumer;
  const q = c.queue;
  const e = d;
  const msg = e.msg;
  if (q.cfg.stream && action.kind !== 'republish' && action.kind !== 'retryInProcess') {
    streamSettle(sim, d, action.kind);
    return;
  }
  switch (action.kind) {
    case 'ack':
      settle(sim, d);
      sim.release(d);
      if (sim.wantEvents) sim.emit({ kind: 'acked', t: sim.t, seq: sim.seq++, msgId: msg.id, body: msg.body, queue: q.cfg.name, consumer: c.id });
      else sim.seq++;
      break;
    case 'reject': {
      settle(sim, d);
      // a basic.reject is a failed delivery too
      const n = d.deliveryCount + 1;
      sim.release(d);
      if (sim.wantEvents) sim.emit({ kind: 'rejected', t: sim.t, seq: sim.seq++, msgId: msg.id, body: msg.body, queue: q.cfg.name, consumer: c.id });
      else sim.seq++;
      deadLetter(sim, q, msg, 'rejected', n);
      break;
    }
    case 'requeue':
      settle(sim, d);
      requeue(sim, q, e, c.id, action.via === 'reject');
      break;
    case 'republish': {
      const plan = planRepublish(action, d);
      clientPublish(sim, msg.logical, msg.body, plan.exchange, plan.routingKey, plan.headers, plan.expiration, false, sim.consumerOrigin(c.id), plan.keepXDeath ? msg.xDeath : undefined);
      // the ack waits for the confirm, which comes after what the copy's arrival set going at
      // this instant (a persistent copy is confirmed once written): the original is held meanwhile
      sim.heap.push(sim.t, { k: 'confirm', d });
      return;
    }
    case 'retryInProcess': {
      // the message stays unacked while the listener sleeps and re-runs
      d.retry = action;
      d.inProcess = 1;
      if (action.maxAttempts <= 1) {
        apply(sim, d, action.recover);
        return;
      }
      sim.heap.push(sim.t + backoffMs(action.backoff, 1), { k: 'retry', d });
      return;
    }
  }
  dispatch(sim, q);
}

/**
 * A stream reader settles: the ack (or a reject/nack, which 4.x ignores and the validator
 * refuses) only frees prefetch. The message stays in the log at its offset.
 */
function streamSettle(sim: SimState, d: Delivery, kind: 'ack' | 'reject' | 'requeue'): void {
  const c = d.consumer;
  const q = c.queue;
  settle(sim, d);
  const base = { t: sim.t, seq: sim.seq++, msgId: d.msg.id, body: d.msg.body, queue: q.cfg.name, consumer: c.id };
  if (sim.wantEvents) sim.emit(kind === 'ack' ? { kind: 'acked', ...base } : kind === 'reject' ? { kind: 'rejected', ...base } : { kind: 'requeued', ...base });
  dispatchStream(sim, q);
}

/** basic.nack / basic.reject with requeue=true (`viaReject`) */
export function requeue(sim: SimState, q: QueueState, e: QEntry, consumer: string, viaReject: boolean): void {
  e.redelivered = true;
  const msg = e.msg;
  if (q.cfg.quorum) {
    quorumReturn(sim, q, e, consumer, viaReject);
    return;
  }
  // classic queues count nothing visible, but a dead letter carries the rejects (4.3)
  if (viaReject) e.deliveryCount++;
  emitRequeued(sim, q, msg, consumer, viaReject, undefined);
  toReady(sim, q, e);
}

export function emitRequeued(sim: SimState, q: QueueState, msg: Msg, consumer: string, viaReject: boolean, delayMs: number | undefined): void {
  if (!sim.wantEvents) {
    sim.seq++;
    return;
  }
  sim.emit({
    kind: 'requeued',
    t: sim.t,
    seq: sim.seq++,
    msgId: msg.id,
    body: msg.body,
    queue: q.cfg.name,
    consumer,
    ...(viaReject ? { via: 'reject' as const } : {}),
    ...(delayMs !== undefined ? { delayMs, until: sim.t + delayMs } : {}),
  });
}

/** a returned entry becomes ready: quorum returns queue (or the back), classic original position */
export function toReady(sim: SimState, q: QueueState, e: QEntry): void {
  if (q.cfg.quorum) {
    const limit = q.cfg.deliveryLimit;
    if (limit !== undefined) q.returns.push(e);
    else {
      // 3.10 quorum queue without a limit: a return is a re-enqueue at the back (rabbit_fifo.erl L976-1004)
      e.pos = q.nextPos++;
      q.ready.push(e);
    }
  } else q.ready.insertSorted(e, entryPos); // classic: back to its original position
  q.readyBytes += e.msg.bytes;
  dropHeadOverflow(sim, q);
  dropExpired(sim, q);
  ensureTimer(sim, q);
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
