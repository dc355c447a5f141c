/**
 * Where one message ends, in the words prove-app compares: the simulator's outcome on one side, the
 * broker's end state on the other. `queue:NAME` rests there; `held:NAME` delivered and never settled;
 * `acked` processed; `discarded` acked by an application that gave up (the message is gone);
 * `dropped` gone without an ack (rejected with nowhere to go, expired, over a limit); `cycling`
 * still going round when the watch stopped; `never-consumes` the listener never consumed (its queue
 * was refused), so no attempt was made.
 */
import type { MessageOutcome } from '../sim/messageOutcome.js';

export type ChannelEnd = string;

/** the listener's queue was never declared (the broker refused it): nothing was consumed */
export const NEVER_CONSUMES: ChannelEnd = 'never-consumes';
/** import-app cannot say where a failing message ends (the code deciding it is not read): a failure to predict */
export const UNKNOWN_END: ChannelEnd = 'unknown';

/** The simulator's outcome as an end (an outcome kind this does not know is named by its kind). */
export function endOfOutcome(o: MessageOutcome | { readonly kind: string }, queue: string): ChannelEnd {
  const known = o as MessageOutcome;
  switch (known.kind) {
    case 'acked':
      return 'acked';
    case 'parked':
      return `queue:${known.queue}`;
    case 'dropped':
    case 'expired':
    case 'limit':
      return 'dropped';
    case 'moving':
      return 'cycling';
    case 'held':
      return `held:${queue}`;
    default:
      return o.kind;
  }
}

/** What the broker and the listener saw when the watch stopped. */
export interface EndFacts {
  /** per queue of the vhost: messages ready and unacked */
  readonly depths: readonly { readonly queue: string; readonly ready: number; readonly unacked: number }[];
  /** messages clients published in the vhost over the run (the harness's one, the framework's republishes) */
  readonly publishes: number;
  /** acks the broker counted over the run */
  readonly acks: number;
  /** the listener's last attempt succeeded */
  readonly lastSucceeded: boolean;
  /** attempts were still coming when the watch stopped (over the attempt cap or the time limit) */
  readonly stillGoing: boolean;
}

/**
 * The observed end, from the broker's state (the caller leaves out the framework's plumbing queues).
 * A message that is gone was dropped when a published copy was neither acked nor still resting:
 * every copy a client publishes ends acked, dropped (rejected with nowhere to go, expired, over a
 * limit) or dead-lettered into another queue, where it counts again; requeues end nothing.
 */
export function observedEnd(f: EndFacts): ChannelEnd {
  if (f.stillGoing) return 'cycling';
  const resting = f.depths.find((d) => d.ready > 0);
  if (resting) return `queue:${resting.queue}`;
  const held = f.depths.find((d) => d.unacked > 0);
  if (held) return `held:${held.queue}`;
  if (f.publishes > f.acks) return 'dropped';
  return f.lastSucceeded ? 'acked' : 'discarded';
}
