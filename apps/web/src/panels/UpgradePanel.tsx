/**
 * The Upgrade view (in the Lint tab): the core's upgrade check for the design, from the broker
 * line it comes from (its file's `rabbitmq_version`, the probed broker, else its profile) to the
 * line chosen here; a check toward an older line says it is a downgrade. While it is shown, every
 * refused object carries a red badge on the canvas and every changed one an amber badge (the reason
 * on hover; store/upgradeMarks.ts); they go with the view. Each finding selects its objects, as lint
 * does; "Select on canvas" selects every object a finding names.
 * The migration can be opened as a design or downloaded; "Verify on the broker" is the CLI's
 * --verify-on.
 */
import { useEffect, useMemo, useState } from 'react';
import {
  migrateDesignForUpgrade,
  upgradeCheck,
  isBlocking,
  type UpgradeFinding,
  type UpgradeSource,
} from '@retry-studio/topology-core/upgrade';
import { useApp } from '../store/store';
import { direction, SOURCE_LINES, sourceLine, TARGET_LINES } from './upgradeSource';
import { UpgradeMigration } from './UpgradeMigration';
import { UpgradeVerify } from './UpgradeVerify';
import { marksFromFindings, useUpgradeMarks } from '../store/upgradeMarks';

const TONE: Record<UpgradeFinding['kind'], string> = {
  refused: 'border-red-500 text-red-300',
  'behaviour-changed': 'border-red-500 text-red-300',
  'default-changed': 'border-amber-500 text-amber-200',
  deprecated: 'border-amber-500 text-amber-200',
  ignored: 'border-sky-500 text-sky-200',
};

const select = 'rounded border border-slate-700 bg-slate-800 px-1 py-0.5';

