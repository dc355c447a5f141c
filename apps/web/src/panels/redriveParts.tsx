/** The dead-letter panel's re-drive side: the form (destination, rate, canary, edit), the dry run's plan, a plain re-drive's progress. */
import type { ReactNode } from 'react';
import type { BounceWarning, RedrivePlan } from '@retry-studio/topology-core/operate';
import type { RedriveProgress } from '@retry-studio/contract';
import type { CheckedEdit } from '../operate/EditCopies';
import type { RedriveOptions } from '../operate/operateApi';
import { Counts, Staying, btn, input } from './deadLetterParts';

/** what the form holds as typed */
export interface RedriveFields {
  readonly to: string;
  readonly rate: string;
  readonly canary: string;
  readonly canaryWait: string;
  readonly maxRefail: string;
}

export const DEFAULT_REDRIVE: RedriveFields = {
  to: 'original',
  rate: '',
  canary: '',
  canaryWait: '5000',
  maxRefail: '0',
};

/** The request's options: a dry run never carries the canary (it plans one pass) */
export function redriveOptions(
  queue: string,
  f: RedriveFields,
  o: { filter: string | undefined; insist: boolean; edit: CheckedEdit | undefined; dry: boolean },
): RedriveOptions {
  return {
    queue,
    to: f.to,
    ...(o.filter ? { filter: o.filter } : {}),
    ...(Number(f.rate) > 0 ? { rate: Number(f.rate) } : {}),
    ...(o.insist ? { insist: o.insist } : {}),
    ...(!o.dry && f.canary.trim() !== ''
      ? {
          canary: Number(f.canary),
          canaryWaitMs: Number(f.canaryWait),
          maxRefail: /^[0-9]+$/.test(f.maxRefail.trim()) ? Number(f.maxRefail) : f.maxRefail.trim(),
        }
      : {}),
    ...(o.edit?.patch ? { patch: o.edit.patch } : {}),
    ...(o.edit?.setHeaders ? { setHeaders: o.edit.setHeaders } : {}),
  };
}

/** the canary's fields: first batch, wait, how many may come back */
const CANARY_FIELDS = [
  {
    key: 'canary',
    label: 'canary',
    aria: 'Canary: first batch',
    testid: 'canary-size',
    placeholder: 'N',
    width: 'w-12',
  },
  {
    key: 'canaryWait',
    label: 'wait ms',
    aria: 'Canary: wait (ms)',
    testid: 'canary-wait',
    placeholder: undefined,
    width: 'w-14',
  },
  {
    key: 'maxRefail',
    label: 'max back',
    aria: 'Canary: how many may come back (count, ratio or %)',
    testid: 'canary-max-refail',
    placeholder: undefined,
    width: 'w-12',
  },
] as const;

export function RedriveForm({
  what,
  fields,
  onFields,
  editing,
  onEditing,
  canStart,
  canPlan,
  planning,
  onDryRun,
  onRedrive,
  children,
}: {
  /** what is re-driven: "all", "the selected group", "message X" */
  what: string;
  fields: RedriveFields;
  onFields: (f: RedriveFields) => void;
  editing: boolean;
  onEditing: (on: boolean) => void;
  canStart: boolean;
  canPlan: boolean;
  planning: boolean;
  onDryRun: () => void;
  onRedrive: () => void;
  /** the copy editor, when editing */
  children?: ReactNode;
}) {
  const field = (k: keyof RedriveFields) => ({
    value: fields[k],
    onChange: (e: { target: { value: string } }) => onFields({ ...fields, [k]: e.target.value }),
  });
  return (
    <div className="mt-1 border-t border-slate-800 pt-1.5">
      <div className="mb-1 text-[11px] font-semibold text-slate-300">Re-drive {what}</div>
      <div className="flex flex-wrap items-center gap-1.5">
        <input
          aria-label="Re-drive to"
          data-testid="redrive-to"
          title="original, EXCHANGE, EXCHANGE:ROUTING_KEY or :QUEUE"
          className={`${input} w-32`}
          {...field('to')}
        />
        <input
          aria-label="Rate (messages per second)"
          placeholder="msg/s"
          className={`${input} w-16`}
          {...field('rate')}
        />
        <button
          type="button"
          data-testid="redrive-dry-run"
          disabled={!canPlan}
          onClick={onDryRun}
          className={`${btn} bg-slate-700 hover:bg-slate-600`}
        >
          {planning ? 'Planning…' : 'Dry run'}
        </button>
        <button
          type="button"
          data-testid="redrive-start"
          disabled={!canStart}
          onClick={onRedrive}
          className={`${btn} bg-emerald-700 hover:bg-emerald-600`}
        >
          Re-drive
        </button>
      </div>
      <div
        className="mt-1 flex flex-wrap items-center gap-1.5"
        title="Canary: move N first, watch what the consumers do with them, then continue in growing batches (N, 2N, 4N…) or stop when more than R came back"
      >
        {CANARY_FIELDS.map((c) => (
          <label key={c.key} className="flex items-center gap-1">
            {c.label}
            <input
              aria-label={c.aria}
              data-testid={c.testid}
              placeholder={c.placeholder}
              className={`${input} ${c.width}`}
              {...field(c.key)}
            />
          </label>
        ))}
        <label className="flex items-center gap-1">
          <input
            type="checkbox"
            data-testid="redrive-edit-toggle"
            checked={editing}
            onChange={(e) => onEditing(e.target.checked)}
          />{' '}
          edit copies
        </label>
      </div>
      {children}
      <p className="mt-1 text-[10px] text-slate-500">
        Each copy is confirmed by the broker before its original is acked: at least once, a crash can duplicate a
        message in flight, never lose one.
      </p>
    </div>
  );
}

