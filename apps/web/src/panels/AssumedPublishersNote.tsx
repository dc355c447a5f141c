/**
 * The import's stand-in publishers folded into a node (model/assumedActors.ts), listed in its inspector: each
 * one click from its own form. Edited, a publisher is the user's and is drawn as a node of its own again.
 */
import type { Design } from '@retry-studio/topology-core/model';
import { useApp } from '../store/store';
import { assumedActorsOf } from '../model/assumedActors';
import { parseNodeId, publisherNodeId } from '../model/nodeIds';

export function AssumedPublishersNote({ design, id }: { design: Design; id: string }) {
  const actors = assumedActorsOf(design);
  const n = parseNodeId(id);
  const into = n?.kind === 'publisher' ? actors.foldedInto.get(n.key) : undefined;
  if (into)
    return (
      <p data-testid="assumed-publisher-note" className="mt-2 text-[11px] text-sky-300">
        Assumed by the import: a stand-in for an application that publishes here, drawn folded into{' '}
        {parseNodeId(into)?.key ?? into} (✉). Edit it and it is yours, drawn as a node of its own.
      </p>
    );
  const folded = actors.byNode.get(id);
  if (!folded?.length) return null;
  return (
    <section data-testid="assumed-publishers-list" className="mt-3 border-t border-slate-800 pt-2 text-[11px]">
      <div className="mb-1 font-semibold text-slate-300">
        {folded.length} assumed publisher{folded.length === 1 ? '' : 's'} (✉ {folded.length})
      </div>
      <p className="mb-1 text-slate-400">
        Stand-ins for the applications that publish here: the import added one per way in, so Simulate runs.
      </p>
      <ul className="space-y-0.5">
        {folded.map((p) => (
          <li key={p.id}>
            <button
              type="button"
              data-testid="assumed-publisher"
              onClick={() => useApp.getState().select([publisherNodeId(p.id)])}
              className="text-left text-sky-300 hover:underline"
            >
              {p.label ?? p.id}
            </button>
            <span className="text-slate-500"> · key {p.routingKey === '' ? '(none)' : p.routingKey}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
