/**
 * The Upgrade view (in the Lint tab): the core's upgrade check for the design, from its profile
 * to the broker line chosen here. Each finding selects its objects on the canvas, as lint does;
 * "Mark all" selects every object a finding names. The migration's summary says what it would
 * rewrite and whether the fates then match (the CLI writes the migrated design).
 */
import { useMemo, useState } from 'react';
import { type BrokerProfileId } from '@retry-studio/topology-core/model';
import { migrateDesignForUpgrade, upgradeCheck, isBlocking, type UpgradeFinding } from '@retry-studio/topology-core/upgrade';
import { useApp } from '../store/store';

const PROFILES: BrokerProfileId[] = ['3.10', '4.x', '4.3'];
const TONE: Record<UpgradeFinding['kind'], string> = {
  refused: 'border-red-500 text-red-300',
  'behaviour-changed': 'border-red-500 text-red-300',
  'default-changed': 'border-amber-500 text-amber-200',
  deprecated: 'border-amber-500 text-amber-200',
  ignored: 'border-sky-500 text-sky-200',
};

export function UpgradePanel() {
  const design = useApp((s) => s.design);
  const from: BrokerProfileId = design.profile ?? '3.10';
  const [to, setTo] = useState<BrokerProfileId>(from === '3.10' ? '4.3' : '3.10');
  const target = to === from ? PROFILES.find((p) => p !== from)! : to;
  const result = useMemo(() => {
    try {
      return { report: upgradeCheck(design, { from, to: target }), migration: migrateDesignForUpgrade(design, { from, to: target }) };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }, [design, from, target]);
  if ('error' in result) return <div className="p-3 text-xs text-red-300">Upgrade check failed: {result.error}</div>;
  const { report, migration } = result;
  const objects = [...new Set(report.findings.flatMap((f) => f.objects))];
  return (
    <div data-testid="upgrade-panel" className="space-y-2 p-2 text-xs">
      <div className="flex items-center gap-2 text-slate-300">
        <span>
          From <span className="font-mono">{from}</span> to
        </span>
        <select
          data-testid="upgrade-to"
          aria-label="Target broker line"
          value={target}
          onChange={(e) => setTo(e.target.value as BrokerProfileId)}
          className="rounded border border-slate-700 bg-slate-800 px-1 py-0.5"
        >
          {PROFILES.filter((p) => p !== from).map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
        <button
          type="button"
          data-testid="upgrade-mark-all"
          disabled={objects.length === 0}
          onClick={() => useApp.getState().select(objects)}
          className="ml-auto rounded border border-slate-600 px-2 py-0.5 hover:bg-slate-800 disabled:opacity-40"
        >
          Mark all
        </button>
      </div>
      <div data-testid="upgrade-verdict" className={report.blocking ? 'text-red-300' : 'text-emerald-400'}>
        {report.blocking
          ? `${report.findings.filter((f) => f.kind === 'refused').length} declaration(s) refused, ${report.findings.filter((f) => f.kind === 'behaviour-changed').length} fate(s) changed`
          : report.findings.length
            ? 'Nothing refused, no fate changes: notes only.'
            : 'Nothing changes for this design.'}
        {report.consumersAssumed && <span className="text-slate-400"> (no consumers: a rejecting worker assumed on each queue with a DLX)</span>}
      </div>
      <ul className="space-y-2">
        {report.findings.map((f, i) => (
          <li key={i}>
            <button
              type="button"
              data-testid="upgrade-finding"
              data-rule={f.id}
              data-kind={f.kind}
              onClick={() => useApp.getState().select([...f.objects])}
              className={`w-full rounded border-l-4 bg-slate-800/70 p-2 text-left hover:bg-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400 ${TONE[f.kind]}`}
            >
              <div className="mb-0.5 flex items-center justify-between">
                <span className="font-mono text-[10px]">{f.id}</span>
                <span className="text-[10px] uppercase">{isBlocking(f) ? f.kind : `${f.kind} (note)`}</span>
              </div>
              <div className="text-slate-200">{f.message}</div>
              {f.kind === 'refused' && <div className="mt-1 font-mono text-[10px] text-slate-400">broker: {f.brokerWording}</div>}
              <div className="mt-1 text-[11px] text-slate-400">Fix: {f.fix}</div>
              <div className="mt-1 truncate text-[10px] text-slate-500">
                {f.sources.map((s) => (s.kind === 'release-notes' ? s.url.replace('https://github.com/rabbitmq/', '') : s.kind === 'scenario' ? `scenario ${s.name}` : 'measured')).join(' · ')}
              </div>
            </button>
          </li>
        ))}
      </ul>
      <div data-testid="upgrade-migration" className="rounded border border-slate-700 p-2 text-slate-300">
        <div className="mb-1 font-semibold">
          Migration for {target}: {migration.changes.length} change(s), fates {migration.fatesMatch ? 'match' : 'differ'}
        </div>
        <ul className="list-disc space-y-0.5 pl-4 text-[11px]">
          {migration.changes.map((c, i) => (
            <li key={i}>{c}</li>
          ))}
        </ul>
        {migration.notKept.length > 0 && (
          <div className="mt-1 text-[11px] text-amber-200">
            Cannot be kept:
            <ul className="list-disc pl-4">
              {migration.notKept.map((c, i) => (
                <li key={i}>{c}</li>
              ))}
            </ul>
          </div>
        )}
        <div className="mt-1 text-[10px] text-slate-500">Write it with pnpm cli upgrade-check FILE --from {from} --to {target} --migrated-out NEW.json</div>
      </div>
    </div>
  );
}
