/** Import a file (or pasted JSON): a Retry Studio design, a retry scenario or RabbitMQ definitions. */
import { useRef, useState } from 'react';
import { loadDocument } from '@retry-studio/topology-core/io';
import { describeIssue } from '@retry-studio/topology-core/model';
import { useApp } from '../store/store';
import { layoutDesign } from '../graph/autoLayout';
import { scaffoldFileImport } from '../model/scaffoldFileImport';
import { ImportAppConfig } from './ImportAppConfig';

/** `orders-definitions.json` -> `orders-definitions`: definitions carry no design name, the file's is the one people know */
const fileStem = (name: string) => name.replace(/\.json$/i, '').trim() || undefined;

type Loaded = Extract<ReturnType<typeof loadDocument>, { ok: true }>;

/** Reads the text as a design (at once: errors name the field); `open` then lays it out if needed and opens it. */
export function readDocument(raw: string, fileName?: string): { errors: string[] } | { errors: []; open: () => Promise<void> } {
  const name = fileName ? fileStem(fileName) : undefined;
  const r = loadDocument(raw, name ? { name } : {});
  if (!r.ok) {
    // `wait.q: x-max-length must be ...`, not `queues[1].arguments.x-max-length: ...`
    const doc = parsedOrUndefined(raw);
    return { errors: r.errors.map((e) => (e.path ? describeIssue(doc, e) : e.message)) };
  }
  return { errors: [], open: () => openLoaded(r) };
}

function parsedOrUndefined(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

async function openLoaded(r: Loaded): Promise<void> {
  // a definitions file has no consumers or publishers: scaffold them as a vhost import does, so Simulate runs at once
  let design = r.kind === 'definitions' ? scaffoldFileImport(r.design) : r.design;
  // definitions carry no positions: lay them out
  if (!design.layout || Object.keys(design.layout).length === 0) design = { ...design, layout: await layoutDesign(design) };
  useApp.getState().loadDesign(design);
  useApp.getState().setView('designer');
  useApp.getState().requestFit();
  const actors = r.kind === 'definitions' && (design.publishers.length > 0 || design.consumers.length > 0) ? `; ${design.publishers.length} publishers and ${design.consumers.length} workers scaffolded` : '';
  useApp.getState().notify(`Imported ${r.kind === 'definitions' ? 'RabbitMQ definitions' : 'a design'}: ${design.topology.exchanges.length} exchanges, ${design.topology.queues.length} queues${actors}`);
}

export function ImportFile({ onOpened }: { onOpened?: () => void }) {
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const file = useRef<HTMLInputElement>(null);
  const load = async (raw: string, fileName?: string) => {
    const r = readDocument(raw, fileName);
    setErrors(r.errors);
    if (!('open' in r)) return;
    setText('');
    await r.open();
    onOpened?.();
  };
  return (
    <div>
      <input
        ref={file}
        type="file"
        accept=".json,application/json"
        data-testid="import-file"
        aria-label="Open a design or RabbitMQ definitions JSON file"
        className="mb-1 block w-full text-[11px] text-slate-400"
        onChange={async (e) => {
          const f = e.target.files?.[0];
          if (f) await load(await f.text(), f.name);
          if (file.current) file.current.value = '';
        }}
      />
      <textarea
        aria-label="Paste JSON to import"
        data-testid="import-text"
        rows={3}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="…or paste JSON here"
        className="w-full rounded border border-slate-700 bg-slate-950 p-1 font-mono text-[10px]"
      />
      <button type="button" data-testid="import-apply" disabled={!text.trim()} onClick={() => load(text)} className="mt-1 rounded bg-slate-700 px-2 py-1 hover:bg-slate-600 disabled:opacity-40">
        Import
      </button>
      {errors.map((e, i) => (
        <div key={i} role="alert" data-testid="import-error" className="mt-1 font-mono text-[10px] text-red-400">
          {e}
        </div>
      ))}
      <ImportAppConfig {...(onOpened ? { onOpened } : {})} />
    </div>
  );
}
