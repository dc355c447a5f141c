import { useEffect, useMemo } from 'react';
import { describeIssue, type Design, type ValidationIssue } from '@retry-studio/topology-core/model';
import { statedFate } from '@retry-studio/topology-core/templates';
import { useApp } from '../store/store';
import { useLintFindings } from '../lint/useLint';
import { lintVerdict, type LintVerdict } from '../lint/lintVerdict';

const VERDICT_TONE: Record<LintVerdict['tone'], string> = {
  error: 'text-red-300',
  warning: 'text-amber-300',
  info: 'text-sky-300',
  pending: 'text-slate-400',
  clean: 'text-emerald-400',
};
import { fateJobs, offPageSized, useOffPageResults } from '../offpage/offPage';

/**
 * Validation, lint and the last simulation in one summary: "valid" only means the broker takes
 * it, so it is never said alone beside lint errors; the outcomes are the core's (runSimulation).
 */
export function DesignSummary({ design, issues }: { design: Design; issues: readonly ValidationIssue[] }) {
  const lint = useLintFindings();
  const outcomes = useApp((s) => s.simOutcomes);
  const simulated = useApp((s) => s.simEvents !== null);
  if (issues.length)
    return (
      <div data-testid="design-summary">
        <div className="mb-1 font-semibold text-red-300">{issues.length} validation error(s)</div>
        <ul className="space-y-0.5">
          {issues.slice(0, 12).map((i, k) => (
            <li key={k} className="font-mono text-[10px] text-red-300">
              {describeIssue(design, i)}
            </li>
          ))}
        </ul>
      </div>
    );
  const verdict = lintVerdict(lint.findings, lint.pending);
  const fates = new Map<string, number>();
  for (const o of Object.values(outcomes)) fates.set(o.text, (fates.get(o.text) ?? 0) + 1);
  return (
    <div data-testid="design-summary" className="space-y-1">
      <p data-testid="lint-verdict" data-tone={verdict.tone} className={VERDICT_TONE[verdict.tone]}>
        {verdict.text}
      </p>
      {simulated && fates.size > 0 && (
        <div data-testid="summary-outcomes">
          <div className="font-semibold text-slate-400">Last simulation</div>
          <ul className="space-y-0.5">
            {[...fates].slice(0, 6).map(([text, n]) => (
              <li key={text} className="text-[11px] text-slate-300">
                {n} message{n === 1 ? '' : 's'}: {text}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** What a message that always fails does on the chosen profile (simulated): the description never promises what the profile contradicts. */
export function StatedFateLine() {
  const design = useApp((s) => s.design);
  const { topology, consumers, publishers, profile, origin } = design;
  // the fate depends on these parts only: moving a node on the canvas runs nothing
  const parts = useMemo(() => design, [topology, consumers, publishers, profile, origin]);
  // a big design's is simulated off the page (a 5,000-queue file's took 0.9 s): said once it is known
  const big = offPageSized(parts);
  const arrived = useOffPageResults();
  const fate = useMemo(
    () => (big ? (fateJobs.get(parts, 'fate') ?? undefined) : statedFate(parts)),
    [parts, big, arrived],
  );
  useEffect(() => {
    if (big) fateJobs.request(parts, 'fate');
  }, [parts, big]);
  if (!fate) return null;
  return (
    <p
      data-testid="stated-fate"
      className={`mt-1 text-[11px] leading-snug ${fate.contradicts ? 'text-amber-300' : 'text-slate-400'}`}
    >
      {fate.sentence}
    </p>
  );
}
