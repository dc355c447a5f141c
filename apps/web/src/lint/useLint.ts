import { useMemo } from 'react';
import {
  describeIssue,
  issueSubject,
  validateDesign,
  type Design,
  type ValidationIssue,
} from '@retry-studio/topology-core/model';
import { useApp } from '../store/store';
import { heldFor, useHeldEdits } from '../store/heldEdits';
import { lintFindings, viewOf, type Finding, type LintView } from '../offpage/lintView';
import { lintJobs, offPageSized, useOffPageResults } from '../offpage/offPage';

export type { Finding, LintView } from '../offpage/lintView';

/** the last design linted: the canvas, the lint tab, the inspector's summary and the app bar share one run */
let last: { design: Design; nodes: number | undefined; view: LintView } | undefined;

/** `nodes`: the probed broker's cluster size, so the cluster rules apply. Runs here, now, whatever the size. */
export function lintOf(design: Design, nodes?: number): LintView {
  if (last && last.design === design && last.nodes === nodes) return last.view;
  const known = lintJobs.get(design, nodes);
  const view = viewOf(known ?? lintFindings(design, nodes));
  last = { design, nodes, view };
  return view;
}

/** the view last shown per open design: while a big design's next version is linted, its findings stay up, marked pending */
let shown: { docId: string; view: LintView } | undefined;

/** A big design's lint from the worker (pending until it answers), a small one's at once. */
function lintFor(design: Design, nodes: number | undefined, docId: string): LintView {
  if (!offPageSized(design) || lintJobs.get(design, nodes)) return lintOf(design, nodes);
  lintJobs.request(design, nodes);
  const stale = shown?.docId === docId ? shown.view.findings : [];
  return { ...viewOf(stale), pending: true };
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
  const arrived = useOffPageResults();
  return useMemo(() => {
    const inputs = [design, nodes, held, docId, arrived];
    if (shared && shared.inputs.every((v, i) => v === inputs[i])) return shared.view;
    const base = lintFor(design, nodes, docId);
    const view = withInvalid(
      base,
      invalidFindings(
        design,
        heldFor(held, docId, design).flatMap((h) => h.issues),
      ),
    );
    if (!base.pending) shown = { docId, view: base };
    shared = { inputs, view };
    return view;
  }, [design, nodes, held, docId, arrived]);
}