export function RedrivePlanView({ plan, bounce }: { plan: RedrivePlan; bounce: readonly BounceWarning[] }) {
  return (
    <div data-testid="redrive-plan" className="rounded border border-slate-700 p-1.5 text-[11px]">
      <div>
        Dry run: {plan.moved} would move, {plan.items.length - plan.moved} would stay, {plan.filteredOut} filtered out.
        Nothing changed.
      </div>
      <Counts byDestination={plan.byDestination} skipped={plan.skipped} />
      <Staying items={plan.items} />
      {bounce.map((w) => (
        <div key={w.queue + w.kind} data-testid="redrive-bounce" data-kind={w.kind} className="text-amber-300">
          ⚠ {w.message}
        </div>
      ))}
      <div className="mt-1 text-slate-400">{plan.xDeathNote}</div>
    </div>
  );
}

/** A plain (not canary) re-drive's progress, with pause, resume and cancel while it runs. */
export function RedriveStatus({
  job,
  onControl,
}: {
  job: RedriveProgress;
  onControl: (a: 'pause' | 'resume' | 'cancel') => void;
}) {
  const running = job.status === 'running' || job.status === 'paused';
  return (
    <div
      data-testid="redrive-status"
      data-id={job.id}
      data-status={job.status}
      data-moved={job.moved}
      className="rounded border border-slate-700 p-1.5 text-[11px]"
    >
      <div>
        Re-drive {job.id}: <b>{job.status}</b>, moved {job.moved} of {job.before}, left {job.left}
        {job.filteredOut ? ` (${job.filteredOut} filtered out)` : ''}
      </div>
      <progress className="w-full" max={Math.max(1, job.before)} value={job.moved + job.left} />
      <Counts byDestination={job.byDestination} skipped={job.skipped} />
      {job.reconnecting && (
        <div className="text-amber-300">connection lost ({job.lastLoss}): reconnecting, nothing is lost meanwhile</div>
      )}
      {job.duplicatesPossible > 0 && (
        <div className="text-amber-300">
          {job.duplicatesPossible} possible duplicates: copies in flight at the crash
        </div>
      )}
      {job.error && <div className="text-red-300">{job.error}</div>}
      {running && (
        <div className="mt-1 flex gap-1.5">
          <button
            type="button"
            data-testid="redrive-pause"
            onClick={() => onControl(job.status === 'paused' ? 'resume' : 'pause')}
            className={`${btn} bg-slate-700`}
          >
            {job.status === 'paused' ? 'Resume' : 'Pause'}
          </button>
          <button
            type="button"
            data-testid="redrive-cancel"
            onClick={() => onControl('cancel')}
            className={`${btn} bg-red-800`}
          >
            Cancel
          </button>
        </div>
      )}
      {!running &&
        job.notes.map((n) => (
          <p key={n} className="mt-1 text-slate-400">
            {n}
          </p>
        ))}
    </div>
  );
}
