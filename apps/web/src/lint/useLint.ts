import { useMemo } from 'react';
import { lintDesign, type Design, type LintFinding } from '@retry-studio/topology-core';
import { useApp } from '../store/store';
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

/** `nodes`: the probed broker's cluster size, so the cluster rules apply */
export function lintOf(design: Design, nodes?: number): LintView {
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

export function useLintFindings(): LintView {
  const design = useApp((s) => s.design);
  const nodes = useApp((s) => s.brokerNodes);
  return useMemo(() => lintOf(design, nodes), [design, nodes]);
}
