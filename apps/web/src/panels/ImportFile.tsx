/** Import a file (or pasted text): a Retry Studio design, a retry scenario, RabbitMQ definitions, or the Kubernetes/Helm YAML holding them. */
import { useRef, useState } from 'react';
import { objectCount, type ReadDocument } from '@retry-studio/topology-core/io';
import { useApp } from '../store/store';
import { newDesignId } from '../store/designId';
import { lintJobs } from '../offpage/offPage';
import { importSession, type ImportSession, type Prepared } from '../import/importInWorker';
import type { ReadFile } from '../import/readDocument';
import type { ImportProgress } from '../import/prepareImport';
import { ImportAppConfig } from './ImportAppConfig';
import { canvasShape } from '../graph/canvasShape';
import { keepClusters } from '../canvas/overviewModel';
import { VhostChoice } from './VhostChoice';

export type { ReadFile } from '../import/readDocument';

/** Opens each document as its own design (kept in My designs, Ctrl+Z goes back), the last one shown; says what was left out. */
export function openDocuments(file: ReadFile, docs: readonly ReadDocument[], prepared: Prepared): void {
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
  for (const [i, doc] of docs.entries()) {
    const { design, scaffolded, clusters } = prepared.designs[i]!;
    // linted in the import worker once the page has drawn it: the canvas and the Lint tab wait for that lint
    lintJobs.adopt(design, undefined, prepared.lints[i]!);
    if (clusters) keepClusters(design, clusters);
    // the broker it was exported from: the upgrade check starts there (set first: kept with the design's first write)
    const docId = newDesignId();
    if (file.rabbitVersion) app().setBrokerVersion(docId, file.rabbitVersion);
    app().loadDesign(design, { docId });
    const where = docs.length > 1 && doc.vhost !== undefined ? `vhost ${JSON.stringify(doc.vhost)}: ` : '';
    notes.push(...doc.warnings.map((w) => w.message).map((n) => where + n));
    const actors = scaffolded
      ? `; ${scaffolded.publishers} publishers and ${scaffolded.workers} workers scaffolded`
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

/** resolves in a task after the next frame is painted */
const nextPaint = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));

/** what the import is doing, in words (the worker's step, the document of how many, its size) */
function progressText(p: ImportProgress | 'reading' | 'drawing', fileName?: string): string {
  if (p === 'reading') return `Reading ${fileName ?? 'the pasted JSON'}…`;
  if (p === 'drawing') return 'Opening on the canvas…';
  const of = p.docs > 1 ? ` (vhost ${p.doc + 1} of ${p.docs})` : '';
  const n = p.nodes !== undefined ? ` ${p.nodes.toLocaleString('en-US')} nodes` : '';
  if (p.step === 'scaffolding') return `Adding the assumed publishers and workers${of}…`;
  if (p.step === 'laying out') return `Laying out${n}${of}…`;
  return `Reading${of}…`;
}

/** how far through one document each step starts (the progress bar) */
const STEP_AT: Record<ImportProgress['step'], number> = { reading: 0, scaffolding: 0, 'laying out': 0.5 };

export function ImportFile({ onOpened }: { onOpened?: () => void }) {
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [choice, setChoice] = useState<{ file: ReadFile; session: ImportSession; pasted?: string } | null>(null);
  const [busy, setBusy] = useState<{ text: string; share: number } | null>(null);
  const file = useRef<HTMLInputElement>(null);
  /** `pasted`: the text imported, cleared from the box once it opens (unless something else was typed meanwhile) */
  const open = async (session: ImportSession, read: ReadFile, docs: readonly ReadDocument[], pasted?: string) => {
    setChoice(null);
    try {
      const prepared = await session.prepare(docs, canvasShape(), (p) =>
        setBusy({
          text: progressText(p),
          share: 0.1 + (0.85 * (p.doc + STEP_AT[p.step])) / p.docs,
        }),
      );
      setBusy({ text: progressText('drawing'), share: 0.95 });
      // a frame to show it before the canvas takes the design
      await nextPaint();
      if (pasted !== undefined) setText((t) => (t === pasted ? '' : t));
      openDocuments(read, docs, prepared);
      onOpened?.();
      // the lint once the canvas has drawn what it lints
      void nextPaint().then(() => session.lint());
    } catch (e) {
      session.close();
      setErrors([`the import stopped: ${(e as Error).message}`]);
    } finally {
      setBusy(null);
    }
  };
  const load = async (raw: string, fileName?: string) => {
    choice?.session.close();
    setErrors([]);
    setChoice(null);
    setBusy({ text: progressText('reading', fileName), share: 0.05 });
    const session = importSession();
    let r;
    try {
      r = await session.read(raw, fileName);
    } catch (e) {
      r = { errors: [`the file could not be read: ${(e as Error).message}`] };
    }
    setErrors(r.errors);
    if (!('file' in r)) {
      session.close();
      setBusy(null);
      return;
    }
    if (r.file.docs.length > 1) {
      setBusy(null);
      setChoice({ file: r.file, session, ...(fileName === undefined ? { pasted: raw } : {}) });
    } else await open(session, r.file, r.file.docs, fileName === undefined ? raw : undefined);
  };
  return (
    <div>
      <input
        ref={file}
        type="file"
        accept=".json,application/json,.yaml,.yml"
        data-testid="import-file"
        disabled={!!busy}
        aria-label="Open a design, a RabbitMQ definitions JSON file, or Kubernetes YAML holding RabbitMQ objects"
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
        disabled={!text.trim() || !!busy}
        onClick={() => load(text)}
        className="mt-1 rounded bg-slate-700 px-2 py-1 hover:bg-slate-600 disabled:opacity-40"
      >
        Import
      </button>
      {busy && (
        <div data-testid="import-progress" role="status" className="mt-1 text-[11px] text-sky-200">
          {busy.text}
          <div className="mt-0.5 h-1 w-full rounded bg-slate-800">
            <div
              className="h-1 rounded bg-sky-500 transition-[width]"
              style={{ width: `${Math.round(busy.share * 100)}%` }}
            />
          </div>
        </div>
      )}
      {errors.map((e, i) => (
        <div key={i} role="alert" data-testid="import-error" className="mt-1 font-mono text-[10px] text-red-400">
          {e}
        </div>
      ))}
      <ImportAppConfig {...(onOpened ? { onOpened } : {})} />
      {choice && (
        <VhostChoice
          file={choice.file}
          onOpen={(docs) => open(choice.session, choice.file, docs, choice.pasted)}
          onCancel={() => {
            choice.session.close();
            setChoice(null);
          }}
        />
      )}
    </div>
  );
}
