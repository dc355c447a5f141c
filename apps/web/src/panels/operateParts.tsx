/** The Operate tab's pieces: the context's vhost and prefix, the import's summary, its groups, where messages pile up. */
import type { ImportResponse, QueueDepth } from '@retry-studio/contract';
import type { ImportRole, NodeGroup } from '@retry-studio/topology-core/operate';
import { namePrefix } from '@retry-studio/topology-core/operate';
import { useApp } from '../store/store';
import { vhostNamedBy } from '../broker/amqpUrlPreview';

export const btn =
  'rounded px-2.5 py-1 text-xs font-medium disabled:opacity-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-300';
const input = 'w-full rounded border border-slate-700 bg-slate-950 px-2 py-1 font-mono text-[11px]';

/** One field of the broker context, as Operate shows it */
function ContextField(props: {
  id: string;
  label: string;
  title: string;
  value: string;
  placeholder: string;
  onChange: (v: string) => void;
}) {
  return (
    <div className="flex-1">
      <label htmlFor={props.id} className="mb-0.5 block text-[11px] text-slate-400" title={props.title}>
        {props.label}
      </label>
      <input
        id={props.id}
        data-testid={props.id}
        className={input}
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

/** The vhost and prefix of the one broker context, where an operator sets them (the Broker tab's fields are the same) */
export function OperateContextFields() {
  const broker = useApp((s) => s.broker);
  const urlVhost = vhostNamedBy(broker.url);
  const setBroker = useApp.getState().setBroker;
  return (
    <div className="flex gap-2">
      <ContextField
        id="operate-vhost"
        label="Vhost"
        title="empty: the vhost the broker URL names"
        value={broker.vhost}
        placeholder={urlVhost ? `${urlVhost} (the broker URL's)` : "the broker URL's"}
        onChange={(vhost) => setBroker({ vhost })}
      />
      <ContextField
        id="operate-prefix"
        label="Name prefix"
        title="the open design's queues are prefix + name on the broker (a deployed design); none for an imported vhost"
        value={broker.prefix}
        placeholder="none"
        onChange={(prefix) => setBroker({ prefix })}
      />
    </div>
  );
}

/** What the import read; `prefixWas`: the context's prefix before it (the imported names are the broker's) */
export function ImportedSummary({ imported, prefixWas }: { imported: ImportResponse; prefixWas: string }) {
  return (
    <div data-testid="operate-imported" className="rounded border border-slate-700 bg-slate-950/60 p-2">
      RabbitMQ {imported.rabbitVersion}, vhost “{imported.vhost}” (profile {imported.design.profile}
      {imported.v43 ? ', 4.3 rules' : ''}): {imported.design.topology.queues.length} queues,{' '}
      {imported.design.topology.exchanges.length} exchanges; {imported.design.consumers.length} workers and{' '}
      {imported.design.publishers.length} publishers scaffolded; {imported.lint.length} lint finding(s). Read in{' '}
      {imported.timings.readMs} ms.
      {prefixWas !== '' && (
        <div data-testid="operate-prefix-note" className="mt-1 text-slate-400">
          Names as on the broker: the prefix “{prefixWas}” is now none.
        </div>
      )}
      {imported.skipped.length > 0 && (
        <div className="mt-1 text-amber-300">
          Skipped {imported.skipped.length}:{' '}
          {imported.skipped
            .slice(0, 4)
            .map((s) => `${s.name} (${s.reason})`)
            .join('; ')}
        </div>
      )}
    </div>
  );
}

/** A large vhost's groups by name prefix, one drawn at a time */
export function ImportGroups({
  imported,
  groups,
  openGroup,
  depths,
  onOpen,
}: {
  imported: ImportResponse;
  groups: readonly NodeGroup[];
  openGroup: string | null;
  depths: Record<string, QueueDepth>;
  onOpen: (key: string) => void;
}) {
  const prefix = useApp((s) => s.broker.prefix);
  return (
    <div data-testid="operate-groups">
      <div className="mb-1 text-[11px] font-semibold text-slate-300">
        {groups.length} groups by name prefix ({imported.design.topology.queues.length} queues): one is drawn at a time
      </div>
      <ul className="max-h-64 space-y-0.5 overflow-auto">
        {groups.map((g) => {
          const ready = imported.design.topology.queues
            .filter((q) => namePrefix(q.name) === g.key)
            .reduce((n, q) => n + (depths[prefix + q.name]?.ready ?? 0), 0);
          return (
            <li key={g.key}>
              <button
                type="button"
                data-testid="operate-group"
                data-key={g.key}
                aria-pressed={openGroup === g.key}
                onClick={() => onOpen(g.key)}
                className={`flex w-full justify-between rounded px-1 text-left font-mono text-[11px] ${openGroup === g.key ? 'bg-sky-900/70' : 'hover:bg-slate-800'}`}
              >
                <span className="truncate">{g.key}</span>
                <span className="text-slate-400">
                  {g.queues} queues{ready ? ` · ${ready} ready` : ''}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The queues holding the most ready messages and the parking queues, each with Browse (names are the design's) */
export function PiledUp({
  depths,
  roles,
  onBrowse,
}: {
  depths: Record<string, QueueDepth>;
  roles: Record<string, ImportRole>;
  onBrowse: (designQueue: string) => void;
}) {
  const prefix = useApp((s) => s.broker.prefix);
  const parking = Object.entries(roles)
    .filter(([, r]) => r === 'parking')
    .map(([q]) => q);
  const piled = Object.values(depths)
    .filter((d) => d.ready > 0 && d.name.startsWith(prefix))
    .sort((a, b) => b.ready - a.ready)
    .slice(0, 8);
  if (parking.length === 0 && piled.length === 0) return null;
  return (
    <div>
      <div className="mb-1 text-[11px] font-semibold text-slate-300">Where messages pile up</div>
      <ul className="space-y-0.5">
        {[...new Set([...piled.map((d) => d.name.slice(prefix.length)), ...parking])].map((q) => (
          <li key={q} className="flex items-center justify-between gap-2">
            <span className="truncate font-mono text-[11px]">
              {q}
              {roles[q] === 'parking' ? <span className="ml-1 text-rose-300">parking</span> : null}
              {depths[prefix + q] ? (
                <span className="ml-1 text-slate-400">{depths[prefix + q]!.ready} ready</span>
              ) : null}
            </span>
            <button
              type="button"
              data-testid={`operate-browse-${q}`}
              onClick={() => onBrowse(q)}
              className={`${btn} bg-slate-700 hover:bg-slate-600`}
            >
              Browse
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
