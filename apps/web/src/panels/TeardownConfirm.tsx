import type { QueueOccupancy } from '@retry-studio/contract';
import { useApp } from '../store/store';

const btn =
  'rounded px-2 py-1 text-xs disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400';

/** Tear down asks first; with queues that hold messages or have consumers, it says how many messages would go. */
export function TeardownConfirm({
  refused,
  busy,
  onConfirm,
  onCancel,
}: {
  refused: readonly QueueOccupancy[] | undefined;
  busy: boolean;
  onConfirm: (force: boolean) => void;
  onCancel: () => void;
}) {
  const name = useApp((s) => s.design.name);
  const prefix = useApp((s) => s.broker.prefix);
  return (
    <div
      data-testid="teardown-confirm"
      role="alertdialog"
      aria-label="Confirm tear down"
      className="rounded border border-red-700 bg-red-950/40 p-2"
    >
      {refused ? (
        <>
          <p className="mb-1 text-red-200">These queues are not empty or have consumers:</p>
          <ul className="mb-1 font-mono text-[10px]">
            {refused.map((r) => (
              <li key={r.queue}>
                {r.queue}: {r.messages} message(s), {r.consumers} consumer(s)
              </li>
            ))}
          </ul>
          <p className="mb-1">Delete anyway? {refused.reduce((n, r) => n + r.messages, 0)} message(s) will be lost.</p>
          <button
            type="button"
            data-testid="teardown-force"
            disabled={busy}
            onClick={() => onConfirm(true)}
            className={`${btn} bg-red-700 hover:bg-red-600`}
          >
            Delete them and their messages
          </button>
        </>
      ) : (
        <>
          <p className="mb-1">
            Remove what Retry Studio created for “{name}” (prefix “{prefix}”)? Only objects in its manifest are touched.
          </p>
          <button
            type="button"
            data-testid="teardown-confirm-yes"
            disabled={busy}
            onClick={() => onConfirm(false)}
            className={`${btn} bg-red-700 hover:bg-red-600`}
          >
            Yes, tear down
          </button>
        </>
      )}
      <button type="button" onClick={onCancel} className={`${btn} ml-1 bg-slate-700`}>
        Cancel
      </button>
    </div>
  );
}
