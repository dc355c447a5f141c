/**
 * The simulator's rules are mutually recursive by nature: an enqueue delivers at once to an idle
 * consumer, a dead letter enqueued into a full queue is dead-lettered again, a quorum return
 * dispatches. The rule files are stacked so that each imports only the ones below it:
 *   stream -> deadLetterRoute -> expiry -> quorum -> deliver -> publishRoute -> deliverAck (top)
 * and the few calls that go up the stack (the recursion itself) go through `sim.rules`: this
 * table, filled here, the only file that imports the rules above. Imports point one way:
 * a rule file -> lower rule files and simState; rules.ts -> the rule files; simulator.ts -> rules.ts.
 */
import { emitRouted, enqueue } from './publishRoute.js';
import { deliver } from './deliver.js';
import { dispatch, emitRequeued, toReady } from './deliverAck.js';

/** The calls that go up the stack of rule files (one frozen object: the calls stay monomorphic). */
export const SIM_RULES = Object.freeze({
  /** stream: a reader takes the next offset */
  deliver,
  /** quorum: the end of a 4.3 delayed retry */
  dispatch,
  /** quorum: a return */
  emitRequeued,
  /** deadLetterRoute: the dead letter's routes */
  emitRouted,
  /** deadLetterRoute: the dead letter arrives at its target queues */
  enqueue,
  /** quorum: a returned entry is ready again */
  toReady,
});

export type SimRules = typeof SIM_RULES;
