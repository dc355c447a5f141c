import { useMemo, useState } from 'react';
import { groupFindings, objectList, SHOWN_OBJECTS } from '@retry-studio/topology-core/lint';
import { env } from '../commands/env';
import { useApp } from '../store/store';
import { useLintFindings } from '../lint/useLint';
import { UpgradePanel } from './UpgradePanel';

const TONE = {
  error: 'border-red-500 text-red-300',
  warning: 'border-amber-500 text-amber-200',
  info: 'border-sky-500 text-sky-200',
} as const;

/** The Lint tab: the design's lint findings, or the Upgrade view (what changes on another broker line). */
export function LintPanel() {
  const [view, setView] = useState<'findings' | 'upgrade'>('findings');
  return (
    <div>
      <div role="tablist" aria-label="Lint view" className="flex gap-1 border-b border-slate-800 px-2 pt-2 text-xs">
        {(['findings', 'upgrade'] as const).map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            aria-selected={view === v}
            data-testid={`lint-view-${v}`}
            onClick={() => setView(v)}
            className={`rounded-t px-2 py-1 ${view === v ? 'bg-slate-800 text-slate-100' : 'text-slate-400 hover:text-slate-200'}`}
          >
            {v === 'findings' ? 'Findings' : 'Upgrade'}
          </button>
        ))}
      </div>
      {view === 'findings' ? <LintFindings /> : <UpgradePanel />}
    </div>
  );
}

function LintFindings() {
  const lint = useLintFindings();
  // grouped like the CLI's lint text (the core's groupFindings): 1,000 findings of one rule are one card with a count
  const groups = useMemo(
    () => groupFindings(lint.findings.map((f) => ({ ...f, id: f.rule, objects: f.nodes }))),
    [lint.findings],
  );
  if (!lint.available)
    return (
      <div className="p-3 text-xs text-slate-400">The retry linter is not in this build of topology-core yet.</div>
    );
  if (lint.pending && !lint.findings.length)
    return (
      <div data-testid="lint-pending" className="p-3 text-xs text-slate-400">
        Linting this design off the page (a big design takes a moment)…
      </div>
    );
  if (!lint.findings.length)
    return (
      <div data-testid="lint-panel" className="p-3 text-xs text-emerald-400">
        No findings: none of the known retry traps applies to this design.
      </div>
    );
  return (
    <ul data-testid="lint-panel" className="space-y-2 p-2">
      {groups.map((g, i) => {
        const f = g.kind === 'single' ? g.finding : g.first;
        const nodes = g.kind === 'single' ? g.finding.nodes : g.objects;
        return (
          <li key={i}>
            <button
              type="button"
              data-testid="lint-finding"
              data-rule={f.rule}
              data-count={g.kind === 'group' ? g.findings.length : 1}
              title={nodes.length ? 'Select its objects and bring them into view' : undefined}
              onClick={() => {
                useApp.getState().select([...nodes]);
                env.canvas?.focus(nodes);
              }}
              className={`w-full rounded border-l-4 bg-slate-800/70 p-2 text-left text-xs hover:bg-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400 ${TONE[f.severity]}`}
            >
              <div className="mb-0.5 flex items-center justify-between gap-2">
                <span className="font-mono text-[10px]">{f.rule}</span>
                <span className="text-[10px] uppercase">
                  {g.kind === 'group' && (
                    <span
                      data-testid="lint-group-count"
                      className="mr-1 rounded bg-slate-700 px-1 normal-case text-slate-100"
                    >
                      {g.findings.length} findings
                    </span>
                  )}
                  {f.severity}
                </span>
              </div>
              <div className="text-slate-200">
                {g.kind === 'group' && <span className="text-slate-400">The first: </span>}
                {f.message}
              </div>
              {f.fix && <div className="mt-1 text-[11px] text-slate-400">Fix: {f.fix}</div>}
              {nodes.length > 0 && (
                <div className="mt-1 text-[10px] text-slate-500 [overflow-wrap:anywhere]">
                  {nodes.length > SHOWN_OBJECTS ? `${nodes.length} objects: ` : ''}
                  {objectList(nodes)}
                </div>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
