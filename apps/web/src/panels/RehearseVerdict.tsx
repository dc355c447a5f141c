/**
 * A rehearsal's conclusion first, in the core's words (rehearsalVerdict: the CLI prints the same
 * lines): what peaks, the node, what is lost and why, when it is back to normal, what to change.
 * Bad news in amber; a compared design gets its losses and its way back on one line each.
 */
import { rehearsalVerdict } from '@retry-studio/topology-core/rehearse';
import type { RehearsedRun } from '../sim/rehearseWorker';

export function RehearseVerdict({ runs }: { runs: readonly RehearsedRun[] }) {
  const [first, ...others] = runs;
  if (!first) return null;
  return (
    <div
      data-testid="rehearse-verdict"
      className="space-y-0.5 rounded border border-slate-800 bg-slate-900/60 p-1.5 text-[12px] leading-snug"
    >
      {rehearsalVerdict(first.report).map((l, i) => (
        <div key={i} data-kind={l.kind} className={l.bad ? 'text-amber-300' : 'text-slate-200'}>
          {l.text}
        </div>
      ))}
      {others.map((o) => (
        <div key={o.label} className="text-slate-400">
          <b className="text-slate-300">{o.label}</b>:{' '}
          {rehearsalVerdict(o.report)
            .filter((l) => l.kind === 'loss' || l.kind === 'back' || l.kind === 'alarm' || l.kind === 'loop')
            .map((l) => l.text)
            .join(' ')}
        </div>
      ))}
    </div>
  );
}
