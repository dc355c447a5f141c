import { useEffect } from 'react';
import { useApp } from '../store/store';
import { runCommand } from '../commands/registry';
import { env } from '../commands/env';

/**
 * After a template, an import or a blank canvas replaced the open design: where it went, and one click back. Over
 * the canvas's top margin (CanvasNotices), not a bar above it: the canvas keeps its height for the opening view.
 */
export function ReplacedNotice() {
  const replaced = useApp((s) => s.replaced);
  useEffect(() => {
    if (!replaced) return;
    const t = setTimeout(() => useApp.getState().dismissReplaced(), 15_000);
    return () => clearTimeout(t);
  }, [replaced]);
  if (!replaced) return null;
  return (
    <div
      role="status"
      data-testid="replaced-notice"
      className="pointer-events-auto flex min-w-0 max-w-[60%] items-center gap-2 rounded border border-sky-800 bg-sky-950/95 px-2 py-0.5 text-xs text-sky-100 shadow-lg"
    >
      <span
        className="min-w-0 truncate"
        title={`Opened “${replaced.next}”.${replaced.kept ? ` “${replaced.previous}” is kept in My designs.` : ''}`}
      >
        Opened “{replaced.next}”.
        {replaced.kept ? <> “{replaced.previous}” is kept in My designs.</> : null}
      </span>
      <button
        type="button"
        data-testid="replaced-undo"
        onClick={() => runCommand('undo', env)}
        className="shrink-0 rounded bg-sky-700 px-2 font-medium hover:bg-sky-600"
      >
        Undo (Ctrl+Z)
      </button>
      <button
        type="button"
        aria-label="Dismiss"
        onClick={() => useApp.getState().dismissReplaced()}
        className="shrink-0 rounded px-1.5 text-sky-300 hover:bg-sky-900"
      >
        ✕
      </button>
    </div>
  );
}
