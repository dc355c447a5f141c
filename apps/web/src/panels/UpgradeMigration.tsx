/**
 * The migration of the upgrade check: what it rewrites, whether the fates then match, and the
 * migrated design itself: opened as a design of its own (kept in My designs, Ctrl+Z goes back:
 * one step) or downloaded in any export format (the Export tab's exporters).
 */
import { useState } from 'react';
import type { UpgradeMigration as Migration } from '@retry-studio/topology-core/upgrade';
import { useApp } from '../store/store';
import { exportFormats } from './exporters';
import { downloadText } from './downloadText';

export function UpgradeMigration({ migration, targetLabel }: { migration: Migration; targetLabel: string }) {
  const formats = exportFormats();
  const [format, setFormat] = useState(formats[0]!.id);
  const name = useApp((s) => s.design.name);
  const migrated = { ...migration.design, name: `${name} (for ${targetLabel})` };
  const open = () => {
    useApp.getState().loadDesign(migrated);
    useApp
      .getState()
      .notify(`Opened the migrated design “${migrated.name}”; “${name}” is kept in My designs (Ctrl+Z goes back)`);
  };
  const download = () => {
    const f = formats.find((x) => x.id === format)!;
    downloadText(f.filename(migrated), f.render(migrated));
  };
  return (
    <div data-testid="upgrade-migration" className="rounded border border-slate-700 p-2 text-slate-300">
      <div className="mb-1 font-semibold">
        Migration for {targetLabel}: {migration.changes.length} change(s), fates{' '}
        {migration.fatesMatch ? 'match' : 'differ'}
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
      <div className="mt-2 flex flex-wrap items-center gap-1.5">
        <button
          type="button"
          data-testid="upgrade-open-migrated"
          onClick={open}
          className="rounded bg-sky-700 px-2 py-0.5 font-medium hover:bg-sky-600"
        >
          Open the migrated design
        </button>
        <select
          aria-label="Download format"
          data-testid="upgrade-download-format"
          value={format}
          onChange={(e) => setFormat(e.target.value as typeof format)}
          className="rounded border border-slate-700 bg-slate-800 px-1 py-0.5"
        >
          {formats.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          data-testid="upgrade-download"
          onClick={download}
          className="rounded bg-slate-700 px-2 py-0.5 hover:bg-slate-600"
        >
          Download
        </button>
      </div>
    </div>
  );
}
