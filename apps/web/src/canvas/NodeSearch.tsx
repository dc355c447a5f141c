import { useEffect, useMemo, useRef, useState } from 'react';
import type { DesignNode } from '../graph/flowTypes';
import { searchNodes } from './nodeSearch';

/** The find-a-node box over the canvas (Ctrl+F or /): type part of a name, Enter or a click selects the node and brings it into view. */
export function NodeSearch({
  nodes,
  onPick,
  onClose,
}: {
  nodes: readonly DesignNode[];
  onPick: (id: string) => void;
  onClose: () => void;
}) {
  const [text, setText] = useState('');
  const [at, setAt] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const hits = useMemo(() => searchNodes(nodes, text), [nodes, text]);
  useEffect(() => input.current?.focus(), []);
  const pick = (i: number) => {
    const h = hits[i];
    if (h) onPick(h.id);
  };
  return (
    <div
      data-testid="node-search"
      className="absolute left-1/2 top-3 z-20 w-96 -translate-x-1/2 rounded-lg border border-slate-600 bg-slate-900/95 p-2 shadow-xl"
    >
      <input
        ref={input}
        data-testid="node-search-input"
        aria-label="Find a node by name"
        placeholder="Find a node by name…"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setAt(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose();
          else if (e.key === 'Enter') pick(at);
          else if (e.key === 'ArrowDown') setAt((i) => Math.min(hits.length - 1, i + 1));
          else if (e.key === 'ArrowUp') setAt((i) => Math.max(0, i - 1));
          else return;
          e.preventDefault();
        }}
        onBlur={(e) => {
          if (!e.relatedTarget || !(e.currentTarget.parentElement?.contains(e.relatedTarget as Node) ?? false))
            onClose();
        }}
        className="w-full rounded border border-slate-600 bg-slate-950 px-2 py-1 text-sm text-slate-100 focus:outline-none focus:ring-2 focus:ring-sky-500"
      />
      {text.trim() && (
        <ul role="listbox" className="mt-1 max-h-72 overflow-auto text-xs">
          {hits.length === 0 && <li className="px-2 py-1 text-slate-400">No node is named like "{text.trim()}".</li>}
          {hits.map((h, i) => (
            <li key={h.id}>
              <button
                type="button"
                role="option"
                aria-selected={i === at}
                data-testid="node-search-hit"
                data-id={h.id}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(i)}
                className={`flex w-full items-baseline gap-2 rounded px-2 py-1 text-left ${i === at ? 'bg-sky-800/60 text-white' : 'text-slate-200 hover:bg-slate-800'}`}
              >
                <span className="w-16 shrink-0 text-[10px] uppercase text-slate-400">{h.kind}</span>
                <span className="break-all">{h.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
