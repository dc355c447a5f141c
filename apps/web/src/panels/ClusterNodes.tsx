import type { ClusterView, QueuePlacement } from '@retry-studio/contract';

/** The node view: every node of the broker's cluster, running or not, with its version and what makes a deploy unsafe. */
export function ClusterNodes({ c }: { c: ClusterView }) {
  return (
    <div data-testid="cluster-nodes" className="mt-1">
      <div className="text-[10px] text-slate-400">
        {c.nodes.length === 1 ? 'single node' : `${c.running} of ${c.nodes.length} nodes running`}
      </div>
      <ul>
        {c.nodes.map((n) => (
          <li key={n.name} data-testid="cluster-node" data-running={n.running} className="font-mono text-[10px]">
            <span className={n.running ? 'text-emerald-400' : 'text-red-400'}>{n.running ? '●' : '○'}</span> {n.name}{' '}
            {/* a node just started is listed running before the management plugin has its version */}
            <span className="text-slate-500">{n.running ? (n.version ?? 'version not reported yet') : 'down'}</span>
          </li>
        ))}
      </ul>
      {c.problems.map((p, i) => (
        <div
          key={i}
          role="alert"
          data-testid="cluster-problem"
          className="mt-1 rounded border border-amber-700 bg-amber-950/40 p-1.5 text-[10px] text-amber-100"
        >
          {p.message}
        </div>
      ))}
    </div>
  );
}

/** One queue's replicas in the plan: type, count, leader (or the candidates before it exists). */
export function PlacementLine({ p }: { p: QueuePlacement }) {
  const who = p.leader ? `leader ${p.leader}` : `on ${p.members.join(', ')}`;
  const offline = p.online ? p.members.filter((m) => !p.online!.includes(m)) : [];
  return (
    <div
      data-testid="plan-placement"
      data-replicas={p.replicas}
      className="mt-0.5 font-mono text-[10px] text-slate-400"
    >
      {p.type}, {p.replicas} replica{p.replicas === 1 ? '' : 's'}
      {p.source === 'expected' ? ' (expected)' : ''}, {who}
      {offline.length > 0 && <span className="text-red-300"> — offline: {offline.join(', ')}</span>}
    </div>
  );
}
