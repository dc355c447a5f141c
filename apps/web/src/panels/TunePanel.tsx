import { useRef, useState } from 'react';
import {
  paramsText,
  resolveTuneInput,
  type ParetoPoint,
  type Recommendation,
  type TuneInput,
  type TuneResult,
} from '@retry-studio/topology-core/tune';
import { formatMs } from '@retry-studio/topology-core/budget';
import { useApp } from '../store/store';
import { runTune } from '../sim/runTune';
import { fieldsFromProfile } from '../rehearse/fromTune';

/** the form's fields, in the units a person types (minutes, percent) */
interface Form {
  rate: string;
  durationMin: string;
  outageMin: string;
  poisonPct: string;
  errorPct: string;
  deadlineMin: string;
  sharePct: string;
  maxAmplification: string;
  profile: '3.10' | '4.x' | '4.3';
  noPlugins: boolean;
  fromDesign: boolean;
}

const START: Form = {
  rate: '200',
  durationMin: '60',
  outageMin: '10',
  poisonPct: '0.1',
  errorPct: '0',
  deadlineMin: '20',
  sharePct: '99',
  maxAmplification: '3',
  profile: '3.10',
  noPlugins: true,
  fromDesign: false,
};

const num = (s: string): number | undefined => (s.trim() === '' ? undefined : Number(s));

function toInput(f: Form): TuneInput {
  const min = (s: string) => (num(s) === undefined ? undefined : num(s)! * 60_000);
  const pct = (s: string) => (num(s) === undefined ? undefined : num(s)! / 100);
  const o = <K extends keyof TuneInput>(k: K, v: TuneInput[K] | undefined) => (v === undefined ? {} : { [k]: v });
  return {
    rate: num(f.rate) ?? 0,
    outageLengthsMs: [min(f.outageMin) ?? 0],
    ...o('durationMs', min(f.durationMin)),
    ...o('poison', pct(f.poisonPct)),
    ...o('errorRate', pct(f.errorPct)),
    ...o('deadlineMs', min(f.deadlineMin)),
    ...o('deadlineShare', f.deadlineMin.trim() ? pct(f.sharePct) : undefined),
    ...o('maxAmplification', num(f.maxAmplification)),
    ...(f.fromDesign ? { from: useApp.getState().design } : { profile: f.profile, noPlugins: f.noPlugins }),
  };
}

const mb = (b: number) => `${+(b / 1e6).toFixed(1)} MB`;

