import { useMemo } from 'react';
import type { Design, ValidationIssue } from '@retry-studio/topology-core/model';
import { useApp } from '../store/store';
import { heldFor, useHeldEdits } from '../store/heldEdits';
import {
  heldFindings,
  lintFindings,
  validationFindings,
  viewOf,
  withInvalid,
  type Finding,
  type LintView,
} from '../offpage/lintView';
import { lintJobs, offPageSized, useOffPageResults } from '../offpage/offPage';

export type { Finding, LintView } from '../offpage/lintView';
export { withInvalid } from '../offpage/lintView';

/** the last design linted: the canvas, the lint tab, the inspector's summary and the app bar share one run */
let last: { design: Design; nodes: number | undefined; view: LintView } | undefined;

/** `nodes`: the probed broker's cluster size, so the cluster rules apply. Runs here, now, whatever the size. */
export function lintOf(design: Design, nodes?: number): LintView {
  if (last && last.design === design && last.nodes === nodes) return last.view;
  const view = viewOf(lintJobs.get(design, nodes)?.lint ?? lintFindings(design, nodes));
  last = { design, nodes, view };
  return view;
}

/**
 * Invalid values as findings, named by object (`wait.q: x-message-ttl must be ...`): the edits held
 * back because they failed validation, then the design's validation errors. Listed first in Lint and
 * marked on their nodes.
 */
export function invalidFindings(design: Design, held: readonly ValidationIssue[] = []): Finding[] {
  return [...heldFindings(design, held), ...validationFindings(design)];
}

/** the view last shown per open design: while a big design's next version is linted, its findings stay up, marked pending */
let shown: { docId: string; view: LintView } | undefined;

/** A big design's lint and validation errors from the worker (pending until it answers); a small one's lint, here. */
function lintFor(design: Design, nodes: number | undefined, docId: string): LintView {
  if (!offPageSized(design)) return lintOf(design, nodes);
  const known = lintJobs.get(design, nodes);
  if (known) return withInvalid(viewOf(known.lint), known.invalid);
  lintJobs.request(design, nodes);
  return { ...viewOf(shown?.docId === docId ? shown.view.findings : []), pending: true };
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
    const heldBack = heldFor(held, docId, design).flatMap((h) => h.issues);
    // a big design's validation errors came with its lint, from the worker
    const view = withInvalid(
      base,
      offPageSized(design) ? heldFindings(design, heldBack) : invalidFindings(design, heldBack),
    );
    if (!base.pending) shown = { docId, view: base };
    shared = { inputs, view };
    return view;
  }, [design, nodes, held, docId, arrived]);
}
