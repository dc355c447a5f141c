/**
 * "What if a node goes down", next to the simulation views: which node (a probed cluster's, else
 * a name), when, for how long, how long a quorum queue takes to have a new leader, and which
 * queues are on it. Changing a field runs the simulation again when one is shown.
 */
import { useApp } from '../store/store';
import { runCommand } from '../commands/registry';
import { env } from '../commands/env';
import { queuesOnNode, type NodeLossDraft } from '../sim/nodeLossWhatIf';

/** seconds in the form, ms in the model */
const secs = (ms: number) => Math.round(ms) / 1000;

export function NodeLossControl() {
  const loss = useApp((s) => s.nodeLoss);
  const nodes = useApp((s) => s.clusterNodeNames);
  const placement = useApp((s) => s.queuePlacement);
  const design = useApp((s) => s.design);
  const set = (patch: Partial<NodeLossDraft>) => {
    const s = useApp.getState();
    if (!s.nodeLoss) return;
    s.setNodeLoss({ ...s.nodeLoss, ...patch });
    if (s.simEvents) useApp.getState().runSimulation();
  };
  const field = 'w-12 rounded bg-slate-800 px-1';
  const btn =
    'h-6 rounded px-2 text-xs whitespace-nowrap text-slate-100 bg-slate-700 hover:bg-slate-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-400';
  const on = loss ? queuesOnNode(loss, design, placement) : [];
  return (
    <div data-testid="sim-node-loss-control" className="flex flex-wrap items-center gap-1 px-2 text-xs text-slate-300">
      <button
        type="button"
        data-testid="sim-node-loss"
        aria-pressed={loss !== null}
        className={`${btn} ${loss ? '!bg-amber-700 hover:!bg-amber-600' : ''}`}
        onClick={() => runCommand('toggleNodeLoss', env)}
        aria-label="Node down"
        title="Node down: what if a cluster node goes down (its queues stop delivering: quorum until a new leader, classic until the node is back)"
      >
        Node down
      </button>
      {loss && (
        <span data-testid="sim-node-loss-fields" className="flex flex-wrap items-center gap-1">
          {nodes.length > 0 ? (
            <select
              aria-label="Node that goes down"
              data-testid="sim-node-loss-node"
              className="rounded bg-slate-800 px-1 py-0.5"
              value={loss.node}
              onChange={(e) => set({ node: e.target.value })}
            >
              {[...new Set([...nodes, loss.node])].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          ) : (
            <input
              aria-label="Node that goes down"
              data-testid="sim-node-loss-node"
              className="w-28 rounded bg-slate-800 px-1"
              value={loss.node}
              onChange={(e) => set({ node: e.target.value })}
            />
          )}
          <label className="flex items-center gap-1" title="Virtual time at which the node goes down">
            at s
            <input
              aria-label="Node down at (s)"
              data-testid="sim-node-loss-at"
              type="number"
              min={0}
              step={0.1}
              className={field}
              value={secs(loss.atMs)}
              onChange={(e) => set({ atMs: Math.max(0, Number(e.target.value) * 1000) })}
            />
          </label>
          <label className="flex items-center gap-1" title="How long the node stays down">
            for s
            <input
              aria-label="Node down for (s)"
              data-testid="sim-node-loss-for"
              type="number"
              min={0}
              step={1}
              className={field}
              value={secs(loss.downMs)}
              onChange={(e) => set({ downMs: Math.max(0, Number(e.target.value) * 1000) })}
            />
          </label>
          <label
            className="flex items-center gap-1"
            title="How long a quorum queue it led takes to have a new leader (a graceful stop: about 1 s; a crash: the election timeout)"
          >
            leader s
            <input
              aria-label="Leader moves after (s)"
              data-testid="sim-node-loss-leader"
              type="number"
              min={0}
              step={0.1}
              className={field}
              value={secs(loss.leaderMovesAfterMs)}
              onChange={(e) => set({ leaderMovesAfterMs: Math.max(0, Number(e.target.value) * 1000) })}
            />
          </label>
          <select
            aria-label="Queues on the node"
            data-testid="sim-node-loss-queues"
            className="rounded bg-slate-800 px-1 py-0.5"
            value={loss.queues === 'placement' ? 'placement' : 'all'}
            onChange={(e) =>
              set({ queues: e.target.value === 'placement' ? 'placement' : design.topology.queues.map((q) => q.name) })
            }
            title={`queues on it: ${on.join(', ') || 'none'}`}
          >
            <option value="placement">{placement ? 'its queues (plan)' : 'all queues (not planned)'}</option>
            <option value="all">all queues</option>
          </select>
          <span data-testid="sim-node-loss-count" className="text-slate-400">
            {on.length} queue{on.length === 1 ? '' : 's'}
          </span>
        </span>
      )}
    </div>
  );
}
