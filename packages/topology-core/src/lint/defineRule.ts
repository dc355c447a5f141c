/**
 * A lint rule is one object: its id, title, docs (what it finds, the level it usually reports at,
 * how to fix it) and its check, together in its file under rules/, registered once in rules.ts
 * (as templates are in templates/registry.ts). The check reports through `say`, which stamps the
 * rule's id on each finding: the id is written once.
 */
import type { NodeId } from '../model/nodeIds.js';
import type { Flow } from './flow.js';
import type { LintContext, LintFinding, LintRule, LintSeverity } from './types.js';

/** A finding of this rule: severity, message, the canvas objects it concerns, how to fix it. */
export type Say = (severity: LintSeverity, message: string, objects: readonly NodeId[], fix: string) => LintFinding;

export interface RuleSpec extends Omit<LintRule, 'check'> {
  readonly check: (ctx: LintContext, flow: Flow, say: Say) => LintFinding[];
}

export function defineRule(spec: RuleSpec): LintRule {
  const say: Say = (severity, message, objects, fix) => ({ id: spec.id, severity, message, objects, fix });
  return { ...spec, check: (ctx, flow) => spec.check(ctx, flow, say) };
}
