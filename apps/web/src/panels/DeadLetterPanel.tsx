/**
 * Dead letters of one queue: browse (what looking changes is said first), grouped by cause,
 * each message with its headers and x-death table; then re-drive, all or one cause group,
 * after a dry run that says where each message would go. Acts on the one broker context
 * (store/brokerSlice.ts): after a deploy, the deployed vhost.
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
import { useApp } from '../store/store';
import { operateAt } from '../broker/target';
import { CanaryStatus } from '../operate/CanaryStatus';
import { checkEdit, EditCopies, type EditState } from '../operate/EditCopies';
import { isCanary, operateApi } from '../operate/operateApi';
import { useOperate } from '../operate/operateStore';
import { useOperateScope } from '../operate/useOperateScope';
import { BrokerContextLine } from './BrokerContextLine';
import { Folded, Message, errText, editable } from './deadLetterParts';
import { BrowseBar, ListingSummary } from './deadLetterListing';
import { DEFAULT_REDRIVE, RedriveForm, RedrivePlanView, RedriveStatus, redriveOptions } from './redriveParts';

type Busy = null | 'browse' | 'dry' | 'redrive';
const NO_EDIT: EditState = { text: '', headers: '' };

/** A re-drive job, polled while it runs; `onEnded` once it stops (the listing is stale then) */
function useRedriveJob(onError: (e: unknown) => void, onEnded: () => void) {
  const [job, setJob] = useState<JobProgress | null>(null);
  const running = job?.status === 'running' || job?.status === 'paused';
  useEffect(() => {
    if (!running || !job) return;
    const t = setInterval(() => operateApi.progress(job.id).then(setJob, onError), 500);
    return () => clearInterval(t);
  }, [running, job?.id]);
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !running) onEnded();
    wasRunning.current = running;
  }, [running]);
  return { job, setJob, running };
}

/** `reset` once the operate scope changes (another design, broker, vhost or prefix) */
function useOnScopeChange(reset: () => void) {
  const scope = useOperateScope();
  const shown = useRef(scope);
  useEffect(() => {
    if (shown.current === scope) return;
    shown.current = scope;
    reset();
  }, [scope]);
}

/** `browse` when the Operate tab asks for it (its Browse buttons), once per ask */
function useBrowseAsked(browse: () => void) {
  const asked = useOperate((s) => s.browseAsked);
  useEffect(() => {
    if (!asked) return;
    useOperate.getState().set({ browseAsked: false });
    browse();
  }, [asked]);
}

/** A single message's edit (named by its message-id, else by its position and a digest checked again on the server) */
function singleEdit(m: DeadLetterMessage, headers: string): EditState {
  const id = m.properties?.messageId;
  return {
    text: editable(m.body),
    headers,
    single: id
      ? { label: id, filter: `message-id=${id}` }
      : { label: `#${m.seq}`, filter: `message=${m.seq}:${messageDigest(m)}` },
  };
}