/** The tuner: a failure profile and goals in, the ranked designs, the Pareto front and "Open" out. */
export function TunePanel() {
  const [form, setForm] = useState<Form>(START);
  const [result, setResult] = useState<{ result: TuneResult; input: TuneInput } | null>(null);
  const [issues, setIssues] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const running = useRef<{ cancel: () => void } | null>(null);
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));

  const start = () => {
    running.current?.cancel();
    setBusy(true);
    setIssues([]);
    setResult(null);
    const input = toInput(form);
    running.current = runTune(input, (r) => {
      setBusy(false);
      if (r.kind === 'result') setResult({ result: r.result, input });
      else if (r.kind === 'invalid') setIssues(r.issues.map((i) => `${i.option}: ${i.message}`));
      else setIssues([r.message]);
    });
  };

  const field = (label: string, k: keyof Form, unit: string, testId: string) => (
    <label className="flex items-center justify-between gap-1">
      <span className="text-slate-400">{label}</span>
      <span className="flex items-center gap-1">
        <input
          data-testid={testId}
          value={String(form[k])}
          onChange={(e) => set({ [k]: e.target.value } as Partial<Form>)}
          className="w-16 rounded border border-slate-700 bg-slate-900 px-1 text-right text-slate-100"
        />
        <span className="w-7 text-slate-500">{unit}</span>
      </span>
    </label>
  );

  return (
    <div data-testid="tune-panel" className="flex h-full gap-3 overflow-auto p-2 text-xs text-slate-300">
      <div className="w-56 shrink-0 space-y-1">
        <div className="font-semibold text-slate-200">Failure profile</div>
        {field('rate', 'rate', 'msg/s', 'tune-rate')}
        {field('rehearsal', 'durationMin', 'min', 'tune-duration')}
        {field('outage', 'outageMin', 'min', 'tune-outage')}
        {field('poison', 'poisonPct', '%', 'tune-poison')}
        {field('errors', 'errorPct', '%', 'tune-errors')}
        <div className="pt-1 font-semibold text-slate-200">Goals</div>
        {field('deadline', 'deadlineMin', 'min', 'tune-deadline')}
        {field('within deadline', 'sharePct', '%', 'tune-share')}
        {field('max amplification', 'maxAmplification', 'x', 'tune-max-amp')}
        <label className="flex items-center gap-1">
          <input
            type="checkbox"
            data-testid="tune-from-design"
            checked={form.fromDesign}
            onChange={(e) => set({ fromDesign: e.target.checked })}
          />
          tune the open design (its own knobs)
        </label>
        {!form.fromDesign && (
          <div className="flex items-center gap-2">
            <select
              aria-label="Broker profile"
              data-testid="tune-profile"
              value={form.profile}
              onChange={(e) => set({ profile: e.target.value as Form['profile'] })}
              className="rounded border border-slate-700 bg-slate-900 px-1"
            >
              <option value="3.10">RabbitMQ 3.10</option>
              <option value="4.x">RabbitMQ 4.0-4.2</option>
              <option value="4.3">RabbitMQ 4.3</option>
            </select>
            <label className="flex items-center gap-1">
              <input type="checkbox" checked={form.noPlugins} onChange={(e) => set({ noPlugins: e.target.checked })} />
              no plugins
            </label>
          </div>
        )}
        <div className="flex gap-2 pt-1">
          <button
            type="button"
            data-testid="tune-run"
            disabled={busy}
            onClick={start}
            className="rounded bg-sky-700 px-2 py-1 hover:bg-sky-600 disabled:opacity-40"
          >
            {busy ? 'Tuning…' : 'Tune'}
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
        </div>
        {issues.map((i) => (
          <div key={i} role="alert" className="text-red-400">
            {i}
          </div>
        ))}
      </div>
      {result && <TuneResultView result={result.result} input={result.input} />}
    </div>
  );
}

/** "Compare": the recommendation beside the open design in the Rehearse tab, under the tuner's load */
function compare(r: Recommendation, input: TuneInput): void {
  const resolved = resolveTuneInput(input);
  if (!resolved.ok) return;
  const app = useApp.getState();
  app.requestRehearsal({
    fields: fieldsFromProfile(resolved.profile, app.design),
    compare: [{ label: `${r.strategy} (tuned: ${paramsText(r.params)})`, design: r.design }],
  });
}

