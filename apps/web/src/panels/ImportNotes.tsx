/**
 * What the last file import left out or changed (the CLI's import prints the same warnings), until dismissed or
 * another design opens. One line over the canvas's top margin, its first note in view (for an application's
 * configuration the notes block comes first: stand-ins, what is not modelled), the rest one click away: as a bar
 * above the canvas its three notes took 92 px of a 1280x800 window and the opening view shrank with them.
 */
import { useState } from 'react';
import { useApp } from '../store/store';

export function ImportNotes() {
  const notes = useApp((s) => s.importNotes);
  const name = useApp((s) => s.design.name);
  const [open, setOpen] = useState(false);
  if (!notes || notes.design !== name) return null;
  const n = notes.lines.length;
  const heading = notes.heading ?? `Imported “${notes.design}”, with ${n === 1 ? 'one note' : `${n} notes`}:`;
  return (
    <div
      role="status"
      data-testid="import-notes"
      data-open={open ? 'true' : undefined}
      className="pointer-events-auto flex min-w-0 flex-1 items-start gap-2 rounded border border-amber-800 bg-amber-950/95 px-2 py-0.5 text-xs text-amber-100 shadow-lg"
    >
      <div className="min-w-0 flex-1" title={open ? undefined : notes.lines.join('\n')}>
        <div className={open ? 'font-medium' : 'truncate'}>
          <span className="font-medium">{heading}</span>
          {!open && <span className="ml-1 font-mono text-[10px] text-amber-200">{notes.lines[0]}</span>}
        </div>
        {/* closed, the lines are clipped, not removed: a reader of the page (and the tooltip) still has them all */}
        <ul
          className={`font-mono text-[10px] text-amber-200 ${open ? 'max-h-48 overflow-auto' : 'sr-only'}`}
          aria-label="Import notes"
        >
          {notes.lines.map((l, i) => (
            <li key={i} className="whitespace-pre-wrap">
              {l}
            </li>
          ))}
        </ul>
      </div>
      {n > 1 || notes.lines[0]!.length > 80 ? (
        <button
          type="button"
          data-testid="import-notes-toggle"
          aria-expanded={open}
          onClick={() => setOpen(!open)}
          className="shrink-0 rounded px-1.5 text-amber-300 hover:bg-amber-900"
        >
          {open ? 'less ▴' : `all ${n > 1 ? n : ''} ▾`}
        </button>
      ) : null}
      <button
        type="button"
        aria-label="Dismiss the import notes"
        onClick={() => useApp.getState().setImportNotes(null)}
        className="shrink-0 rounded px-1.5 text-amber-300 hover:bg-amber-900"
      >
        ✕
      </button>
    </div>
  );
}
