/**
 * Dispatch and settling: dispatch to consumers within their prefetch (each delivery: deliver.ts), the consumer's outcome
 * (script, worker, router behaviours; in-process retries), ack, reject, requeue and republish
 * (the ack waits for the copy's confirm), and returning a message to ready.
 */
import { pausedByNodeLoss } from './nodeLoss.js';
import type { ConsumerAction } from '../model/consumer.js';
import type { Msg } from './types.js';
import { QEntry, entryPos, type QueueState } from './queueState.js';
import { backoffMs, chooseAction, planRepublish, processingSucceeds } from '../behaviour/evaluate.js';
import type { ConsumerState, Delivery, SimState } from './simState.js';
import { dispatchStream } from './stream.js';
import { deadLetter } from './deadLetterRoute.js';
import { dropExpired, ensureTimer } from './expiry.js';
import { clientPublish, dropHeadOverflow } from './publishRoute.js';
import { quorumReturn } from './quorum.js';
import { deliver } from './deliver.js';

const OK = { ok: true } as const;
const NOT_OK = { ok: false } as const;
const NO_OPTS = {} as const;
/** on the events of deliveries a multiple settled */
const MULTIPLE = { multiple: true } as const;
const DISCARDED = { discarded: true } as const;

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
  const schedule = sim.input.failureSchedule;
  const ok = schedule ? schedule(c.id, ctx, sim.t) : processingSucceeds(c.failure, ctx);
  if (sim.wantEvents)
    sim.emit({
      kind: 'processed',
      t: sim.t,
      seq: sim.seq++,
      msgId: L.id,
      body: d.msg.body,
      queue: c.queue.cfg.name,
      consumer: c.id,
      attempt: runs,
      ok,
    });
  else sim.seq++;
  return ok;
}

export function outcome(sim: SimState, d: Delivery): void {
  const c = d.consumer;
  // settled by a later delivery's `multiple` while it was still being processed
  if (c === undefined) return;
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
  const c = d.consumer;
  c.inflight--;
  c.queue.unacked--;
  if (d.isHeld) {
    d.isHeld = false;
    c.holding--;
  }
  const list = c.unsettled;
  if (list) {
    const i = list.indexOf(d);
    if (i >= 0) list.splice(i, 1);
  }
}

type Settlement = 'ack' | 'reject' | 'requeue';

/** ack, reject (requeue=false) or requeue one delivery; the caller dispatches. `discarded`: an ack after the application gave up */
function settleOne(
  sim: SimState,
  d: Delivery,
  how: Settlement,
  viaReject: boolean,
  multiple = false,
  discarded = false,
): void {
  const c = d.consumer;
  const q = c.queue;
  const msg = d.msg;
  settle(sim, d);
  if (q.cfg.stream) {
    // a stream reader's ack (or a reject/nack, which 4.x ignores and the validator refuses) only
    // frees prefetch: the message stays in the log at its offset
    if (sim.wantEvents) {
      const base = {
        t: sim.t,
        seq: sim.seq++,
        msgId: msg.id,
        body: msg.body,
        queue: q.cfg.name,
        consumer: c.id,
        ...(multiple ? MULTIPLE : {}),
      };
      sim.emit(
        how === 'ack'
          ? { kind: 'acked', ...base }
          : how === 'reject'
            ? { kind: 'rejected', ...base }
            : { kind: 'requeued', ...base },
      );
    } else sim.seq++;
    return;
  }
  if (how === 'ack') {
    sim.release(d);
    if (sim.wantEvents)
      sim.emit({
        kind: 'acked',
        t: sim.t,
        seq: sim.seq++,
        msgId: msg.id,
        body: msg.body,
        queue: q.cfg.name,
        consumer: c.id,
        ...(multiple ? MULTIPLE : {}),
        ...(discarded ? DISCARDED : {}),
      });
    else sim.seq++;
  } else if (how === 'reject') {
    // a basic.reject is a failed delivery too
    const n = d.deliveryCount + 1;
    sim.release(d);
    if (sim.wantEvents)
      sim.emit({
        kind: 'rejected',
        t: sim.t,
        seq: sim.seq++,
        msgId: msg.id,
        body: msg.body,
        queue: q.cfg.name,
        consumer: c.id,
        ...(multiple ? MULTIPLE : {}),
      });
    else sim.seq++;
    deadLetter(sim, q, msg, 'rejected', n);
  } else requeue(sim, q, d, c.id, viaReject, viaReject, multiple);
}

