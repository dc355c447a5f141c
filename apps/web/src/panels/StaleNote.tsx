import { STALE_TEXT } from '../store/resultsVersion';

/** Said above a result the design has moved on from: it stays readable, never as current. */
export function StaleNote({ what }: { what: string }) {
  return (
    <div
      role="status"
      data-testid="stale-note"
      className="rounded border border-amber-700/70 bg-amber-950/40 px-2 py-1 text-[11px] text-amber-200"
    >
      {what} {STALE_TEXT}: run it again for this one.
    </div>
  );
}
