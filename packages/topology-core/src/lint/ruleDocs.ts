/**
 * What each lint rule is about, for reports that describe rules apart from their findings
 * (SARIF's rule table, `--help`): read from the rules themselves (each rule is one object with its
 * docs: lint/defineRule.ts), never written a second time.
 */
import { RULES } from './rules.js';
import type { LintSeverity } from './types.js';

export interface LintRuleDoc {
  /** what the rule finds and why it matters */
  readonly description: string;
  /** the level a finding usually has (some findings are raised or lowered by context) */
  readonly level: LintSeverity;
  /** how to fix what it finds */
  readonly help: string;
}

export const RULE_DOCS: Readonly<Record<string, LintRuleDoc>> = Object.fromEntries(
  RULES.map((r) => [r.id, { description: r.description, level: r.level, help: r.help }]),
);

/** The docs of a rule, or a neutral one for an id no rule has. */
export function ruleDoc(id: string, title: string): LintRuleDoc {
  return RULE_DOCS[id] ?? { description: title, level: 'warning', help: "See the finding's fix." };
}
