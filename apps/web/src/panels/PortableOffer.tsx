import { useState } from 'react';
import { compilePortable } from '@retry-studio/topology-core/io';
import { useApp } from '../store/store';

/**
 * Offered when the broker lacks the delayed-message plugin: the same design with TTL wait queues.
 * Once used it stays, listing what changed, until dismissed (the design no longer needs it then).
 */
export function PortableOffer() {
  const [changes, setChanges] = useState<readonly string[] | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const design = useApp((s) => s.design);
  if (dismissed) return null;
  if (!changes && !design.topology.exchanges.some((x) => x.type === 'x-delayed-message')) return null;
  return (
    <div
      data-testid="portable-offer"
      className="mb-2 rounded border border-amber-700 bg-amber-950/40 p-2 text-amber-100"
    >
      <div className="mb-1">
        This broker cannot declare a delayed-message exchange. The portable compile replaces it with TTL wait queues
        (works on any RabbitMQ).
      </div>
      <button
        type="button"
        data-testid="portable-apply"
        className="rounded bg-amber-700 px-2 py-0.5 hover:bg-amber-600"
        onClick={() => {
          const r = compilePortable(useApp.getState().design);
          if (!r.ok) return setErr(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
          useApp.getState().setDesign(r.design);
          setChanges(r.changes);
        }}
      >
        Use the portable design (undoable)
      </button>
      <button
        type="button"
        data-testid="portable-dismiss"
        className="ml-1 rounded bg-slate-700 px-2 py-0.5 hover:bg-slate-600"
        onClick={() => setDismissed(true)}
      >
        Dismiss
      </button>
      {err && <div className="mt-1 text-red-300">{err}</div>}
      {changes && (
        <ul className="mt-1 list-disc pl-4 text-[10px]">
          {changes.map((c, i) => (
            <li key={i}>{c}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
