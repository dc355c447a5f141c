import { useRef, useState } from 'react';
import type { BrokerProfileId } from '@retry-studio/topology-core/model';
import type { TuneInput, TuneResult } from '@retry-studio/topology-core/tune';
import { useApp } from '../store/store';
import { runTune } from '../sim/runTune';
import { TuneResultView } from './TuneResults';

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
  /** the broker node's RAM, GiB (its watermark is the version's share) */
  brokerGiB: string;
  profile: BrokerProfileId;
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
  brokerGiB: '4',
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
    ...o('brokerMemoryBytes', num(f.brokerGiB) === undefined ? undefined : Math.round(num(f.brokerGiB)! * 1024 ** 3)),
    ...(f.fromDesign ? { from: useApp.getState().design } : { profile: f.profile, noPlugins: f.noPlugins }),
  };
}

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
        <div className="pt-1 font-semibold text-slate-200">Broker</div>
        {field('node RAM', 'brokerGiB', 'GiB', 'tune-broker-ram')}
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
