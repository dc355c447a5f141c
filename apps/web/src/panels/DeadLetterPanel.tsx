/**
 * Dead letters of one queue: browse (what looking changes is said first), grouped by cause,
 * each message with its headers and x-death table; then re-drive, all or one cause group,
 * after a dry run that says where each message would go.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  causeOf,
  firstDeath,
  messageDigest,
  type BounceWarning,
  type DeadLetterMessage,
  type RedrivePlan,
} from '@retry-studio/topology-core/operate';
import { ApiError } from '../broker/api';
import type { BrowseResponse, JobProgress } from '@retry-studio/contract';
import { CanaryStatus } from '../operate/CanaryStatus';
import { checkEdit, EditCopies, type EditState } from '../operate/EditCopies';
import { isCanary, operateApi, type RedriveOptions } from '../operate/operateApi';
import { useOperate } from '../operate/operateStore';
import { useOperateScope } from '../operate/useOperateScope';
import { operateTarget } from './OperatePanel';

const btn =
  'rounded px-2 py-1 text-xs font-medium disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300';
const input = 'rounded border border-slate-700 bg-slate-950 px-1.5 py-0.5 font-mono text-[11px]';
const when = (s: number | undefined) => (s === undefined ? '' : new Date(s * 1000).toLocaleString());
const errText = (e: unknown) =>
  e instanceof ApiError ? `${e.message}${e.field ? ` (${e.field})` : ''}` : (e as Error).message;

/** the body as the editor starts it: pretty JSON when it is JSON */
const editable = (body: string): string => {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
};

function Message({ m, onEdit }: { m: DeadLetterMessage; onEdit: (m: DeadLetterMessage) => void }) {
  const [open, setOpen] = useState(false);
  const fd = firstDeath(m);
  return (
    <li data-testid="dlq-message" className="border-b border-slate-800 py-0.5">
      <button
        type="button"
        onClick={() => setOpen(!open)}
        className="flex w-full gap-2 text-left text-[11px] hover:bg-slate-900"
      >
        <span className="w-8 shrink-0 text-slate-500">#{m.seq}</span>
        {/* body and cause give way first: the time and "redelivered" always show */}
        <span className="min-w-0 flex-[3] truncate font-mono" title={m.body}>
          {m.body}
        </span>
        <span className="min-w-0 flex-[2] truncate">{fd ? `${fd.queue} · ${fd.reason}` : 'no x-death'}</span>
        <span className="shrink-0 text-slate-400">{when(fd?.time)}</span>
        {m.redelivered && <span className="shrink-0 text-amber-300">redelivered</span>}
      </button>
      {open && (
        <div className="ml-8 space-y-1 py-1 font-mono text-[10px] text-slate-300">
          <table className="border-collapse">
            <thead>
              <tr className="text-slate-500">
                <th className="pr-3 text-left">x-death queue</th>
                <th className="pr-3 text-left">reason</th>
                <th className="pr-3 text-left">count</th>
                <th className="pr-3 text-left">exchange</th>
                <th className="pr-3 text-left">routing keys</th>
                <th className="text-left">time</th>
              </tr>
            </thead>
            <tbody>
              {m.xDeath.map((d, i) => (
                <tr key={i}>
                  <td className="pr-3">{d.queue}</td>
                  <td className="pr-3">{d.reason}</td>
                  <td className="pr-3">{d.count}</td>
                  <td className="pr-3">{d.exchange || '(default)'}</td>
                  <td className="pr-3">{d['routing-keys'].join(', ')}</td>
                  <td>{when(d.time)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <MessageProperties m={m} />
          <pre className="whitespace-pre-wrap break-all">{JSON.stringify(m.headers, null, 1)}</pre>
          <button
            type="button"
            data-testid="dlq-edit-message"
            disabled={m.bodyBytes > 2048}
            title={
              m.bodyBytes > 2048
                ? 'the body is larger than the preview: edit it with a patch'
                : m.properties?.messageId
                  ? 'edit this message, then re-drive it alone (by its message-id)'
                  : 'edit this message, then re-drive it alone (by its position and a digest of its body and headers, checked again before it moves)'
            }
            onClick={() => onEdit(m)}
            className={`${btn} bg-slate-700 hover:bg-slate-600`}
          >
            Edit &amp; re-drive this message
          </button>
        </div>
      )}
    </li>
  );
}

/** The message's AMQP properties (what a consumer branches on): content type, message id, timestamp, delivery mode. */
function MessageProperties({ m }: { m: DeadLetterMessage }) {
  const p = m.properties ?? {};
  const rows: [string, string][] = [
    ['content-type', p.contentType ?? '(none)'],
    ['message-id', p.messageId ?? '(none)'],
    ['timestamp', p.timestamp !== undefined ? when(p.timestamp) : '(none)'],
    ['delivery mode', p.deliveryMode === 2 ? '2 (persistent)' : p.deliveryMode === 1 ? '1 (transient)' : '(none)'],
  ];
  return (
    <table data-testid="dlq-properties" className="border-collapse">
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k}>
            <td className="pr-3 text-slate-500">{k}</td>
            <td data-prop={k}>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One current result per action: a result for another selection (group, message, destination) is folded and says so. */
function Folded({ current, what, children }: { current: boolean; what: string; children: ReactNode }) {
  if (current) return <>{children}</>;
  return (
    <details data-testid="result-earlier" className="rounded border border-slate-800 p-1 text-[11px] text-slate-400">
      <summary className="cursor-pointer">The last {what}, for an earlier selection (folded)</summary>
      <div className="opacity-60">{children}</div>
    </details>
  );
}

/** Which messages stay, by their position in the browse, per reason (a patch that cannot apply to a plain-text body, say). */
function Staying({ items }: { items: RedrivePlan['items'] }) {
  const byReason = new Map<string, number[]>();
  for (const i of items)
    if (i.decision.kind === 'skip')
      byReason.set(i.decision.reason, [...(byReason.get(i.decision.reason) ?? []), i.seq]);
  return (
    <>
      {[...byReason].map(([reason, seqs]) => (
        <div key={reason} data-testid="redrive-staying" className="text-[10px] text-amber-200">
          stay:{' '}
          {seqs
            .slice(0, 20)
            .map((q) => `#${q}`)
            .join(', ')}
          {seqs.length > 20 ? ` and ${seqs.length - 20} more` : ''} ({reason})
        </div>
      ))}
    </>
  );
}

/** How many go where, and how many stay and why (the dry run's prediction, or the job's progress). */
function Counts({
  byDestination,
  skipped,
}: {
  byDestination: Record<string, number>;
  skipped: Record<string, number>;
}) {
  return (
    <>
      {Object.entries(byDestination).map(([d, n]) => (
        <div key={d} className="font-mono">
          {n} → {d}
        </div>
      ))}
      {Object.entries(skipped).map(([r, n]) => (
        <div key={r} className="text-amber-300">
          {n} stay: {r}
        </div>
      ))}
    </>
  );
}

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
