import { useMemo } from 'react';
import { useApp } from '../store/store';
import { storiesOf, type Story } from './messageStory';
import { fmtT } from './SimBar';
import { settleText } from './messageStory';
import { seekTo } from './Timeline';

/** Above the node inspector while a message's path stays highlighted: one click back to the message. */
export function BackToMessage({ msgId }: { msgId: string }) {
  return (
    <div className="flex items-center justify-between border-b border-slate-800 px-2 py-1 text-[11px] text-slate-400">
      <button
        type="button"
        data-testid="back-to-message"
        onClick={() => useApp.setState({ messagePane: true })}
        className="truncate rounded px-1 text-sky-300 hover:bg-slate-800"
      >
        ← message {msgId}
      </button>
      <button
        type="button"
        onClick={() => useApp.getState().inspectMessage(null)}
        className="rounded px-1.5 hover:bg-slate-700"
        aria-label="Stop highlighting the message"
        title="Stop highlighting the message's path"
      >
        ✕
      </button>
    </div>
  );
}

/** The side panel while a message is inspected (its path is highlighted on the canvas). */
export function MessagePane() {
  const msg = useApp((s) => s.inspectedMsg);
  const sim = useApp((s) => s.simEvents);
  const live = useApp((s) => s.liveEvents);
  const outcomes = useApp((s) => s.simOutcomes);
  const liveOutcomes = useApp((s) => s.liveOutcomes);
  const stories = useMemo(() => {
    const out: Array<{ source: string; story: Story }> = [];
    for (const [source, evs] of [
      ['simulated', sim],
      ['live', live],
    ] as const) {
      if (!evs || !msg) continue;
      const story = storiesOf(
        evs.filter((e) => e.msgId === msg),
        source === 'simulated' ? outcomes : liveOutcomes,
      )[0];
      if (story) out.push({ source, story });
    }
    return out;
  }, [msg, sim, live, outcomes, liveOutcomes]);
  return (
    <div>
      <div className="flex items-center justify-between border-b border-slate-800 px-2 py-1 text-[11px] text-slate-400">
        <span>Message · path highlighted on the canvas</span>
        <button
          type="button"
          data-testid="message-close"
          onClick={() => useApp.getState().inspectMessage(null)}
          className="rounded px-1.5 hover:bg-slate-700"
          aria-label="Close message"
        >
          ✕
        </button>
      </div>
      {stories.map(({ source, story }) => (
        <div key={source}>
          {stories.length > 1 && (
            <div
              className={`px-2 pt-1 text-[10px] uppercase ${source === 'live' ? 'text-orange-400' : 'text-sky-400'}`}
            >
              {source}
            </div>
          )}
          <MessageDetail story={story} />
        </div>
      ))}
    </div>
  );
}

