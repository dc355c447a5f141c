/** What the last file import left out or changed (the CLI's import prints the same warnings), until dismissed or another design opens. */
import { useApp } from '../store/store';

export function ImportNotes() {
  const notes = useApp((s) => s.importNotes);
  const name = useApp((s) => s.design.name);
  if (!notes || notes.design !== name) return null;
  return (
    <div
      role="status"
      data-testid="import-notes"
      className="flex items-start gap-2 border-b border-amber-900 bg-amber-950/60 px-3 py-1 text-xs text-amber-100"
    >
      <div className="min-w-0 flex-1">
        <div className="font-medium">
          {notes.heading ??
            `Imported “${notes.design}”, with ${notes.lines.length === 1 ? 'one note' : `${notes.lines.length} notes`}:`}
        </div>
        <ul className="max-h-24 overflow-auto font-mono text-[10px] text-amber-200">
          {notes.lines.map((l, i) => (
            <li key={i} className="whitespace-pre-wrap">
              {l}
            </li>
          ))}
        </ul>
      </div>
      <button
        type="button"
        aria-label="Dismiss the import notes"
        onClick={() => useApp.getState().setImportNotes(null)}
        className="rounded px-1.5 text-amber-300 hover:bg-amber-900"
      >
        ✕
      </button>
    </div>
  );
}
