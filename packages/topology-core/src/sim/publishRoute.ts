/**
 * Publishing and routing: a client publish (routing keys from CC/BCC, a client-set x-death),
 * routing through exchanges, and enqueueing with the queue's length limits (x-overflow) and TTL.
 */
import { pausedByNodeLoss } from './nodeLoss.js';
import type { AmqpValue } from '../model/definitions.js';
import type { PublishOrigin } from './events.js';
import type { XDeathEntry } from '../model/xDeath.js';
import type { Logical, Msg, MsgShape } from './types.js';
import type { RouteResult } from '../routing/route.js';
import { QEntry, type QueueState } from './queueState.js';
import { MsgRec, plainPublishShape } from './msgRecord.js';
import { parseXDeath } from '../model/xDeath.js';
import { NO_HEADERS, type ConsumerState, type SimState } from './simState.js';
import { holdDelayed } from './delayedHold.js';
import { utf8ByteLength } from '../model/names.js';
import { appendToStream } from './stream.js';
import { deadLetter } from './deadLetterRoute.js';
import { dropExpired, ensureTimer } from './expiry.js';
import { deliver } from './deliver.js';

/** a publish by a client (a step or a consumer's republish): confirms, returns, activity */
export function clientPublish(
  sim: SimState,
  logical: Logical,
  body: string,
  exchange: string,
  routingKey: string,
  rawHeaders: { readonly [k: string]: AmqpValue },
  expiration: string | undefined,
  mandatory: boolean,
  origin: PublishOrigin,
  keptXDeath: readonly XDeathEntry[] | undefined,
): void {
  const msgId = logical.id;
  sim.lastActivity = sim.t;
  sim.published++;
  // routing keys: [rk | CC | BCC]; BCC is removed from the message (rabbit_basic.erl L273-282, L354-365)
  let headers = rawHeaders;
  const cc = headers['CC'];
  const bcc = headers['BCC'];
  let keys: readonly string[];
  if (cc === undefined && bcc === undefined) {
    // one key: share one immutable array per routing key
    let k1 = sim.singleKeys.get(routingKey);
    if (!k1) {
      k1 = [routingKey];
      if (sim.singleKeys.size < 10000) sim.singleKeys.set(routingKey, k1);
    }
    keys = k1;
  } else {
    const ks: string[] = [routingKey];
    if (Array.isArray(cc)) for (const k of cc) if (typeof k === 'string') ks.push(k);
    if (Array.isArray(bcc)) for (const k of bcc) if (typeof k === 'string') ks.push(k);
    keys = ks;
  }
  if (bcc !== undefined) {
    const h = { ...headers };
    delete h['BCC'];
    headers = h;
  }
  // an x-death the client sends is part of the message (3.10 counts on from it)
  let xDeath = keptXDeath;
  let fromClient = keptXDeath !== undefined;
  const xd = headers['x-death'];
  if (xd !== undefined) {
    const h = { ...headers };
    delete h['x-death'];
    headers = h;
    const parsed = parseXDeath(xd);
    if (parsed) {
      xDeath = parsed;
      fromClient = true;
    }
  }
  const shape: MsgShape =
    headers === NO_HEADERS && xDeath === undefined
      ? plainPublishShape(exchange, keys, expiration, NO_HEADERS)
      : {
          exchange,
          routingKeys: keys,
          headers,
          xDeath,
          xDeathFromClient: fromClient,
          expiration,
          ccInKeys: true,
          deliveryCount: 0,
        };
  const msg: Msg = new MsgRec(logical, body, utf8ByteLength(body), shape);
  if (sim.wantEvents)
    sim.emit({
      kind: 'published',
      t: sim.t,
      seq: sim.seq++,
      msgId,
      body,
      exchange,
      routingKey,
      origin,
      headers: xDeath ? { ...headers, 'x-death': xDeath as unknown as AmqpValue } : headers,
      ...(expiration !== undefined ? { expiration } : {}),
      mandatory,
    });
  else sim.seq++;
  if (exchange !== '' && sim.index.exchanges.get(exchange)?.internal) {
    // basic.publish to an internal exchange is refused (ACCESS_REFUSED closes the channel)
    sim.hops++;
    sim.drop(msg, 'no-route', undefined, exchange);
    return;
  }
  routeAndEnqueue(sim, msg, exchange, mandatory, body, false);
}

/**
 * Route a message from `exchange` and enqueue it. `clientBody` is set for client publishes
 * (returns and nacks are reported); `delayDone` when a delayed exchange releases it.
 * Returns the queues that got it.
 */
