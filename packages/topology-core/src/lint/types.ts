import type { BrokerProfileId, Design } from '../model/design.js';
import type { Topology } from '../model/definitions.js';
import type { NodeId } from '../model/nodeIds.js';
import type { OmittedField } from '../model/definitionFields.js';
import type { PluginPolicyKey } from '../io/pluginPolicyKeys.js';
import type { SemanticsProfile } from '../sim/profiles.js';

export type LintSeverity = 'error' | 'warning' | 'info';

export interface LintFinding {
  /** stable rule id, e.g. `requeue-without-limit` */
  readonly id: string;
  readonly severity: LintSeverity;
  readonly message: string;
  /** canvas node ids the finding concerns */
  readonly objects: readonly NodeId[];
  /** how to fix it */
  readonly fix: string;
  /** where it is configured, when the design was read from an application's configuration (design.sources) */
  readonly at?: { readonly file: string; readonly line: number };
}

export interface LintOptions {
  /** broker semantics to lint against; default the design's profile, else '3.10' */
  readonly profile?: BrokerProfileId;
  /** the topology currently deployed, to flag arguments RabbitMQ will not let change */
  readonly previous?: Topology;
  /** nodes of the target cluster (from the probe); more than 1 enables the cluster rules */
  readonly nodes?: number;
  /** a definitions file's queue and exchange fields left out (io's reader says which: model/definitionFields.ts) */
  readonly omittedFields?: readonly OmittedField[];
  /** a definitions file's policy keys a plugin defines (federation), dropped at import (io/pluginPolicyKeys.ts) */
  readonly pluginPolicyKeys?: readonly PluginPolicyKey[];
  /** the target broker's enabled plugins (`rabbitmq_delayed_message_exchange`, ...); undefined: not known */
  readonly plugins?: readonly string[];
}

export interface LintContext {
  readonly design: Design;
  readonly profile: BrokerProfileId;
  /** what the profile's broker does (sim/profiles.ts): rules ask it, never the profile's name */
  readonly semantics: SemanticsProfile;
  readonly previous?: Topology;
  /** true for a definitions file: no consumers are known */
  readonly consumersKnown: boolean;
  /** nodes of the target cluster, when known */
  readonly nodes?: number;
  /** a definitions file's queue and exchange fields left out (empty for a design) */
  readonly omittedFields: readonly OmittedField[];
  /** a definitions file's plugin policy keys, dropped at import (empty for a design) */
  readonly pluginPolicyKeys: readonly PluginPolicyKey[];
  /** the target broker's enabled plugins; undefined: not known */
  readonly plugins?: readonly string[];
}

/** One rule, with its docs (lint/defineRule.ts builds it; rules.ts registers it). */
export interface LintRule {
  /** stable id, e.g. `requeue-without-limit` */
  readonly id: string;
  readonly title: string;
  /** what the rule finds and why it matters (SARIF's rule table, --help) */
  readonly description: string;
  /** the level a finding usually has (some findings are raised or lowered by context) */
  readonly level: LintSeverity;
  /** how to fix what it finds */
  readonly help: string;
  readonly check: (ctx: LintContext, flow: import('./flow.js').Flow) => LintFinding[];
}
