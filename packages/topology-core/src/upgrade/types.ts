import type { MessageOutcome } from '../sim/messageOutcome.js';
/**
 * What an upgrade check reports: one finding per object the target broker treats differently
 * (a declaration refused, ignored, deprecated or given a new default) and one per queue where a
 * message's fate changes under the target's semantics. Each finding cites where it comes from.
 */
import type { BrokerProfileId } from '../model/design.js';
import type { NodeId } from '../model/nodeIds.js';
import type { BudgetFailure } from '../budget/budget.js';
import type { SkippedBinding } from '../io/brokerObjects.js';
import type { OmittedField } from '../model/definitionFields.js';

/** Where a rule comes from: RabbitMQ's release notes, a scenario recorded on both brokers, or a measurement. */
export type UpgradeSource =
  | { readonly kind: 'release-notes'; readonly url: string }
  /** a retry-scenario/1 recorded on the real brokers: `path` relative to the repository or to ../shared */
  | { readonly kind: 'scenario'; readonly name: string; readonly path: string }
  /** measured on this project's brokers (../shared/reference/upgrade-3-to-4.md); the integration tests re-measure it */
  | { readonly kind: 'measured'; readonly where: string };

interface FindingBase {
  /** stable rule id, e.g. `classic-mirroring-policy` */
  readonly id: string;
  /** the object in one word or name (`policy ha-all`, `queue orders.q`) */
  readonly object: string;
  /** canvas nodes the finding concerns (for the web view) */
  readonly objects: readonly NodeId[];
  readonly message: string;
  readonly fix: string;
  readonly sources: readonly UpgradeSource[];
}

export type DeclarationFinding =
  /** the target refuses the declaration: `brokerWording` is what it answers */
  | (FindingBase & { readonly kind: 'refused'; readonly brokerWording: string })
  /** accepted and ignored: the setting has no effect any more */
  | (FindingBase & { readonly kind: 'ignored' })
  /** accepted, reported as a deprecated feature in use */
  | (FindingBase & { readonly kind: 'deprecated' })
  /** the same declaration gets a different default on the target */
  | (FindingBase & { readonly kind: 'default-changed' });

/** One message's fate under one failure model, summarised. */
export interface FateSummary {
  readonly attempts: number;
  readonly delaysMs: readonly number[];
  /** the failing message's outcome (sim/messageOutcome.ts) */
  readonly outcome: MessageOutcome;
  /** the outcome's words (sim/outcomeText.ts): `parked in orders.dlq`, `acked by worker at attempt 4`, `still moving ...` */
  readonly endsIn: string;
  /** every queue the message went through (repeats folded) */
  readonly path: readonly string[];
  /** the simulation was cut off: the message never settles */
  readonly unbounded: boolean;
}

export interface BehaviourFinding extends FindingBase {
  readonly kind: 'behaviour-changed';
  /** the queue where the message's fate is decided (the first queue where the two runs part) */
  readonly queue: string;
  /** the design publisher whose message was followed */
  readonly publisher: string;
  readonly failure: BudgetFailure;
  readonly before: FateSummary;
  readonly after: FateSummary;
}

export type UpgradeFinding = DeclarationFinding | BehaviourFinding;
export type UpgradeFindingKind = UpgradeFinding['kind'];

/** Refused declarations and changed fates fail the check (exit 1); the rest are notes. */
export function isBlocking(f: UpgradeFinding): boolean {
  return f.kind === 'refused' || f.kind === 'behaviour-changed';
}

export interface UpgradeOptions {
  readonly from: BrokerProfileId;
  readonly to: BrokerProfileId;
  /** failing-first-K for the behaviour runs (default 3) */
  readonly failFirst?: number;
  /** cut-off for messages that never settle, virtual ms (default the budget's 24 h; the event bound usually stops a loop first) */
  readonly maxTimeMs?: number;
  /** a definitions file's bindings whose ends it does not declare (the loader skipped them: io/brokerObjects.ts) */
  readonly skippedBindings?: readonly SkippedBinding[];
  /** a definitions file's queue and exchange fields left out (the loader filled in defaults: model/definitionFields.ts) */
  readonly omittedFields?: readonly OmittedField[];
}

export interface UpgradeReport {
  readonly from: BrokerProfileId;
  readonly to: BrokerProfileId;
  /** consumers were assumed (a definitions file has none): see lint/assumedConsumers.ts */
  readonly consumersAssumed: boolean;
  readonly findings: readonly UpgradeFinding[];
  /** true when a finding is blocking: the upgrade refuses a declaration or changes a fate */
  readonly blocking: boolean;
}