export function routeAndEnqueue(
  sim: SimState,
  msg: Msg,
  exchange: string,
  mandatory: boolean,
  clientBody: string | undefined,
  delayDone: boolean,
): void {
  const r = sim.router.route(exchange, msg, delayDone ? sim.routeOptsDelayDone : sim.routeOpts);
  if (r.missingExchange) {
    sim.hops++;
    sim.drop(msg, 'no-route', undefined, exchange);
    return;
  }
  sim.hops += r.hops.length;
  emitRouted(sim, msg, r);
  if (r.delayed.length > 0) holdDelayed(sim, msg, r.delayed, false);
  const qs = r.queues;
  if (qs.length === 0) {
    if (r.delayed.length === 0) {
      if (sim.wantEvents)
        sim.emit({
          kind: 'unroutable',
          t: sim.t,
          seq: sim.seq++,
          msgId: msg.id,
          body: msg.body,
          exchange,
          routingKeys: msg.routingKeys,
        });
      else sim.seq++;
    }
    // mandatory: basic.return when no queue was targeted (a delayed exchange targets none at publish)
    if (mandatory && clientBody !== undefined) {
      sim.returned.push(clientBody);
      if (sim.wantEvents)
        sim.emit({
          kind: 'returned',
          t: sim.t,
          seq: sim.seq++,
          msgId: msg.id,
          body: msg.body,
          exchange,
          routingKey: msg.routingKeys[0] ?? '',
          replyCode: 312,
        });
      else sim.seq++;
    }
    if (r.delayed.length === 0) sim.drop(msg, 'no-route', undefined, exchange);
    return;
  }
  let nacked: string | undefined;
  for (let i = 0; i < qs.length; i++) {
    const q = sim.queues.get(qs[i] as string) as QueueState;
    if (!enqueue(sim, q, msg) && nacked === undefined) nacked = q.cfg.name;
  }
  if (nacked !== undefined && clientBody !== undefined) {
    sim.publishNacked.push(clientBody);
    if (sim.wantEvents)
      sim.emit({
        kind: 'publish-nacked',
        t: sim.t,
        seq: sim.seq++,
        msgId: msg.id,
        body: msg.body,
        queue: nacked,
        reason: 'overflow',
      });
    else sim.seq++;
  }
}

export function emitRouted(sim: SimState, msg: Msg, r: RouteResult): void {
  if (!sim.wantEvents) {
    sim.seq += r.hops.length;
    return;
  }
  for (const h of r.hops) {
    sim.emit({
      kind: 'routed',
      t: sim.t,
      seq: sim.seq++,
      msgId: msg.id,
      body: msg.body,
      exchange: h.exchange,
      routingKeys: msg.routingKeys,
      queues: h.queues,
      exchanges: h.exchanges,
      ...(h.alternateOf !== undefined ? { alternateOf: h.alternateOf } : {}),
    });
  }
}

/**
 * A quorum queue (rabbit_fifo) takes the publish that takes it over its limit and refuses the ones
 * after it (`is_over_limit` after each enqueue: ready messages > max-length, or bytes > max-length-bytes),
 * until it is back at 80 % of the limit (`is_below_soft_limit`). Seen on 3.10.8 and 4.3.6
 * (conformance quorum-reject-publish-over-by-one): max-length 1 holds two messages, and dead
 * letters go in over the limit.
 */
function isOverLimit(cfg: QueueState['cfg'], ready: number, bytes: number): boolean {
  return (cfg.maxLength !== undefined && ready > cfg.maxLength) || (cfg.maxBytes !== undefined && bytes > cfg.maxBytes);
}

function quorumRefuses(q: QueueState): boolean {
  const cfg = q.cfg;
  if (!q.overflowing) return false;
  const below = (max: number | undefined, n: number): boolean => max === undefined || n <= Math.trunc(max * 0.8);
  if (below(cfg.maxLength, q.readyCount) && below(cfg.maxBytes, q.readyBytes)) q.overflowing = false;
  return q.overflowing;
}

/**
 * false when the queue refused it (x-overflow reject-publish / reject-publish-dlx).
 * `fromQueue`: an at-most-once dead letter, written by the dead-lettering queue itself.
 */
