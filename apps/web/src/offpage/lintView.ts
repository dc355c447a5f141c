/**
 * A design's lint as the web shows it: the core's findings normalised, and the worst severity per
 * node. Pure (no store, no React): the page and the lint worker (lintWorker.ts) run the same function.
 */
import { lintDesign, type LintFinding } from '@retry-studio/topology-core/lint';
import {
  describeIssue,
  issueSubject,
  validateDesign,
  type Design,
  type ValidationIssue,
} from '@retry-studio/topology-core/model';
import type { Severity } from '../graph/flowTypes';

/** A lint finding as the web shows it (normalised from the core's shape). */
export interface Finding {
  rule: string;
  severity: Severity;
  message: string;
  nodes: string[];
  fix?: string;
}

export interface LintView {
  available: boolean;
  findings: Finding[];
  byNode: ReadonlyMap<string, { severity: Severity; count: number }>;
  /** a big design's lint is still running in the worker (the findings are none yet, or the previous version's) */
  pending?: boolean;
}

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

/** `nodes`: the probed broker's cluster size, so the cluster rules apply */
export function lintFindings(design: Design, nodes?: number): Finding[] {
  let raw: readonly LintFinding[];
  try {
    raw = lintDesign(design, nodes !== undefined ? { nodes } : {});
  } catch {
    // a half-edited design can trip a rule; the inspector's validation says what is wrong
    return [];
  }
  return raw.map((f) => ({
    rule: f.id,
    severity: f.severity === 'error' ? 'error' : f.severity === 'info' ? 'info' : 'warning',
    message: f.message,
    nodes: [...f.objects],
    ...(f.fix !== undefined ? { fix: f.fix } : {}),
  }));
}

/** the view of a list of findings: the worst severity and the count per node */
export function viewOf(findings: Finding[]): LintView {
  const byNode = new Map<string, { severity: Severity; count: number }>();
  for (const f of findings)
    for (const n of f.nodes) {
      const prev = byNode.get(n);
      byNode.set(n, {
        severity: !prev || RANK[f.severity] > RANK[prev.severity] ? f.severity : prev.severity,
        count: (prev?.count ?? 0) + 1,
      });
    }
  return { available: true, findings, byNode };
}

/** an invalid value as a finding on its object; the validation code is the rule (`ttl-range`: the trap lint names in a file) */
function invalidFinding(design: Design, i: ValidationIssue, message: string): Finding {
  const node = issueSubject(design, i.path)?.node;
  return { rule: i.code, severity: 'error', message, nodes: node ? [node] : [] };
}

/** the design's validation, never throwing (a design being edited may be half-formed) */
function validationOf(design: Design): DesignValidation {
  try {
    const r = validateDesign(design);
    return { errors: r.errors, warnings: r.warnings };
  } catch {
    return { errors: [], warnings: [] };
  }
}

/** the design's validation errors as findings, named by object (`wait.q: x-message-ttl must be ...`) */
export function validationFindings(
  design: Design,
  errors: readonly ValidationIssue[] = validationOf(design).errors,
): Finding[] {
  return errors.map((i) => invalidFinding(design, i, describeIssue(design, i)));
}

/** the edits held back because they failed validation (their messages already name the object) */
export function heldFindings(design: Design, held: readonly ValidationIssue[]): Finding[] {
  return held.map((i) => invalidFinding(design, i, `${i.message} (not stored: the design keeps its last valid value)`));
}

/** Lint findings plus the invalid values (listed first), with the worst severity per node. */
export function withInvalid(view: LintView, invalid: readonly Finding[]): LintView {
  if (!invalid.length) return view;
  const byNode = new Map(view.byNode);
  for (const f of invalid)
    for (const n of f.nodes) byNode.set(n, { severity: 'error', count: (byNode.get(n)?.count ?? 0) + 1 });
  return { ...view, findings: [...invalid, ...view.findings], byNode };
}

/** a design's validation issues (the inspector's fields and summary read them) */
export interface DesignValidation {
  readonly errors: readonly ValidationIssue[];
  readonly warnings: readonly ValidationIssue[];
}

/**
 * What the worker answers for a big design: lint's findings, the validation errors as findings, and the
 * validation itself (the inspector validated a 10,000-node design on the page: 140 ms of an import's first render)
 */
export interface DesignLint {
  lint: Finding[];
  invalid: Finding[];
  validation: DesignValidation;
}

export function designLint(design: Design, nodes?: number): DesignLint {
  const validation = validationOf(design);
  return { lint: lintFindings(design, nodes), invalid: validationFindings(design, validation.errors), validation };
}

/**
 * Designs this big are linted in the worker: a 5,000-queue file's lint held the page for 0.7-0.8 s
 * (issue 41: no task over 200 ms). Counted in topology objects, what lint's time grows with.
 */
export const LINT_IN_WORKER_MIN = 1500;

export function lintSize(design: Design): number {
  const t = design.topology;
  return t.queues.length + t.exchanges.length + t.bindings.length + design.consumers.length + design.publishers.length;
}
