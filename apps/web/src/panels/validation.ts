import { useMemo } from 'react';
import { validateDesign, type Design, type ValidationIssue } from '@retry-studio/topology-core/model';
import { useApp } from '../store/store';
import { parseNodeId } from '../model/nodeIds';
import { edgeIdOf, parseEdgeId } from '../model/edgeIds';
import { lintJobs, offPageSized, useOffPageResults } from '../offpage/offPage';

export interface Issues {
  errors: readonly ValidationIssue[];
  warnings: readonly ValidationIssue[];
}

const NONE_YET: Issues = { errors: [], warnings: [] };

/**
 * The open design's validation: here for a small design; a big one's comes with its lint from the worker
 * (offpage/), none until it answers (the summary says its lint is pending meanwhile).
 */
export function useValidation(): Issues {
  const design = useApp((s) => s.design);
  const nodes = useApp((s) => s.brokerNodes);
  const arrived = useOffPageResults();
  return useMemo(() => {
    if (offPageSized(design)) {
      const known = lintJobs.get(design, nodes);
      if (!known) lintJobs.request(design, nodes);
      return known?.validation ?? NONE_YET;
    }
    const r = validateDesign(design);
    return { errors: r.errors, warnings: r.warnings };
    // `arrived` changes when the worker answers
  }, [design, nodes, arrived]);
}

/** The JSON path of the object behind a node or edge id (`topology.queues[2]`, `consumers[0]`...). */
export function pathOf(design: Design, id: string): string | undefined {
  const n = parseNodeId(id);
  if (n) {
    const i =
      n.kind === 'exchange'
        ? design.topology.exchanges.findIndex((x) => x.name === n.key)
        : n.kind === 'queue'
          ? design.topology.queues.findIndex((q) => q.name === n.key)
          : n.kind === 'consumer'
            ? design.consumers.findIndex((c) => c.id === n.key)
            : design.publishers.findIndex((p) => p.id === n.key);
    if (i < 0) return undefined;
    const base = {
      exchange: 'topology.exchanges',
      queue: 'topology.queues',
      consumer: 'consumers',
      publisher: 'publishers',
    }[n.kind];
    return `${base}[${i}]`;
  }
  const e = parseEdgeId(id);
  if (e?.kind === 'binding') {
    const i = design.topology.bindings.findIndex((b) => edgeIdOf.binding(b) === id);
    return i < 0 ? undefined : `topology.bindings[${i}]`;
  }
  return undefined;
}

/** Issues at `path` or below it. */
export function issuesUnder(issues: readonly ValidationIssue[], path: string): ValidationIssue[] {
  return issues.filter((i) => i.path === path || i.path.startsWith(`${path}.`) || i.path.startsWith(`${path}[`));
}

/** Issues for one field: `base` + `.name`, or an argument `base.arguments.KEY` in either path form. */
export function fieldIssues(issues: readonly ValidationIssue[], base: string, field: string): ValidationIssue[] {
  const dotted = `${base}.${field}`;
  const argm = /^arguments\.(.+)$/.exec(field);
  const bracketed = argm ? `${base}.arguments[${JSON.stringify(argm[1])}]` : undefined;
  return issues.filter(
    (i) => i.path === dotted || i.path.startsWith(`${dotted}.`) || (bracketed && i.path === bracketed),
  );
}
