/** A canary re-drive's progress: the batch, moved / through / back / waiting, each verdict and why it stopped. */
import type { CanaryProgress } from '@retry-studio/topology-core/operate';

export function CanaryStatus({ job }: { job: CanaryProgress }) {
  return (
    <div
      data-testid="canary-status"
      data-id={job.id}
      data-status={job.status}
      data-moved={job.moved}
      data-back={job.back}
      data-batches={job.batches.length}
      className="rounded border border-slate-700 p-1.5 text-[11px]"
    >
      <div>
        Canary {job.id}: <b>{job.status}</b>
        {job.status === 'running' ? ` (batch ${job.batch}, ${job.phase})` : ''}: {job.moved} of {job.selection} moved ·{' '}
        {job.through} through · {job.back} back · {job.waiting} waiting · {job.untouched} untouched
      </div>
      <progress className="w-full" max={Math.max(1, job.selection)} value={job.moved} />
      <ol className="space-y-0.5">
        {job.batches.map((b) => (
          <li
            key={b.index}
            data-testid="canary-batch"
            className={b.verdict?.kind === 'stop' ? 'text-rose-300' : 'text-slate-300'}
          >
            batch {b.index + 1}: {b.moved}/{b.size} moved, {b.through} through, {b.back} back, {b.waiting} waiting
            {b.verdictMs !== undefined ? ` · verdict after ${b.verdictMs} ms` : ''}
            {b.verdict
              ? ` · ${b.verdict.kind}${b.verdict.basis === 'timeout' ? ' (on a timeout: nothing came back within the wait)' : ' (returns seen)'}`
              : ''}
          </li>
        ))}
      </ol>
      {job.stopReason && (
        <div
          data-testid="canary-stop-reason"
          className={job.status === 'stopped' ? 'text-rose-300' : 'text-emerald-300'}
        >
          {job.stopReason}
        </div>
      )}
      {job.returned.length > 0 && (
        <div className="mt-1">
          <div className="font-semibold text-slate-300">Came back (the rest stays untouched):</div>
          <ul data-testid="canary-returned" className="font-mono text-[10px]">
            {job.returned.map((r, i) => (
              <li key={i}>
                {r.messageId ?? r.body.slice(0, 40)}: died again in {r.queue} ({r.reason}), re-driven {r.redriveCount}×
              </li>
            ))}
          </ul>
        </div>
      )}
      <div className="text-slate-500">
        returns seen by {job.watchedBy === 'tap' ? 'a tap on the dead-letter bindings' : 'the dead-letter queue depth'};
        destinations only watched by depth
      </div>
      {job.error && <div className="text-red-300">{job.error}</div>}
    </div>
  );
}