export function DeadLetterPanel() {
  const queue = useOperate((s) => s.dlqQueue);
  const set = useOperate.getState().set;
  const [limit, setLimit] = useState(100);
  const [insist, setInsist] = useState(false);
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  const [listing, setListing] = useState<BrowseResponse | null>(null);
  const [group, setGroup] = useState<string>('');
  const [fields, setFields] = useState(DEFAULT_REDRIVE);
  const [plan, setPlan] = useState<{ plan: RedrivePlan; bounce: readonly BounceWarning[]; selection: string } | null>(
    null,
  );
  const [jobSelection, setJobSelection] = useState('');
  const [editing, setEditing] = useState(false);
  const [edit, setEdit] = useState<EditState>(NO_EDIT);
  const checked = checkEdit(edit);
  const at = () => operateAt(useApp.getState().broker);

  const run = async (what: Exclude<Busy, null>, f: () => Promise<void>) => {
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
  const browse = () => run('browse', async () => setListing(await operateApi.browse(at(), queue, limit, insist)));
  const { job, setJob, running } = useRedriveJob(
    (e) => setError(errText(e)),
    () => listing && void browse(),
  );

  // every result here belongs to the design and broker context it was read in: another's is never shown
  useOnScopeChange(() => {
    setListing(null);
    setPlan(null);
    setError(null);
    setGroup('');
    setEditing(false);
    setEdit(NO_EDIT);
    setJob((j) => (j && (j.status === 'running' || j.status === 'paused') ? j : null));
  });
  // what the dry run and the re-drive were made for: a result for another selection is folded and marked
  const selection = JSON.stringify([queue, group, fields.to, editing ? (edit.single?.filter ?? 'all') : null]);
  const options = (dry: boolean) =>
    redriveOptions(queue, fields, {
      filter: editing && edit.single ? edit.single.filter : group ? `cause=${group}` : undefined,
      insist,
      edit: editing ? checked : undefined,
      dry,
    });
  const dryRun = () =>
    run('dry', async () => setPlan({ ...(await operateApi.dryRun(at(), options(true))), selection }));
  const redrive = () =>
    run('redrive', async () => {
      setPlan(null);
      setJob(await operateApi.redrive(at(), options(false)));
      setJobSelection(selection);
    });
  // Browse on the Operate tab reads at once (one click), not just fills in the queue
  useBrowseAsked(() => queue && void browse());
  const control = (a: 'pause' | 'resume' | 'cancel') =>
    job && run('redrive', async () => setJob(await operateApi.control(job.id, a)));
  const pickGroup = (key: string) => {
    setGroup(group === key ? '' : key);
    // a group picked: the one-message edit is over
    if (edit.single) setEdit({ text: '', headers: edit.headers });
  };

  return (
    <div data-testid="dead-letter-panel" className="flex h-full min-h-0 gap-3 p-2 text-xs">
      <div className="flex w-[340px] shrink-0 flex-col gap-1.5 overflow-auto">
        <BrokerContextLine panel="dead-letters" prefix={false} />
        <BrowseBar
          queue={queue}
          onQueue={(q) => set({ dlqQueue: q })}
          limit={limit}
          onLimit={setLimit}
          insist={insist}
          onInsist={setInsist}
          reading={busy === 'browse'}
          canBrowse={!!queue && !busy}
          onBrowse={browse}
        />
        {error && (
          <div
            role="alert"
            data-testid="dlq-error"
            className="rounded border border-red-700 bg-red-950/60 p-1.5 text-red-200"
          >
            {error}
          </div>
        )}
        {listing && <ListingSummary listing={listing} group={group} onGroup={pickGroup} />}
        <RedriveForm
          what={editing && edit.single ? `message ${edit.single.label}` : group ? 'the selected group' : 'all'}
          fields={fields}
          onFields={setFields}
          editing={editing}
          onEditing={setEditing}
          canPlan={!!queue && !busy && !running}
          canStart={!!queue && !busy && !running && !(editing && checked.problems.length > 0)}
          planning={busy === 'dry'}
          onDryRun={dryRun}
          onRedrive={redrive}
        >
          {editing && (
            <EditCopies
              edit={edit}
              onChange={setEdit}
              sample={listing?.messages.find((m) => !group || causeOf(m).key === group)}
            />
          )}
        </RedriveForm>
        {plan && (
          <Folded current={plan.selection === selection} what="dry run">
            <RedrivePlanView plan={plan.plan} bounce={plan.bounce} />
          </Folded>
        )}
        {job && isCanary(job) && (
          <Folded current={running || jobSelection === selection} what="canary re-drive">
            <CanaryStatus job={job} listing={running ? undefined : listing?.messages} />
          </Folded>
        )}
        {job && !isCanary(job) && <RedriveStatus job={job} onControl={control} />}
      </div>
      <ul data-testid="dlq-messages" className="min-w-0 flex-1 overflow-auto">
        {listing?.messages.map((m) => (
          <Message
            key={m.seq}
            m={m}
            onEdit={(msg) => {
              setEditing(true);
              setEdit(singleEdit(msg, edit.headers));
            }}
          />
        ))}
        {listing && listing.messages.length === 0 && <li className="text-slate-400">The queue is empty.</li>}
      </ul>
    </div>
  );
}
