/** The dead-letter panel's pieces: one message with its x-death and properties, the re-drive plan's counts and what stays. */
import { useState, type ReactNode } from 'react';
import { firstDeath, type DeadLetterMessage, type RedrivePlan } from '@retry-studio/topology-core/operate';
import { ApiError } from '../broker/api';

export const btn =
  'rounded px-2 py-1 text-xs font-medium disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300';
export const input = 'rounded border border-slate-700 bg-slate-950 px-1.5 py-0.5 font-mono text-[11px]';
export const when = (s: number | undefined) => (s === undefined ? '' : new Date(s * 1000).toLocaleString());
export const errText = (e: unknown) =>
  e instanceof ApiError ? `${e.message}${e.field ? ` (${e.field})` : ''}` : (e as Error).message;

/** the body as the editor starts it: pretty JSON when it is JSON */
export const editable = (body: string): string => {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
};

export function Message({ m, onEdit }: { m: DeadLetterMessage; onEdit: (m: DeadLetterMessage) => void }) {
  const [open, setOpen] = useState(false);
  const fd = firstDeath(m);
  return (
    <li data-testid="dlq-message" className="border-b border-slate-800 py-0.5">
      <button
        type="button"
        onClick={() => setOpen(!open)}
        className="flex w-full gap-2 text-left text-[11px] hover:bg-slate-900"
      >
        {/* named as the application named it (its message-id); its position in the browse when it has none */}
        <span
          data-testid="dlq-message-name"
          title={`#${m.seq} in this browse`}
          className={`max-w-[10rem] shrink-0 truncate ${m.properties?.messageId ? 'font-mono text-slate-200' : 'w-8 text-slate-500'}`}
        >
          {m.properties?.messageId ?? `#${m.seq}`}
        </span>
        {/* body and cause give way first (the body before the cause): the name, time and "redelivered" always show */}
        <span className="min-w-0 flex-[2] truncate font-mono" title={m.body}>
          {m.body}
        </span>
        <span className="min-w-0 flex-[3] truncate" title={fd ? `${fd.queue} · ${fd.reason}` : undefined}>
          {fd ? `${fd.queue} · ${fd.reason}` : 'no x-death'}
        </span>
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
export function MessageProperties({ m }: { m: DeadLetterMessage }) {
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
export function Folded({ current, what, children }: { current: boolean; what: string; children: ReactNode }) {
  if (current) return <>{children}</>;
  return (
    <details data-testid="result-earlier" className="rounded border border-slate-800 p-1 text-[11px] text-slate-400">
      <summary className="cursor-pointer">The last {what}, for an earlier selection (folded)</summary>
      <div className="opacity-60">{children}</div>
    </details>
  );
}

/** Which messages stay, by their position in the browse, per reason (a patch that cannot apply to a plain-text body, say). */
export function Staying({ items }: { items: RedrivePlan['items'] }) {
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
export function Counts({
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
