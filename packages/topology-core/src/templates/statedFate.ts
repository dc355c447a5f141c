/**
 * The fate a template's explanation states, taken from a run on the design's own profile: a
 * template's text is written for the profile it was built for (quorum-delivery-limit: "lands in
 * jobs.dead" on 3.10), and on another profile the simulator may say otherwise (4.3 does not count
 * a basic.nack toward the delivery limit: the message never ends). The explanation never promises
 * what the chosen profile contradicts: it says what the run on that profile shows.
 */
import type { BrokerProfileId, Design } from '../model/design.js';
import { computeBudget } from '../budget/budget.js';
import { endingOf } from '../sim/messageOutcome.js';
import { buildTemplate } from './registry.js';
import type { Ending, MessageOutcome } from '../sim/messageOutcome.js';

export interface StatedFate {
  readonly profile: BrokerProfileId;
  /** the always-failing message's outcome on `profile`, and its words */
  readonly outcome: MessageOutcome;
  readonly text: string;
  /** the design comes from a template whose explanation promises another ending on this profile */
  readonly contradicts?: { readonly writtenFor: BrokerProfileId; readonly promised: Ending };
  /** one sentence for under the explanation */
  readonly sentence: string;
}

/** enough for every template's attempts through its waits and on to its parking place */
export const STATED_FATE_MAX_EVENTS = 20_000;

const sameEnding = (a: Ending, b: Ending): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The template's promise for an always-failing message, when the design was built from one. */
function promised(
  design: Design,
): { writtenFor: BrokerProfileId; ending: Ending; workConsumers: readonly string[] } | undefined {
  const origin = design.origin;
  if (!origin?.template) return undefined;
  const built = buildTemplate(origin.template, origin.params ?? {});
  if (!built.ok) return undefined;
  const always = built.template.documented.find((d) => d.failure.kind === 'always');
  return always
    ? { writtenFor: built.template.profile, ending: always.endsIn, workConsumers: built.template.workConsumers }
    : undefined;
}

/** `undefined`: nothing to run (no publisher, or the design does not simulate yet). */
export function statedFate(design: Design): StatedFate | undefined {
  if (design.publishers.length === 0) return undefined;
  const profile = design.profile ?? '3.10';
  const promise = promised(design);
  let outcome: MessageOutcome;
  let text: string;
  try {
    // bounded like the upgrade check's runs: a loop with no wait says it never ends in milliseconds, not seconds
    const b = computeBudget(
      design,
      { kind: 'always' },
      { maxEvents: STATED_FATE_MAX_EVENTS, ...(promise ? { workConsumers: promise.workConsumers } : {}) },
    );
    [outcome, text] = [b.outcome, b.outcomeText];
  } catch {
    return undefined;
  }
  const contradicts =
    promise && !sameEnding(promise.ending, endingOf(outcome))
      ? { writtenFor: promise.writtenFor, promised: promise.ending }
      : undefined;
  const why =
    contradicts && contradicts.writtenFor !== profile ? ` (it describes RabbitMQ ${contradicts.writtenFor})` : '';
  const sentence = contradicts
    ? `Not as the text above says on RabbitMQ ${profile}${why}: simulated on ${profile}, a message that always fails is ${text}.`
    : `Simulated on RabbitMQ ${profile}, a message that always fails: ${text}.`;
  return { profile, outcome, text, ...(contradicts ? { contradicts } : {}), sentence };
}