function TuneResultView({ result, input }: { result: TuneResult; input: TuneInput }) {
  const s = result.stats;
  const searched = `${s.candidates} candidates, ${s.pruned} cut before rehearsal, ${s.rehearsals} rehearsals, ${formatMs(s.wallMs)}`;
  if (!result.feasible)
    return (
      <div data-testid="tune-infeasible" className="min-w-0 flex-1 space-y-1">
        <div className="font-semibold text-amber-300">No feasible design ({searched})</div>
        {(result.infeasibleBecause ?? []).map((b) => (
          <div key={b.goal}>
            ruled out by <b className="text-slate-100">{b.goal}</b>: {b.message}
          </div>
        ))}
      </div>
    );
  return (
    <div data-testid="tune-result" className="flex min-w-0 flex-1 gap-3">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="text-slate-500">
          Best first: fewest broker operations, then memory, then objects ({searched})
        </div>
        <ol className="space-y-1">
          {result.recommendations.map((r, i) => (
            <li key={i} data-testid="tune-recommendation" className="rounded border border-slate-800 p-1.5">
              <div className="flex items-center justify-between gap-2">
                <span className="truncate">
                  <b className="text-slate-100">
                    {i + 1}. {r.strategy}
                  </b>{' '}
                  <span className="text-slate-400">{paramsText(r.params)}</span>
                </span>
                <button
                  type="button"
                  data-testid="tune-open"
                  onClick={() => {
                    // a tuned design is work: kept in My designs, and the switch is one undo step
                    useApp
                      .getState()
                      .loadDesign(
                        { ...r.design, name: `${r.strategy} (tuned: ${paramsText(r.params)})` },
                        { pristine: false },
                      );
                    useApp.getState().notify(`Opened ${r.strategy}, tuned`);
                  }}
                  className="shrink-0 rounded bg-sky-800 px-2 py-0.5 hover:bg-sky-700"
                >
                  Open
                </button>
                <button
                  type="button"
                  data-testid="tune-compare"
                  title="Rehearse it beside the open design under this load"
                  onClick={() => compare(r, input)}
                  className="shrink-0 rounded bg-slate-700 px-2 py-0.5 hover:bg-slate-600"
                >
                  Compare
                </button>
              </div>
              <div className="text-slate-400">
                p99 {formatMs(r.metrics.delayMs.p99)} · amplification {r.metrics.amplification.toFixed(2)} · peak depth{' '}
                {r.metrics.peakDepth.toLocaleString('en-US')} · memory {mb(r.metrics.peakMemoryBytes)} · parked{' '}
                {r.metrics.outcomes.parked}
              </div>
              <div className="text-slate-500">{r.why}</div>
            </li>
          ))}
        </ol>
      </div>
      <ParetoChart points={result.pareto} />
    </div>
  );
}

/** p99 delay (x) against amplification (y) for the Pareto front; a dot's size is its peak memory */
function ParetoChart({ points }: { points: readonly ParetoPoint[] }) {
  const W = 260;
  const H = 170;
  const pad = 28;
  if (points.length === 0) return null;
  const xs = points.map((p) => p.p99DelayMs);
  const ys = points.map((p) => p.amplification);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const [y0, y1] = [Math.min(1, ...ys), Math.max(...ys)];
  const mx = Math.max(1, ...points.map((p) => p.peakMemoryBytes));
  const sx = (v: number) => pad + ((v - x0) / Math.max(1, x1 - x0)) * (W - 2 * pad);
  const sy = (v: number) => H - pad - ((v - y0) / Math.max(0.01, y1 - y0)) * (H - 2 * pad);
  return (
    <figure data-testid="tune-pareto" className="shrink-0">
      <svg width={W} height={H} role="img" aria-label="Pareto front: p99 delay against amplification">
        <line x1={pad} y1={H - pad} x2={W - pad / 2} y2={H - pad} stroke="#475569" />
        <line x1={pad} y1={pad / 2} x2={pad} y2={H - pad} stroke="#475569" />
        <text x={W / 2} y={H - 6} fill="#94a3b8" fontSize="10" textAnchor="middle">
          p99 delay ({formatMs(x0)} – {formatMs(x1)})
        </text>
        <text x={10} y={H / 2} fill="#94a3b8" fontSize="10" textAnchor="middle" transform={`rotate(-90 10 ${H / 2})`}>
          amplification
        </text>
        {points.map((p, i) => (
          <circle
            key={i}
            cx={sx(p.p99DelayMs)}
            cy={sy(p.amplification)}
            r={3 + 5 * Math.sqrt(p.peakMemoryBytes / mx)}
            fill="#38bdf8"
            fillOpacity={0.6}
          >
            <title>{`${p.strategy} ${paramsText(p.params)}: p99 ${formatMs(p.p99DelayMs)}, amplification ${p.amplification.toFixed(2)}, memory ${mb(p.peakMemoryBytes)}`}</title>
          </circle>
        ))}
      </svg>
      <figcaption className="text-[10px] text-slate-500">
        Pareto front: delay against amplification (dot size: memory)
      </figcaption>
    </figure>
  );
}
