/**
 * A definitions file with objects in several vhosts: which to open, one or each as its own
 * design. Every vhost the file names is listed with its object counts (an empty one too, so
 * that an empty "/" is seen, not opened), and what the import leaves out of each.
 */
import { describeVhost, type ReadDocument } from '@retry-studio/topology-core/io';
import type { ReadFile } from './ImportFile';

export function VhostChoice({
  file,
  onOpen,
  onCancel,
}: {
  file: ReadFile;
  onOpen: (docs: readonly ReadDocument[]) => void;
  onCancel: () => void;
}) {
  const docOf = (vhost: string | undefined) => file.docs.find((d) => d.vhost === vhost);
  return (
    <div data-testid="vhost-choice" className="mt-2 rounded border border-sky-800 bg-slate-950 p-2">
      <div className="mb-1 font-semibold text-slate-200">
        This file holds objects in {file.docs.length} vhosts
        {file.rabbitVersion ? ` (exported from RabbitMQ ${file.rabbitVersion})` : ''}. Open which?
      </div>
      <ul className="space-y-1">
        {file.vhosts.map((v) => {
          const doc = docOf(v.name);
          const notes = doc ? doc.warnings.map((w) => w.message) : [];
          return (
            <li
              key={v.name ?? ''}
              data-testid="vhost-choice-row"
              data-vhost={v.name}
              className="flex items-start gap-2"
            >
              <div className="min-w-0 flex-1">
                <div className="font-mono text-[11px] text-slate-200">{describeVhost(v)}</div>
                {notes.map((n, i) => (
                  <div key={i} data-testid="vhost-choice-note" className="text-[10px] text-amber-300">
                    {n}
                  </div>
                ))}
                {!doc && <div className="text-[10px] text-slate-500">nothing to open here</div>}
              </div>
              {doc && (
                <button
                  type="button"
                  data-testid="vhost-choice-open"
                  onClick={() => onOpen([doc])}
                  className="shrink-0 rounded bg-sky-700 px-2 py-0.5 font-medium hover:bg-sky-600"
                >
                  Open
                </button>
              )}
            </li>
          );
        })}
      </ul>
      <div className="mt-2 flex gap-2">
        <button
          type="button"
          data-testid="vhost-choice-each"
          onClick={() => onOpen(file.docs)}
          className="rounded bg-slate-700 px-2 py-1 hover:bg-slate-600"
        >
          Open each as its own design ({file.docs.length})
        </button>
        <button type="button" onClick={onCancel} className="rounded px-2 py-1 text-slate-400 hover:bg-slate-800">
          Cancel
        </button>
      </div>
    </div>
  );
}
