/**
 * The Rehearse tab (issues 31, 37, 41): a load with failures rehearsed on the open design in a Web
 * Worker (the core's `rehearse`, as the CLI runs it), and against templates under the same load.
 * The conclusion first (the core's verdict, the CLI's words), then depth over time with the
 * outages shaded, the node's RAM and disk against its watermark, the per-queue table (peak depth,
 * held, RAM, disk: MiB as the CLI), the outcomes, the storm and the delay distribution.
 */
import { useEffect, useRef, useState } from 'react';
import type { Design } from '@retry-studio/topology-core/model';
import { useApp } from '../store/store';
import { runRehearse } from '../sim/runRehearse';
import type { RehearsedRun } from '../sim/rehearseWorker';
import {
  loadForDesign,
  readFields,
  startFields,
  type FieldErrors,
  type FieldKey,
  type RehearseFields,
} from '../rehearse/rehearseFields';
import { buildTemplate, listTemplates } from './templates';
import { RehearseResults } from './RehearseResults';

interface Compared {
  readonly label: string;
  readonly design: Design;
}

const FIELDS: readonly { key: FieldKey; label: string; hint: string }[] = [
  { key: 'rate', label: 'rate', hint: 'msg/s, like 500 or 500/s' },
  { key: 'duration', label: 'duration', hint: 'like 90s, 10m, 1h' },
  { key: 'errorRate', label: 'error rate', hint: 'outside outages, like 2%' },
  { key: 'poison', label: 'poison', hint: 'always fail, like 0.1%' },
  { key: 'processingMs', label: 'processing ms', hint: 'per delivery' },
  { key: 'concurrency', label: 'concurrency', hint: 'consumers x prefetch; empty: unbounded' },
  { key: 'bodyBytes', label: 'body bytes', hint: 'per message: RAM and disk follow the calibration' },
  {
    key: 'brokerMemory',
    label: 'broker RAM',
    hint: "the node's RAM; its memory watermark is the version's share (0.4 on 3.x, 0.6 on 4.x)",
  },
  { key: 'diskFree', label: 'free disk', hint: "the node's free disk when the load begins" },
];

