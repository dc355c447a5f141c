/**
 * Dead-lettering from a queue: the DLX (missing, at-least-once retention), the dead letter
 * itself (deadLetter.ts), routing it, and the per-target cycle check.
 */
import type { DeathReason } from '../model/consumer.js';
import type { XDeathEntry } from '../model/xDeath.js';
import type { Msg } from './types.js';
import type { QueueState } from './queueState.js';
import { deadLetterMsg, isCycle, streamDropsDeadLetter } from './deadLetter.js';
import { MsgRec } from './msgRecord.js';
import type { SimState } from './simState.js';
import { holdDelayed } from './delayedHold.js';

/** `deliveryCount`: the failed deliveries the message had here (the dead letter carries them on 4.3) */
export function deadLetter(sim: SimState, q: QueueState, msg: Msg, reason: DeathReason, deliveryCount: number): void {
  const cfg = q.cfg;
  if (cfg.dlx === undefined) {
    sim.drop(msg, 'no-dlx', cfg.name, undefined);
    return;
  }
  if (cfg.dlx !== '' && !sim.index.exchanges.has(cfg.dlx)) {
    if (cfg.atLeastOnce)
      q.retained++; // kept and retried until the exchange exists (rabbit_fifo_dlx_worker.erl L296-345)
    else sim.drop(msg, 'missing-dlx', cfg.name, cfg.dlx);
    return;
  }
  const dl = deadLetterMsg(
    msg,
    cfg.name,
    reason,
    cfg.dlx,
    cfg.dlrk,
    sim.profile,
    sim.t,
    sim.profile.deadLetterCarriesDeliveryCount ? deliveryCount : 0,
  );
  if (sim.wantEvents)
    sim.emit({
      kind: 'dead-lettered',
      t: sim.t,
      seq: sim.seq++,
      msgId: msg.id,
      body: msg.body,
      queue: cfg.name,
      reason,
      exchange: cfg.dlx,
      routingKeys: dl.routingKeys,
      ...(dl.xDeath ? { xDeath: dl.xDeath } : {}),
    });
  else sim.seq++;
  const r = sim.router.route(cfg.dlx, dl, sim.routeOpts);
  sim.hops += r.hops.length;
  sim.rules.emitRouted(sim, dl, r);
  if (r.delayed.length > 0) holdDelayed(sim, dl, r.delayed, sim.profile.deadLetterDelayNegated);
  const qs = r.queues;
  if (qs.length === 0) {
    if (r.delayed.length > 0) return;
    if (cfg.atLeastOnce) q.retained++;
    else sim.drop(dl, 'no-route', cfg.name, cfg.dlx);
    return;
  }
  const deaths = dl.xDeath as readonly XDeathEntry[];
  let delivered = 0;
  for (let i = 0; i < qs.length; i++) {
    const name = qs[i] as string;
    // a fully automatic cycle is dropped for that target only (rabbit_dead_letter.erl L197-246)
    if (isCycle(reason, name, deaths)) {
      if (!cfg.atLeastOnce) sim.drop(dl, 'cycle', name, cfg.dlx);
      continue;
    }
    const target = sim.queues.get(name) as QueueState;
    if (target.cfg.stream) {
      if (streamDropsDeadLetter(sim.profile, target.cfg, cfg)) {
        sim.drop(dl, 'stream-dead-letter', name, cfg.dlx);
        continue;
      }
      delivered++;
      sim.rules.enqueue(
        sim,
        target,
        sim.profile.streamKeepsDeadLetterExpiration && msg.expiration !== undefined
          ? withExpiration(dl, msg.expiration)
          : dl,
      );
      continue;
    }
    delivered++;
    sim.rules.enqueue(sim, target, dl, !cfg.atLeastOnce);
  }
  // at-least-once keeps a message whose only targets are cycles (rabbit_fifo_dlx_integration_SUITE `cycle`)
  if (delivered === 0 && cfg.atLeastOnce) q.retained++;
}

/** the dead letter as a stream stores it on 4.x: with the expiration it died with (a rare path: its own shape) */
function withExpiration(dl: Msg, expiration: string): Msg {
  const shape = {
    exchange: dl.exchange,
    routingKeys: dl.routingKeys,
    headers: dl.headers,
    xDeath: dl.xDeath,
    xDeathFromClient: dl.xDeathFromClient,
    expiration,
    ccInKeys: dl.ccInKeys,
    deliveryCount: dl.deliveryCount,
  };
  return new MsgRec(dl.logical, dl.body, dl.bytes, shape);
}
