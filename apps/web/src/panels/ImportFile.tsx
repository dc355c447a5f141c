/** Import a file (or pasted JSON): a Retry Studio design, a retry scenario or RabbitMQ definitions. */
import { useRef, useState } from 'react';
import {
  objectCount,
  readDocumentFile,
  type ReadDocument,
  type ReadDocumentResult,
} from '@retry-studio/topology-core/io';
import { describeIssue } from '@retry-studio/topology-core/model';
import { useApp } from '../store/store';
import { layoutDesign } from '../graph/autoLayout';
import { scaffoldFileImport } from '../model/scaffoldFileImport';
import { ImportAppConfig } from './ImportAppConfig';
import { VhostChoice } from './VhostChoice';

export type ReadFile = Extract<ReadDocumentResult, { ok: true }>;

/**
 * Reads the text as the CLI does (the core's readDocumentFile: errors name the field). One
 * design opens at once; a file with objects in several vhosts asks which (`choose`).
 */
export function readDocument(raw: string, fileName?: string): { errors: string[] } | { errors: []; file: ReadFile } {
  const r = readDocumentFile(raw, fileName !== undefined ? { fileName } : {});
  if (!r.ok) {
    // `wait.q: x-max-length must be ...`, not `queues[1].arguments.x-max-length: ...`
    const doc = parsedOrUndefined(raw);
    return { errors: r.errors.map((e) => (e.path ? describeIssue(doc, e) : e.message)) };
  }
  return { errors: [], file: r };
}

function parsedOrUndefined(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** Opens each document as its own design (kept in My designs, Ctrl+Z goes back), the last one shown; says what was left out. */
export async function openDocuments(file: ReadFile, docs: readonly ReadDocument[]): Promise<void> {
  const app = useApp.getState;
  // a whole-broker file's empty vhosts (often "/") are said, so an opened vhost is never a surprise
  const empty = file.vhosts
    .filter((v) => v.name !== undefined && objectCount(v) === 0)
    .map((v) => JSON.stringify(v.name));
  const notes: string[] =
    empty.length > 0
      ? [
          `the file's vhost${empty.length > 1 ? 's' : ''} ${empty.join(', ')} hold${empty.length > 1 ? '' : 's'} no objects: not opened`,
        ]
      : [];
  let last = '';
  for (const doc of docs) {
    // a definitions file has no consumers or publishers: scaffold them as a vhost import does, so Simulate runs at once
    let design = doc.kind === 'definitions' ? scaffoldFileImport(doc.design) : doc.design;
    // definitions carry no positions: lay them out
    if (!design.layout || Object.keys(design.layout).length === 0)
      design = { ...design, layout: await layoutDesign(design) };
    app().loadDesign(design);
    // the broker it was exported from: the upgrade check starts there
    if (file.rabbitVersion) app().setBrokerVersion(app().docId, file.rabbitVersion);
    const where = docs.length > 1 && doc.vhost !== undefined ? `vhost ${JSON.stringify(doc.vhost)}: ` : '';
    notes.push(...doc.warnings.map((w) => w.message).map((n) => where + n));
    const actors =
      doc.kind === 'definitions' && (design.publishers.length > 0 || design.consumers.length > 0)
        ? `; ${design.publishers.length} publishers and ${design.consumers.length} workers scaffolded`
        : '';
    last = `${design.topology.exchanges.length} exchanges, ${design.topology.queues.length} queues${actors}`;
  }
  app().setView('designer');
  app().requestFit();
  const shown = app().design.name;
  app().setImportNotes(notes.length > 0 ? { design: shown, lines: notes } : null);
  const only = docs[0]!;
  const what =
    only.kind === 'definitions'
      ? `RabbitMQ definitions${only.vhost !== undefined ? ` (vhost ${JSON.stringify(only.vhost)})` : ''}`
      : 'a design';
  app().notify(
    docs.length > 1
      ? `Imported ${docs.length} vhosts as ${docs.length} designs (My designs); showing “${shown}”: ${last}`
      : `Imported ${what}: ${last}`,
  );
}

export function ImportFile({ onOpened }: { onOpened?: () => void }) {
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [choice, setChoice] = useState<ReadFile | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const open = async (read: ReadFile, docs: readonly ReadDocument[]) => {
    setChoice(null);
    setText('');
    await openDocuments(read, docs);
    onOpened?.();
  };
  const load = async (raw: string, fileName?: string) => {
    const r = readDocument(raw, fileName);
    setErrors(r.errors);
    setChoice(null);
    if (!('file' in r)) return;
    if (r.file.docs.length > 1) setChoice(r.file);
    else await open(r.file, r.file.docs);
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
      <button
        type="button"
        data-testid="import-apply"
        disabled={!text.trim()}
        onClick={() => load(text)}
        className="mt-1 rounded bg-slate-700 px-2 py-1 hover:bg-slate-600 disabled:opacity-40"
      >
        Import
      </button>
      {errors.map((e, i) => (
        <div key={i} role="alert" data-testid="import-error" className="mt-1 font-mono text-[10px] text-red-400">
          {e}
        </div>
      ))}
      <ImportAppConfig {...(onOpened ? { onOpened } : {})} />
      {choice && <VhostChoice file={choice} onOpen={(docs) => open(choice, docs)} onCancel={() => setChoice(null)} />}
    </div>
  );
}
