/**
 * Dead letters of one queue: browse (what looking changes is said first), grouped by cause,
 * each message with its headers and x-death table; then re-drive, all or one cause group,
 * after a dry run that says where each message would go.
 */
import { useEffect, useRef, useState } from 'react';
import {
  causeOf,
  messageDigest,
  type BounceWarning,
  type DeadLetterMessage,
  type RedrivePlan,
} from '@retry-studio/topology-core/operate';
import type { BrowseResponse, JobProgress } from '@retry-studio/contract';
import { CanaryStatus } from '../operate/CanaryStatus';
import { checkEdit, EditCopies, type EditState } from '../operate/EditCopies';
import { isCanary, operateApi, type RedriveOptions } from '../operate/operateApi';
import { useOperate } from '../operate/operateStore';
import { useOperateScope } from '../operate/useOperateScope';
import { operateTarget } from './OperatePanel';

import { Counts, Folded, Message, Staying, btn, editable, errText, input } from './deadLetterParts';

export function DeadLetterPanel() {
  const queue = useOperate((s) => s.dlqQueue);
  const set = useOperate.getState().set;
  const [limit, setLimit] = useState(100);
  const [insist, setInsist] = useState(false);
  const [busy, setBusy] = useState<null | 'browse' | 'dry' | 'redrive'>(null);
  const [error, setError] = useState<string | null>(null);
  const [listing, setListing] = useState<BrowseResponse | null>(null);
  const [group, setGroup] = useState<string>('');
  const [to, setTo] = useState('original');
  const [rate, setRate] = useState('');
  const [plan, setPlan] = useState<{ plan: RedrivePlan; bounce: readonly BounceWarning[]; selection: string } | null>(
    null,
  );
  const [job, setJob] = useState<JobProgress | null>(null);
  const [jobSelection, setJobSelection] = useState('');
  const [canary, setCanary] = useState('');
  const [canaryWait, setCanaryWait] = useState('5000');
  const [maxRefail, setMaxRefail] = useState('0');
  const [editing, setEditing] = useState(false);
  const [edit, setEdit] = useState<EditState>({ text: '', headers: '' });
  const checked = checkEdit(edit);

  // every result here belongs to the design and vhost it was read for: another's is never shown
  const scope = useOperateScope();
  const shownScope = useRef(scope);
  useEffect(() => {
    if (shownScope.current === scope) return;
    shownScope.current = scope;
    setListing(null);
    setPlan(null);
    setError(null);
    setGroup('');
    setEditing(false);
    setEdit({ text: '', headers: '' });
    setJob((j) => (j && (j.status === 'running' || j.status === 'paused') ? j : null));
  }, [scope]);
  // what the dry run and the re-drive were made for: a result for another selection is folded and marked
  const selection = JSON.stringify([queue, group, to, editing ? (edit.single?.filter ?? 'all') : null]);

  const running = job?.status === 'running' || job?.status === 'paused';
  useEffect(() => {
    if (!running || !job) return;
    const t = setInterval(() => {
      operateApi.progress(job.id).then(setJob, (e: unknown) => setError(errText(e)));
    }, 500);
    return () => clearInterval(t);
  }, [running, job?.id]);
  // the listing is stale once a re-drive ends: read it again
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !running && listing) void browse();
    wasRunning.current = running;
  }, [running]);

  const run = async (what: 'browse' | 'dry' | 'redrive', f: () => Promise<void>) => {
    setBusy(what);
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(errText(e));
    } finally {
      setBusy(null);
    }
  };
  const filter = editing && edit.single ? edit.single.filter : group ? `cause=${group}` : undefined;
  const options = (dry = false): RedriveOptions => ({
    queue,
    to,
    ...(filter ? { filter } : {}),
    ...(Number(rate) > 0 ? { rate: Number(rate) } : {}),
    ...(insist ? { insist } : {}),
    ...(!dry && canary.trim() !== ''
      ? {
          canary: Number(canary),
          canaryWaitMs: Number(canaryWait),
          maxRefail: /^[0-9]+$/.test(maxRefail.trim()) ? Number(maxRefail) : maxRefail.trim(),
        }
      : {}),
    ...(editing && checked.patch ? { patch: checked.patch } : {}),
    ...(editing && checked.setHeaders ? { setHeaders: checked.setHeaders } : {}),
  });
  const browse = () =>
    run('browse', async () => setListing(await operateApi.browse(operateTarget(), queue, limit, insist)));
  const dryRun = () =>
    run('dry', async () => setPlan({ ...(await operateApi.dryRun(operateTarget(), options(true))), selection }));
  const editOne = (m: DeadLetterMessage) => {
    setEditing(true);
    // a message-id names it; without one (amqplib publishes carry none) its position and digest do, checked again on the server
    const id = m.properties?.messageId;
    setEdit({
      text: editable(m.body),
      headers: edit.headers,
      single: id
        ? { label: id, filter: `message-id=${id}` }
        : { label: `#${m.seq}`, filter: `message=${m.seq}:${messageDigest(m)}` },
    });
  };
  const redrive = () =>
    run('redrive', async () => {
      setPlan(null);
      setJob(await operateApi.redrive(operateTarget(), options()));
      setJobSelection(selection);
    });
  // Browse on the Operate tab reads at once (one click), not just fills in the queue
  const browseAsked = useOperate((s) => s.browseAsked);
  useEffect(() => {
    if (!browseAsked) return;
    set({ browseAsked: false });
    if (queue) void browse();
  }, [browseAsked]);
  const control = (a: 'pause' | 'resume' | 'cancel') =>
    job && run('redrive', async () => setJob(await operateApi.control(job.id, a)));

  return (
    <div data-testid="dead-letter-panel" className="flex h-full min-h-0 gap-3 p-2 text-xs">
      <div className="flex w-[340px] shrink-0 flex-col gap-1.5 overflow-auto">
        <div className="flex items-center gap-1.5">
          <input
            aria-label="Dead-letter queue"
            data-testid="dlq-queue"
            placeholder="queue"
            className={`${input} flex-1`}
            value={queue}
            onChange={(e) => set({ dlqQueue: e.target.value })}
          />
          <input
            aria-label="How many"
            type="number"
            min={1}
            max={10000}
            className={`${input} w-16`}
            value={limit}
            onChange={(e) => setLimit(Math.max(1, Number(e.target.value) || 1))}
          />
          <button
            type="button"
            data-testid="dlq-browse"
            disabled={!queue || !!busy}
            onClick={browse}
            className={`${btn} bg-sky-700 hover:bg-sky-600`}
          >
            {busy === 'browse' ? 'Reading…' : 'Browse'}
          </button>
        </div>
        <label
          className="flex items-center gap-1 text-[11px] text-slate-400"
          title="A quorum queue before RabbitMQ 4.3 counts every look toward its delivery limit"
        >
          <input type="checkbox" checked={insist} onChange={(e) => setInsist(e.target.checked)} /> insist (quorum queue
          before 4.3)
        </label>
        {error && (
          <div
            role="alert"
            data-testid="dlq-error"
            className="rounded border border-red-700 bg-red-950/60 p-1.5 text-red-200"
          >
            {error}
          </div>
        )}
        {listing && (
          <>
            <div
              data-testid="dlq-effect"
              className="rounded border border-amber-700/60 bg-amber-950/30 p-1.5 text-[11px] text-amber-100"
            >
              {listing.queueType} queue, RabbitMQ {listing.brokerVersion}: {listing.effect.message}
            </div>
            <div className="text-[11px] text-slate-400">
              {listing.depth} message(s) in {listing.queue}; showing {listing.messages.length}, read in{' '}
              {listing.elapsedMs} ms
            </div>
            <div className="text-[11px] font-semibold text-slate-300">By cause (click to re-drive one group)</div>
            <ul className="space-y-0.5">
              {listing.groups.map((g) => (
                <li key={g.key}>
                  <button
                    type="button"
                    data-testid="dlq-group"
                    data-key={g.key}
                    data-count={g.count}
                    aria-pressed={group === g.key}
                    onClick={() => {
                      setGroup(group === g.key ? '' : g.key);
                      // a group picked: the one-message edit is over
                      if (edit.single) setEdit({ text: '', headers: edit.headers });
                    }}
                    className={`flex w-full items-center gap-2 rounded px-1 py-0.5 text-left ${group === g.key ? 'bg-sky-900/70' : 'hover:bg-slate-800'}`}
                  >
                    <span className="w-10 shrink-0 text-right font-semibold">{g.count}</span>
                    <span className="truncate">
                      {g.queue || '?'} · {g.reason}
                      {g.exception ? <span className="text-rose-300"> · {g.exception}</span> : null}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
        <div className="mt-1 border-t border-slate-800 pt-1.5">
          <div className="mb-1 text-[11px] font-semibold text-slate-300">
            Re-drive {editing && edit.single ? `message ${edit.single.label}` : group ? 'the selected group' : 'all'}
          </div>
          <div className="flex flex-wrap items-center gap-1.5">
            <input
              aria-label="Re-drive to"
              data-testid="redrive-to"
              title="original, EXCHANGE, EXCHANGE:ROUTING_KEY or :QUEUE"
              className={`${input} w-32`}
              value={to}
              onChange={(e) => setTo(e.target.value)}
            />
            <input
              aria-label="Rate (messages per second)"
              placeholder="msg/s"
              className={`${input} w-16`}
              value={rate}
              onChange={(e) => setRate(e.target.value)}
            />
            <button
              type="button"
              data-testid="redrive-dry-run"
              disabled={!queue || !!busy || running}
              onClick={dryRun}
              className={`${btn} bg-slate-700 hover:bg-slate-600`}
            >
              {busy === 'dry' ? 'Planning…' : 'Dry run'}
            </button>
            <button
              type="button"
              data-testid="redrive-start"
              disabled={!queue || !!busy || running || (editing && checked.problems.length > 0)}
              onClick={redrive}
              className={`${btn} bg-emerald-700 hover:bg-emerald-600`}
            >
              Re-drive
            </button>
          </div>
          <div
            className="mt-1 flex flex-wrap items-center gap-1.5"
            title="Canary: move N first, watch what the consumers do with them, then continue in growing batches (N, 2N, 4N…) or stop when more than R came back"
          >
            <label className="flex items-center gap-1">
              canary
              <input
                aria-label="Canary: first batch"
                data-testid="canary-size"
                placeholder="N"
                className={`${input} w-12`}
                value={canary}
                onChange={(e) => setCanary(e.target.value)}
              />
            </label>
            <label className="flex items-center gap-1">
              wait ms
              <input
                aria-label="Canary: wait (ms)"
                data-testid="canary-wait"
                className={`${input} w-14`}
                value={canaryWait}
                onChange={(e) => setCanaryWait(e.target.value)}
              />
            </label>
            <label className="flex items-center gap-1">
              max back
              <input
                aria-label="Canary: how many may come back (count, ratio or %)"
                data-testid="canary-max-refail"
                className={`${input} w-12`}
                value={maxRefail}
                onChange={(e) => setMaxRefail(e.target.value)}
              />
            </label>
            <label className="flex items-center gap-1">
              <input
                type="checkbox"
                data-testid="redrive-edit-toggle"
                checked={editing}
                onChange={(e) => setEditing(e.target.checked)}
              />{' '}
              edit copies
            </label>
          </div>
          {editing && (
            <EditCopies
              edit={edit}
              onChange={setEdit}
              sample={listing?.messages.find((m) => !group || causeOf(m).key === group)}
            />
          )}
          <p className="mt-1 text-[10px] text-slate-500">
            Each copy is confirmed by the broker before its original is acked: at least once, a crash can duplicate a
            message in flight, never lose one.
          </p>
        </div>
        {plan && (
          <Folded current={plan.selection === selection} what="dry run">
            <div data-testid="redrive-plan" className="rounded border border-slate-700 p-1.5 text-[11px]">
              <div>
                Dry run: {plan.plan.moved} would move, {plan.plan.items.length - plan.plan.moved} would stay,{' '}
                {plan.plan.filteredOut} filtered out. Nothing changed.
              </div>
              <Counts byDestination={plan.plan.byDestination} skipped={plan.plan.skipped} />
              <Staying items={plan.plan.items} />
              {plan.bounce.map((w) => (
                <div key={w.queue + w.kind} data-testid="redrive-bounce" data-kind={w.kind} className="text-amber-300">
                  ⚠ {w.message}
                </div>
              ))}
              <div className="mt-1 text-slate-400">{plan.plan.xDeathNote}</div>
            </div>
          </Folded>
        )}
        {job && isCanary(job) && (
          <Folded current={running || jobSelection === selection} what="canary re-drive">
            <CanaryStatus job={job} />
          </Folded>
        )}
        {job && !isCanary(job) && (
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
              <div className="text-amber-300">
                connection lost ({job.lastLoss}): reconnecting, nothing is lost meanwhile
              </div>
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
                  onClick={() => control(job.status === 'paused' ? 'resume' : 'pause')}
                  className={`${btn} bg-slate-700`}
                >
                  {job.status === 'paused' ? 'Resume' : 'Pause'}
                </button>
                <button
                  type="button"
                  data-testid="redrive-cancel"
                  onClick={() => control('cancel')}
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
        )}
      </div>
      <ul data-testid="dlq-messages" className="min-w-0 flex-1 overflow-auto">
        {listing?.messages.map((m) => (
          <Message key={m.seq} m={m} onEdit={editOne} />
        ))}
        {listing && listing.messages.length === 0 && <li className="text-slate-400">The queue is empty.</li>}
      </ul>
    </div>
  );
}
