/** A node's upgrade mark (store/upgradeMarks.ts): "refused" in red, "changed" in amber, the reasons on hover; nothing when unmarked. */
import { memo } from 'react';
import { useUpgradeMarks } from '../store/upgradeMarks';

export const UpgradeBadge = memo(function UpgradeBadge({ id }: { id: string }) {
  const mark = useUpgradeMarks((s) => s.marks[id]);
  if (!mark) return null;
  const refused = mark.tone === 'refused';
  return (
    <span
      data-testid="upgrade-badge"
      data-tone={mark.tone}
      title={mark.reasons.join('\n')}
      className={`absolute left-3 top-full -mt-1 z-10 whitespace-nowrap cursor-help rounded px-1 text-[length:calc(10px*var(--ts,1))] font-semibold uppercase shadow ${refused ? 'bg-red-600 text-white ring-1 ring-red-300' : 'bg-amber-400 text-slate-950 ring-1 ring-amber-200'}`}
    >
      {refused ? '✕ refused' : '⚠ changed'}
    </span>
  );
});