/**
 * AMQP's multiple flag: this delivery and every earlier unsettled one on the channel, oldest
 * first (rabbit_channel collect_acks, then the queue settles them in tag order). One still being
 * processed is settled through a copy: the original, which its scheduled work still points at,
 * is orphaned (no consumer) so that work finds nothing to settle and it is never pooled.
 */
function settleMultiple(sim: SimState, d: Delivery, how: Settlement): void {
  const list = d.consumer.unsettled as QEntry[];
  const upTo = list.indexOf(d);
  if (upTo < 0) return settleOne(sim, d, how, false);
  const batch = list.splice(0, upTo + 1) as Delivery[];
  for (const e of batch) {
    if (e === d || e.isHeld) {
      settleOne(sim, e, how, false, true);
      continue;
    }
    const carry = e.copy() as Delivery;
    e.consumer = undefined as unknown as Delivery['consumer'];
    e.retry = undefined;
    settleOne(sim, carry, how, false, true);
  }
}

export function apply(sim: SimState, d: Delivery, action: ConsumerAction): void {
  const c = d.consumer;
  const q = c.queue;
  const e = d;
  const msg = e.msg;
  switch (action.kind) {
    case 'ack':
    case 'reject':
      if (action.multiple === true && c.unsettled) settleMultiple(sim, d, action.kind);
      else settleOne(sim, d, action.kind, false);
      break;
    case 'discard':
      settleOne(sim, d, 'ack', false, false, true);
      break;
    case 'defer':
      // held unacked (its prefetch slot taken) until the timer fires
      sim.heap.push(sim.t + action.ms, { k: 'defer', d, action: action.then });
      return;
    case 'requeue':
      if (action.multiple === true && c.unsettled) settleMultiple(sim, d, 'requeue');
      else settleOne(sim, d, 'requeue', action.via === 'reject');
      break;
    case 'hold':
      // stays unacked, its prefetch slot taken, until a later `multiple` settles it
      if (!d.isHeld && c.unsettled) {
        d.isHeld = true;
        c.holding++;
      }
      return;
    case 'republish': {
      const plan = planRepublish(action, d);
      clientPublish(
        sim,
        msg.logical,
        msg.body,
        plan.exchange,
        plan.routingKey,
        plan.headers,
        plan.expiration,
        false,
        sim.consumerOrigin(c.id),
        plan.keepXDeath ? msg.xDeath : undefined,
      );
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
 * basic.nack / basic.reject with requeue=true (`viaReject`). `failed`: the return counts as a
 * failed delivery (a reject; or a channel closed with the delivery unacked, as 4.3.6 counts it).
 */
export function requeue(
  sim: SimState,
  q: QueueState,
  e: QEntry,
  consumer: string,
  viaReject: boolean,
  failed = viaReject,
  multiple = false,
): void {
  e.redelivered = true;
  const msg = e.msg;
  if (q.cfg.quorum) {
    quorumReturn(sim, q, e, consumer, viaReject, failed, multiple);
    return;
  }
  // classic queues count nothing visible, but a dead letter carries the rejects (4.3)
  if (failed) e.deliveryCount++;
  emitRequeued(sim, q, msg, consumer, viaReject, undefined, multiple);
  toReady(sim, q, e);
}

/**
 * The consumers stop and their channels close (the end of a scenario run): the broker takes back
 * what they still hold unacked, oldest first. Recorded (hold-left-unacked-returns): a classic queue
 * puts each back at its position; a quorum queue returns them counted, x-delivery-count 1 on 3.10.8
 * and on 4.3.6 too (a close is a failed delivery there, unlike a nack).
 */
export function closeConsumers(sim: SimState): void {
  for (const c of sim.consumers) {
    const q = c.queue;
    const i = q.consumers.indexOf(c);
    if (i >= 0) q.consumers.splice(i, 1);
    const list = c.unsettled;
    if (!list) continue;
    for (const d of list.splice(0) as Delivery[]) {
      settle(sim, d);
      // a stream keeps every message: a reader's unacked ones are not put back
      if (!q.cfg.stream) requeue(sim, q, d, c.id, false, true);
    }
  }
}

export function emitRequeued(
  sim: SimState,
  q: QueueState,
  msg: Msg,
  consumer: string,
  viaReject: boolean,
  delayMs: number | undefined,
  multiple = false,
): void {
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
    ...(multiple ? MULTIPLE : {}),
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
