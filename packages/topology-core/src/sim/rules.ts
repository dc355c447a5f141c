/**
 * The simulator's rules, wired in one place. The rules are mutually recursive by nature: a dead
 * letter enqueued into a full queue is dead-lettered again, an enqueue delivers at once to an idle
 * consumer, a settle can expire the head, a republish publishes. So a rule file (publishRoute,
 * deliverAck, deadLetterRoute, expiry, quorum, stream) never imports another rule file: it calls the
 * others through `sim.rules`, and this file, the only one that imports them all, fills that table.
 * Imports point one way: rule files -> simState and below; rules.ts -> rule files; simulator.ts -> rules.ts.
 */
import { appendToStream, dispatchStream, streamHeaders } from './stream.js';
import { clientPublish, dropHeadOverflow, emitRouted, enqueue } from './publishRoute.js';
import { deadLetter } from './deadLetterRoute.js';
import { dispatch, deliver, emitRequeued, toReady } from './deliverAck.js';
import { dropExpired, ensureTimer } from './expiry.js';
import { deliveredHeaders, quorumReturn } from './quorum.js';

/** The entry points one rule file calls in another (one frozen object: the calls stay monomorphic). */
export const SIM_RULES = Object.freeze({
  appendToStream,
  clientPublish,
  deadLetter,
  deliver,
  deliveredHeaders,
  dispatch,
  dispatchStream,
  dropExpired,
  dropHeadOverflow,
  emitRequeued,
  emitRouted,
  enqueue,
  ensureTimer,
  quorumReturn,
  streamHeaders,
  toReady,
});

export type SimRules = typeof SIM_RULES;