export function enqueue(sim: SimState, q: QueueState, msg: Msg, fromQueue = false): boolean {
  sim.hops++;
  const cfg = q.cfg;
  if (cfg.stream) {
    appendToStream(sim, q, msg);
    return true;
  }
  // the refusal is the publishing channel's, told by the queue (queue_status reject_publish): an
  // at-most-once dead letter has no such channel and is taken (fuzz-found: quorum-reject-publish-over-by-one)
  if (cfg.quorum && cfg.overflow === 'reject-publish' && !fromQueue && quorumRefuses(q)) {
    sim.drop(msg, 'overflow', cfg.name, undefined);
    return false;
  }
  // reject-publish(-dlx): would this message take the queue over its limit? (will_overflow, only ready messages count)
  if (!cfg.quorum && (cfg.maxLength !== undefined || cfg.maxBytes !== undefined) && cfg.overflow !== 'drop-head') {
    const over =
      (cfg.maxLength !== undefined && q.readyCount + 1 > cfg.maxLength) ||
      (cfg.maxBytes !== undefined && q.readyBytes + msg.bytes > cfg.maxBytes);
    if (over) {
      if (cfg.overflow === 'reject-publish-dlx') deadLetter(sim, q, msg, 'maxlen', msg.deliveryCount);
      else sim.drop(msg, 'overflow', cfg.name, undefined);
      return false;
    }
  }
  let ttl = cfg.ttl;
  if (msg.expiration !== undefined) {
    const e = Number(msg.expiration);
    if (Number.isFinite(e) && (ttl === undefined || e < ttl)) ttl = e;
  }
  const expiresAt = ttl === undefined ? Infinity : sim.t + ttl;
  const pooled = sim.pool.pop();
  const entry = pooled ? pooled.reset(msg, expiresAt, q.nextPos++) : new QEntry(msg, expiresAt, q.nextPos++);
  // 4.3: a dead letter's failed deliveries go on counting here; a quorum queue says redelivered at once
  const carried = msg.deliveryCount;
  if (carried > 0) {
    entry.deliveryCount = carried;
    if (cfg.quorum) entry.redelivered = true;
  }
  sim.touchInFlight(1);
  if (cfg.quorum && cfg.overflow === 'reject-publish' && isOverLimit(cfg, q.readyCount + 1, q.readyBytes + msg.bytes))
    q.overflowing = true;
  if (sim.wantEvents)
    sim.emit({
      kind: 'enqueued',
      t: sim.t,
      seq: sim.seq++,
      msgId: msg.id,
      body: msg.body,
      queue: cfg.name,
      depth: q.readyCount + 1,
      ...(ttl !== undefined ? { expiresAt: entry.expiresAt } : {}),
    });
  else sim.seq++;
  // a consumer with spare capacity takes it at once (the queue is then empty): even with TTL 0
  if (q.readyCount === 0 && q.consumers.length > 0 && !(sim.outages.size > 0 && pausedByNodeLoss(sim, q))) {
    const c = q.pickConsumer();
    if (c) {
      deliver(sim, q, entry, c as ConsumerState);
      return true;
    }
  }
  // 4.3: a classic queue that stores a dead letter with failed deliveries delivers it redelivered later
  if (carried > 0) entry.redelivered = true;
  q.ready.push(entry);
  q.readyBytes += msg.bytes;
  dropHeadOverflow(sim, q);
  dropExpired(sim, q);
  ensureTimer(sim, q);
  sim.depthChanged(q);
  return true;
}

/**
 * How deep evictions may nest (an evicted head dead-lettered into a full drop-head queue evicts its
 * head, ...) before the rest waits for the heap at the same instant. Full drop-head queues that
 * dead-letter into each other evict each other without end when the cycle check spares them (a
 * rejection in their x-death): the broker does it asynchronously, a storm; here it runs until the
 * run's event bound (then as heap work, which ends the run truncated), never as one deep call stack.
 */
const MAX_NESTED_EVICTIONS = 32;

/** x-overflow drop-head: dead-letter (or drop) the oldest ready messages while over the limit */
export function dropHeadOverflow(sim: SimState, q: QueueState): void {
  const cfg = q.cfg;
  if (cfg.overflow !== 'drop-head' || (cfg.maxLength === undefined && cfg.maxBytes === undefined)) return;
  const over = (): boolean =>
    q.readyCount > 0 &&
    ((cfg.maxLength !== undefined && q.readyCount > cfg.maxLength) ||
      (cfg.maxBytes !== undefined && q.readyBytes > cfg.maxBytes));
  if (!over()) return;
  if (sim.overflowDepth >= MAX_NESTED_EVICTIONS) {
    sim.heap.push(sim.t, { k: 'overflow', q });
    return;
  }
  sim.overflowDepth++;
  try {
    while (over()) {
      // a queue that evicts into itself (through its DLX) stays over its limit: the run's event bound ends it
      if (sim.seq >= sim.maxEvents) {
        sim.heap.push(sim.t, { k: 'overflow', q });
        return;
      }
      const e = q.takeHead() as QEntry;
      const m = e.msg;
      const n = e.deliveryCount;
      sim.release(e);
      deadLetter(sim, q, m, 'maxlen', n);
    }
  } finally {
    sim.overflowDepth--;
  }
}