export function UpgradePanel() {
  const design = useApp((s) => s.design);
  const known = useApp((s) => s.brokerVersions[s.docId]);
  const detected = sourceLine(known, design.profile);
  const [sourceId, setSourceId] = useState<string | null>(null);
  const source = SOURCE_LINES.find((l) => l.id === sourceId) ?? detected;
  const from = source.profile;
  // the newest line other than the source's: an upgrade when there is one
  const [toId, setToId] = useState<string | null>(null);
  const targets = TARGET_LINES.filter((l) => l.profile !== from);
  const target =
    targets.find((l) => l.id === toId) ??
    [...targets].reverse().find((l) => direction(from, l.profile) === 'upgrade') ??
    targets[targets.length - 1]!;
  const to = target.profile;
  const way = direction(from, to);
  const result = useMemo(() => {
    try {
      return { report: upgradeCheck(design, { from, to }), migration: migrateDesignForUpgrade(design, { from, to }) };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }, [design, from, to]);
  const findings = 'report' in result ? result.report?.findings : undefined;
  // the badges follow the result shown: a new check (another design, version or line) replaces them, closing the view takes them away
  useEffect(() => {
    useUpgradeMarks.getState().setMarks('check', findings ? marksFromFindings(findings) : null);
  }, [findings]);
  useEffect(() => () => useUpgradeMarks.getState().setMarks('check', null), []);
  if ('error' in result) return <div className="p-3 text-xs text-red-300">Upgrade check failed: {result.error}</div>;
  const { report, migration } = result;
  const objects = [...new Set(report.findings.flatMap((f) => f.objects))];
  return (
    <div data-testid="upgrade-panel" className="space-y-2 p-2 text-xs">
      <div className="flex flex-wrap items-center gap-2 text-slate-300">
        <label
          className="flex items-center gap-1"
          title={
            known
              ? `the design's broker: RabbitMQ ${known}`
              : "no broker version known for this design: its simulation profile's line"
          }
        >
          From
          <select
            data-testid="upgrade-from"
            aria-label="Source broker line"
            value={source.id}
            onChange={(e) => setSourceId(e.target.value)}
            className={select}
          >
            {SOURCE_LINES.map((l) => (
              <option key={l.id} value={l.id}>
                {l.label}
                {l.id === detected.id && known ? ` (${known})` : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1">
          {way === 'downgrade' ? 'downgrade to' : 'to'}
          <select
            data-testid="upgrade-to"
            aria-label="Target broker line"
            value={target.id}
            onChange={(e) => setToId(e.target.value)}
            className={select}
          >
            {targets.map((l) => (
              <option key={l.id} value={l.id}>
                {l.label}
                {direction(from, l.profile) === 'downgrade' ? ' (downgrade)' : ''}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          data-testid="upgrade-mark-all"
          disabled={objects.length === 0}
          onClick={() => useApp.getState().select(objects)}
          title="Select every object a finding names on the canvas (refused and changed ones carry a badge there while this view is open)"
          className="ml-auto rounded border border-slate-600 px-2 py-0.5 hover:bg-slate-800 disabled:opacity-40"
        >
          Select on canvas ({objects.length})
        </button>
      </div>
      {way === 'downgrade' && (
        <div
          data-testid="upgrade-downgrade"
          className="rounded border border-amber-700 bg-amber-950/40 p-1.5 text-amber-100"
        >
          {source.label} is newer than {target.label}: this checks a <b>downgrade</b>
          {from === '4.3' ? ' (4.3 is the newest line the check models: there is nothing to upgrade to)' : ''}.
        </div>
      )}
      <div data-testid="upgrade-verdict" className={report.blocking ? 'text-red-300' : 'text-emerald-400'}>
        {report.blocking
          ? `${report.findings.filter((f) => f.kind === 'refused').length} declaration(s) refused, ${report.findings.filter((f) => f.kind === 'behaviour-changed').length} fate(s) changed`
          : report.findings.length
            ? 'Nothing refused, no fate changes: notes only.'
            : 'Nothing changes for this design.'}
        {report.consumersAssumed && (
          <span className="text-slate-400"> (no consumers: a rejecting worker assumed on each queue with a DLX)</span>
        )}
      </div>
      <ul className="space-y-2">
        {report.findings.map((f, i) => (
          <li key={i} className={`rounded border-l-4 bg-slate-800/70 p-2 ${TONE[f.kind]}`}>
            <button
              type="button"
              data-testid="upgrade-finding"
              data-rule={f.id}
              data-kind={f.kind}
              onClick={() => useApp.getState().select([...f.objects])}
              title="Select its objects on the canvas"
              className="w-full text-left hover:opacity-90 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400"
            >
              <div className="mb-0.5 flex items-center justify-between">
                <span className="font-mono text-[10px]">{f.id}</span>
                <span className="text-[10px] uppercase">{isBlocking(f) ? f.kind : `${f.kind} (note)`}</span>
              </div>
              <div className="text-slate-200">{f.message}</div>
              {f.kind === 'refused' && (
                <div className="mt-1 font-mono text-[10px] text-slate-400">broker: {f.brokerWording}</div>
              )}
              <div className="mt-1 text-[11px] text-slate-400">Fix: {f.fix}</div>
            </button>
            <div className="mt-1 flex flex-wrap gap-x-2 text-[10px] text-slate-500">
              {f.sources.map((s, j) => (
                <Citation key={j} s={s} />
              ))}
            </div>
          </li>
        ))}
      </ul>
      <UpgradeMigration migration={migration} targetLabel={target.label} />
      <UpgradeVerify from={from} to={to} />
    </div>
  );
}

/** a finding's source: release notes as a link, a recorded scenario or a measurement by name */
function Citation({ s }: { s: UpgradeSource }) {
  if (s.kind === 'release-notes')
    return (
      <a
        data-testid="upgrade-citation"
        href={s.url}
        target="_blank"
        rel="noreferrer"
        className="text-sky-400 underline hover:text-sky-300"
      >
        {s.url.replace('https://github.com/rabbitmq/', '')}
      </a>
    );
  return <span>{s.kind === 'scenario' ? `scenario ${s.name}` : 'measured'}</span>;
}
