import { useMemo } from 'react';
import type { Design } from '@retry-studio/topology-core';
import { useApp } from '../store/store';
import { coreFn } from '../core/bridge';
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

type RawFinding = Record<string, unknown>;

function normalise(f: RawFinding): Finding {
  const sev = String(f.severity ?? 'warning');
  const nodes = (f.nodes ?? f.nodeIds ?? f.objects ?? []) as unknown[];
  return {
    rule: String(f.rule ?? f.id ?? f.ruleId ?? 'lint'),
    severity: sev === 'error' ? 'error' : sev === 'info' ? 'info' : 'warning',
    message: String(f.message ?? ''),
    nodes: nodes.filter((n): n is string => typeof n === 'string'),
    ...(f.fix || f.fixHint || f.hint ? { fix: String(f.fix ?? f.fixHint ?? f.hint) } : {}),
  };
}

export function lintOf(design: Design): LintView {
  const lint = coreFn<(d: Design) => unknown>('lintDesign');
  if (!lint) return { available: false, findings: [], byNode: new Map() };
  let raw: unknown;
  try {
    raw = lint(design);
  } catch {
    return { available: true, findings: [], byNode: new Map() };
  }
  const list = (Array.isArray(raw) ? raw : ((raw as { findings?: unknown[] })?.findings ?? [])) as RawFinding[];
  const findings = list.map(normalise);
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
  return useMemo(() => lintOf(design), [design]);
}
