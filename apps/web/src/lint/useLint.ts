import { useMemo } from 'react';
import { lintDesign, type LintFinding } from '@retry-studio/topology-core/lint';
import {
  describeIssue,
  issueSubject,
  validateDesign,
  type Design,
  type ValidationIssue,
} from '@retry-studio/topology-core/model';
import { useApp } from '../store/store';
import { heldFor, useHeldEdits } from '../store/heldEdits';
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
}

const RANK: Record<Severity, number> = { error: 3, warning: 2, info: 1 };

/** the last design linted: the canvas, the lint tab, the inspector's summary and the app bar share one run */
let last: { design: Design; nodes: number | undefined; view: LintView } | undefined;

/** `nodes`: the probed broker's cluster size, so the cluster rules apply */
export function lintOf(design: Design, nodes?: number): LintView {
  if (last && last.design === design && last.nodes === nodes) return last.view;
  const view = lintNow(design, nodes);
  last = { design, nodes, view };
  return view;
}

function lintNow(design: Design, nodes?: number): LintView {
  let raw: readonly LintFinding[];
  try {
    raw = lintDesign(design, nodes !== undefined ? { nodes } : {});
  } catch {
    // a half-edited design can trip a rule; the inspector's validation says what is wrong
    return { available: true, findings: [], byNode: new Map() };
  }
  const findings: Finding[] = raw.map((f) => ({
    rule: f.id,
    severity: f.severity === 'error' ? 'error' : f.severity === 'info' ? 'info' : 'warning',
    message: f.message,
    nodes: [...f.objects],
    fix: f.fix,
  }));
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

/**
 * Invalid values as findings, named by object (`wait.q: x-message-ttl must be ...`): the design's
 * validation errors, and the edits held back because they failed it (`held`: their messages
 * already name the object). Listed first in Lint and marked on their nodes.
 */
export function invalidFindings(design: Design, held: readonly ValidationIssue[] = []): Finding[] {
  let errors: readonly ValidationIssue[];
  try {
    errors = validateDesign(design).errors;
  } catch {
    errors = [];
  }
  const finding = (i: ValidationIssue, message: string): Finding => {
    const node = issueSubject(design, i.path)?.node;
    // the validation code as the rule (`ttl-range`, `dl-routing-key-without-dlx`): the same trap lint names when a file holds it
    return { rule: i.code, severity: 'error', message, nodes: node ? [node] : [] };
  };
  return [
    ...held.map((i) => finding(i, `${i.message} (not stored: the design keeps its last valid value)`)),
    ...errors.map((i) => finding(i, describeIssue(design, i))),
  ];
}

/** Lint findings plus the invalid values, with the worst severity per node. */
export function withInvalid(view: LintView, invalid: readonly Finding[]): LintView {
  if (!invalid.length) return view;
  const byNode = new Map(view.byNode);
  for (const f of invalid)
    for (const n of f.nodes) byNode.set(n, { severity: 'error', count: (byNode.get(n)?.count ?? 0) + 1 });
  return { ...view, findings: [...invalid, ...view.findings], byNode };
}

/** the last view computed, shared by every caller (the canvas and the Lint tab): a 5,000-node design's lint took a second, twice */
let shared: { inputs: readonly unknown[]; view: LintView } | null = null;

export function useLintFindings(): LintView {
  const design = useApp((s) => s.design);
  const nodes = useApp((s) => s.brokerNodes);
  const docId = useApp((s) => s.docId);
  const held = useHeldEdits((s) => s.held);
  return useMemo(() => {
    const inputs = [design, nodes, held, docId];
    if (shared && shared.inputs.every((v, i) => v === inputs[i])) return shared.view;
    const view = withInvalid(
      lintOf(design, nodes),
      invalidFindings(
        design,
        heldFor(held, docId, design).flatMap((h) => h.issues),
      ),
    );
    shared = { inputs, view };
    return view;
  }, [design, nodes, held, docId]);
}