export function RehearsePanel() {
  const design = useApp((s) => s.design);
  const request = useApp((s) => s.rehearseRequest);
  const [fields, setFields] = useState<RehearseFields>(() => startFields(design));
  const touched = useRef(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [compare, setCompare] = useState<readonly Compared[]>([]);
  const [runs, setRuns] = useState<readonly RehearsedRun[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [view, setView] = useState<'total' | 'queues'>('queues');
  const [notes, setNotes] = useState<readonly string[]>([]);
  const running = useRef<{ cancel: () => void } | null>(null);

  // an untouched form follows the open design (its worker is the outage's target)
  useEffect(() => {
    if (!touched.current) setFields(startFields(design));
  }, [design]);

  const start = (f: RehearseFields, others: readonly Compared[]) => {
    const read = readFields(f, design);
    setErrors(read.ok ? {} : read.errors);
    if (!read.ok) return;
    running.current?.cancel();
    setBusy(true);
    setFailure(null);
    const all = [{ label: design.name || 'open design', design }, ...others];
    const prepared = all.map((c) => ({ label: c.label, ...loadForDesign(read.load, c.design, c.label) }));
    setNotes(prepared.flatMap((p) => p.notes));
    running.current = runRehearse(
      prepared.map((p) => ({ label: p.label, design: p.design, load: p.load })),
      (r) => {
        setBusy(false);
        if (r.kind === 'result') {
          setRuns(r.runs);
          setView(r.runs.length > 1 ? 'total' : 'queues');
        } else setFailure(r.kind === 'invalid' ? `${r.label}: ${r.message}` : r.message);
      },
    );
  };

  // "Compare" in the Tune panel: its load, its recommendation beside the open design
  useEffect(() => {
    if (!request) return;
    const f = { ...startFields(useApp.getState().design), ...request.fields };
    touched.current = true;
    setFields(f);
    setCompare(request.compare);
    start(f, request.compare);
    // once per request (seq), with the design open when it was asked for
  }, [request?.seq]);

  const set = (k: FieldKey, v: string) => {
    touched.current = true;
    setFields((f) => ({ ...f, [k]: v }));
  };

  return (
    <div data-testid="rehearse-panel" className="flex h-full gap-3 overflow-auto p-2 text-xs text-slate-300">
      <div className="w-60 shrink-0 space-y-1">
        <div className="flex items-center justify-between">
          <span className="font-semibold text-slate-200">Load and failures</span>
          <span className="flex gap-1">
            <button
              type="button"
              data-testid="rehearse-run"
              disabled={busy}
              onClick={() => start(fields, compare)}
              className="rounded bg-sky-700 px-2 py-1 hover:bg-sky-600 disabled:opacity-40"
            >
              {busy ? 'Rehearsing…' : 'Rehearse'}
            </button>
            {busy && (
              <button
                type="button"
                onClick={() => (running.current?.cancel(), setBusy(false))}
                className="rounded bg-slate-700 px-2 py-1 hover:bg-slate-600"
              >
                Stop
              </button>
            )}
          </span>
        </div>
        <Field
          label="consumer outages"
          hint="TARGET@START+LENGTH, one a line (a consumer or queue)"
          error={errors.consumerOutages}
        >
          <textarea
            data-testid="rehearse-outages"
            rows={2}
            value={fields.consumerOutages}
            onChange={(e) => set('consumerOutages', e.target.value)}
            className={`w-full rounded border bg-slate-900 px-1 text-slate-100 ${errors.consumerOutages ? 'border-red-500' : 'border-slate-700'}`}
          />
        </Field>
        {FIELDS.map((f) => (
          <Field key={f.key} label={f.label} hint={f.hint} error={errors[f.key]} inline>
            <input
              data-testid={`rehearse-${f.key}`}
              aria-invalid={errors[f.key] ? true : undefined}
              value={fields[f.key]}
              onChange={(e) => set(f.key, e.target.value)}
              className={`w-24 rounded border bg-slate-900 px-1 text-right text-slate-100 ${errors[f.key] ? 'border-red-500' : 'border-slate-700'}`}
            />
          </Field>
        ))}
        <div className="text-slate-500">
          broker rules: each design's own profile (open design: {design.profile ?? '3.10'})
        </div>
        {failure && (
          <div role="alert" className="text-red-400">
            {failure}
          </div>
        )}
      </div>
      <div className="min-w-0 flex-1">
        <div className="min-w-[17rem] space-y-1">
          <CompareBar
            compare={compare}
            setCompare={setCompare}
            onFailure={setFailure}
            runs={runs}
            view={view}
            setView={setView}
          />
          {notes.map((n) => (
            <div key={n} data-testid="rehearse-note" className="text-amber-200/90">
              {n}
            </div>
          ))}
          {runs ? (
            <RehearseResults runs={runs} view={view} />
          ) : (
            <div className="pt-6 text-slate-500">
              Rehearse the open design under a load with an outage: how deep the queues get, how much RAM and disk the
              broker needs, how late messages are, what ends parked.
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

/**
 * "compare with": templates rehearsed beside the open design under the same load, and, with more
 * than one run, which chart to show.
 */
function CompareBar({
  compare,
  setCompare,
  onFailure,
  runs,
  view,
  setView,
}: {
  compare: readonly Compared[];
  setCompare: React.Dispatch<React.SetStateAction<readonly Compared[]>>;
  onFailure: (message: string) => void;
  runs: readonly RehearsedRun[] | null;
  view: 'total' | 'queues';
  setView: (view: 'total' | 'queues') => void;
}) {
  const [pick, setPick] = useState('');
  const addTemplate = () => {
    const t = listTemplates().find((x) => x.id === pick);
    if (!t || compare.some((c) => c.label === t.id)) return;
    const b = buildTemplate(t.id);
    if (b.ok) setCompare((c) => [...c, { label: t.id, design: b.built.design }]);
    else onFailure(`${t.id}: ${b.errors.map((e) => e.message).join('; ')}`);
  };

  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="text-slate-400">compare with</span>
      <select
        aria-label="Template to compare"
        data-testid="rehearse-template"
        value={pick}
        onChange={(e) => setPick(e.target.value)}
        className="rounded border border-slate-700 bg-slate-900 px-1"
      >
        <option value="">a template…</option>
        {listTemplates().map((t) => (
          <option key={t.id} value={t.id}>
            {t.id}
          </option>
        ))}
      </select>
      <button
        type="button"
        data-testid="rehearse-add"
        disabled={!pick}
        onClick={addTemplate}
        className="rounded bg-slate-700 px-2 py-0.5 hover:bg-slate-600 disabled:opacity-40"
      >
        Add
      </button>
      {compare.map((c) => (
        <span
          key={c.label}
          data-testid="rehearse-compared"
          className="flex items-center gap-1 rounded bg-slate-800 px-1.5 py-0.5"
        >
          <span className="max-w-[14rem] truncate" title={c.label}>
            {c.label}
          </span>
          <button
            type="button"
            aria-label={`Remove ${c.label}`}
            onClick={() => setCompare((l) => l.filter((x) => x !== c))}
            className="text-slate-400 hover:text-slate-100"
          >
            ×
          </button>
        </span>
      ))}
      {runs && runs.length > 1 && (
        <select
          aria-label="Chart"
          data-testid="rehearse-view"
          value={view}
          onChange={(e) => setView(e.target.value as 'total' | 'queues')}
          className="ml-auto rounded border border-slate-700 bg-slate-900 px-1"
        >
          <option value="total">held in queues, per design</option>
          <option value="queues">depth per queue: {runs[0]!.label}</option>
        </select>
      )}
    </div>
  );
}

function Field({
  label,
  hint,
  error,
  inline,
  children,
}: {
  label: string;
  hint: string;
  error: string | undefined;
  inline?: boolean;
  children: React.ReactNode;
}) {
  return (
    <label className="block" title={hint}>
      <span className={inline ? 'flex items-center justify-between gap-1' : 'block'}>
        <span className="text-slate-400">{label}</span>
        {children}
      </span>
      {error && (
        <span role="alert" data-testid="rehearse-field-error" className="block text-[11px] text-red-400">
          {error}
        </span>
      )}
    </label>
  );
}
