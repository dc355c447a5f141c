/** The dead-letter panel's browse side: which queue (the broker's name) and how many, then what looking changed and the causes. */
import type { BrowseResponse } from '@retry-studio/contract';
import { btn, input } from './deadLetterParts';

export function BrowseBar({
  queue,
  onQueue,
  limit,
  onLimit,
  insist,
  onInsist,
  reading,
  canBrowse,
  onBrowse,
}: {
  queue: string;
  onQueue: (q: string) => void;
  limit: number;
  onLimit: (n: number) => void;
  insist: boolean;
  onInsist: (on: boolean) => void;
  reading: boolean;
  canBrowse: boolean;
  onBrowse: () => void;
}) {
  return (
    <>
      <div className="flex items-center gap-1.5">
        <input
          aria-label="Dead-letter queue (its name on the broker)"
          data-testid="dlq-queue"
          placeholder="queue (its name on the broker)"
          className={`${input} flex-1`}
          value={queue}
          onChange={(e) => onQueue(e.target.value)}
        />
        <input
          aria-label="How many"
          type="number"
          min={1}
          max={10000}
          className={`${input} w-16`}
          value={limit}
          onChange={(e) => onLimit(Math.max(1, Number(e.target.value) || 1))}
        />
        <button
          type="button"
          data-testid="dlq-browse"
          disabled={!canBrowse}
          onClick={onBrowse}
          className={`${btn} bg-sky-700 hover:bg-sky-600`}
        >
          {reading ? 'Reading…' : 'Browse'}
        </button>
      </div>
      <label
        className="flex items-center gap-1 text-[11px] text-slate-400"
        title="A quorum queue before RabbitMQ 4.3 counts every look toward its delivery limit"
      >
        <input type="checkbox" checked={insist} onChange={(e) => onInsist(e.target.checked)} /> insist (quorum queue
        before 4.3)
      </label>
    </>
  );
}

/** What looking changed, the counts, and the groups by cause (a click picks one for the re-drive) */
export function ListingSummary({
  listing,
  group,
  onGroup,
}: {
  listing: BrowseResponse;
  group: string;
  onGroup: (key: string) => void;
}) {
  return (
    <>
      <div
        data-testid="dlq-effect"
        className="rounded border border-amber-700/60 bg-amber-950/30 p-1.5 text-[11px] text-amber-100"
      >
        {listing.queueType} queue, RabbitMQ {listing.brokerVersion}: {listing.effect.message}
      </div>
      <div className="text-[11px] text-slate-400">
        {listing.depth} message(s) in {listing.queue}; showing {listing.messages.length}, read in {listing.elapsedMs} ms
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
              onClick={() => onGroup(g.key)}
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
  );
}
