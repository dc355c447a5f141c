/** A canary re-drive's progress: the batch, moved / through / back / waiting, each verdict and why it stopped. */
import type { CanaryProgress, DeadLetterMessage } from '@retry-studio/topology-core/operate';
import { firstDeath, REDRIVE_COUNT_HEADER } from '@retry-studio/topology-core/operate';
import { canaryReturns } from './canaryReturns';

/**
 * `listing`: the dead-letter queue as browsed after the run: when the returns were seen by the
 * queue's depth only (no tap: which copies is not known), the copies there that carry
 * x-redrive-count are the ones that came back.
 */
export function CanaryStatus({ job, listing }: { job: CanaryProgress; listing?: readonly DeadLetterMessage[] }) {
  const { unnamed, listed: backInListing } = canaryReturns(job, listing);
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
      {job.back > 0 && (
        <div className="mt-1">
          <div className="font-semibold text-slate-300">Came back (the rest stays untouched):</div>
          <ul data-testid="canary-returned" className="font-mono text-[10px]">
            {job.returned.map((r, i) => (
              <li key={i}>
                {r.messageId ?? r.body.slice(0, 40)}: died again in {r.queue} ({r.reason}), re-driven {r.redriveCount}×
              </li>
            ))}
            {backInListing.map((m) => {
              const d = firstDeath(m);
              return (
                <li key={`listed-${m.seq}`} data-testid="canary-returned-listed">
                  {m.properties?.messageId ?? m.body.slice(0, 40)}: in the dead-letter queue again
                  {d ? ` (${d.queue}, ${d.reason})` : ''}, re-driven {String(m.headers[REDRIVE_COUNT_HEADER])}×
                </li>
              );
            })}
          </ul>
          {unnamed > 0 && (
            <div data-testid="canary-returned-unnamed" className="text-slate-400">
              {unnamed} of the {job.back} were counted by the dead-letter queue&apos;s depth, not seen one by one
              {listing
                ? backInListing.length > 0
                  ? ': listed above from the browse after the run (they carry x-redrive-count).'
                  : '; the browse after the run shows none with x-redrive-count (read more, or browse again).'
                : '; browse after the run to see them.'}
            </div>
          )}
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