/** Headers and the x-death table of the inspected message, and its every event. */
export function MessageDetail({ story }: { story: Story }) {
  const headers = Object.entries(story.headers);
  return (
    <section data-testid="message-detail" aria-label="Message" className="p-2 text-[11px] text-slate-300">
      <div className="mb-1 flex items-baseline justify-between gap-2">
        <span className="shrink-0 font-mono text-sm text-slate-100">{story.body}</span>
        <span data-testid="message-outcome" className="text-right text-slate-400">
          {story.fate}
        </span>
      </div>
      <div className="mb-1 font-semibold text-slate-400">Headers (last delivery)</div>
      {headers.length ? (
        <table data-testid="message-headers" className="mb-2 w-full table-fixed">
          <tbody>
            {headers.map(([k, v]) => (
              <tr key={k}>
                <td className="pr-2 align-top font-mono text-slate-400 [overflow-wrap:anywhere]">{k}</td>
                <td className="font-mono [overflow-wrap:anywhere]">{JSON.stringify(v)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div className="mb-2 text-slate-500">no headers</div>
      )}
      <div className="mb-1 font-semibold text-slate-400">x-death (as of its last dead-lettering)</div>
      {story.xDeath.length ? (
        // fixed columns that wrap at dots: the table fits the 320 px side panel instead of running under its edge
        <table data-testid="xdeath-table" className="mb-2 w-full table-fixed border-collapse">
          <colgroup>
            <col style={{ width: '30%' }} />
            <col style={{ width: '19%' }} />
            <col style={{ width: '9%' }} />
            <col style={{ width: '42%' }} />
          </colgroup>
          <thead>
            <tr className="text-left text-slate-500">
              <th className="pr-1 font-normal">queue</th>
              <th className="pr-1 font-normal">reason</th>
              <th className="pr-1 font-normal" title="count">
                #
              </th>
              <th className="font-normal">exchange → routing keys</th>
            </tr>
          </thead>
          <tbody>
            {story.xDeath.map((d, i) => (
              <tr key={i} className="border-t border-slate-800 align-top font-mono">
                <td className="pr-1">{breakable(d.queue)}</td>
                <td className="pr-1">{d.reason}</td>
                <td className="pr-1">{d.count}</td>
                <td>
                  {breakable(d.exchange || '(default)')} → {breakable(d['routing-keys'].join(', '))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div data-testid="xdeath-empty" className="mb-2 text-slate-500">
          no x-death (never dead-lettered)
        </div>
      )}
      <div className="mb-1 font-semibold text-slate-400">Path ({story.events.length} events)</div>
      <ol data-testid="message-path" className="space-y-px">
        {story.events.map((e, i) => (
          <li key={i}>
            <button
              type="button"
              className="flex w-full gap-1 text-left font-mono hover:bg-slate-800"
              onClick={() => seekTo(e)}
              title={`at ${fmtT(e.t)}`}
            >
              {/* an instant's time is printed once, on its first event: not "0 ms" twenty times in a row */}
              <span className="w-16 shrink-0 text-slate-500">
                {i > 0 && story.events[i - 1]!.t === e.t ? '' : fmtT(e.t)}
              </span>
              <span className="min-w-0 [overflow-wrap:anywhere]">{describe(e)}</span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Names break after their dots (and only there) when a column is narrow. */
function breakable(name: string) {
  const parts = name.split('.');
  return parts.map((p, i) => (
    <span key={i}>
      {p}
      {i < parts.length - 1 ? (
        <>
          .<wbr />
        </>
      ) : null}
    </span>
  ));
}

function describe(e: Story['events'][number]): string {
  switch (e.kind) {
    case 'published':
      return `published → ${e.exchange || '(default)'} [${e.routingKey}]`;
    case 'routed':
      return `routed by ${e.exchange || '(default)'} → ${[...e.queues, ...e.exchanges].join(', ') || 'nowhere'}`;
    case 'enqueued':
      return `enqueued in ${e.queue}${e.expiresAt !== undefined ? ` (expires at ${fmtT(e.expiresAt)})` : ''}`;
    case 'delivered':
      return `delivered from ${e.queue} to ${e.consumer}${e.redelivered ? ' (redelivered)' : ''}`;
    case 'processed':
      return `${e.consumer} attempt ${e.attempt}: ${e.ok ? 'ok' : 'failed'}`;
    case 'dead-lettered':
      return `dead-lettered from ${e.queue} (${e.reason}) → ${e.exchange || '(default)'} [${e.routingKeys.join(',')}]`;
    case 'delayed':
      return `held by ${e.exchange} for ${fmtT(e.delayMs)}`;
    case 'dropped':
      return `dropped: ${e.why}`;
    case 'unroutable':
      return `unroutable at ${e.exchange}`;
    case 'acked':
    case 'rejected':
    case 'requeued':
      return settleText(e);
    default:
      return `${e.kind}${'queue' in e ? ` ${e.queue}` : ''}${'consumer' in e ? ` by ${e.consumer}` : ''}`;
  }
}
