import { useMemo } from 'react';
import { useApp } from '../store/store';
import { player } from '../sim/player';

const EMPTY = { nodes: new Set<string>(), edges: new Set<string>() };

/** Nodes and edge endpoints on the inspected message's path, for highlighting. */
export function useInspectedPath(): { nodes: ReadonlySet<string>; edges: ReadonlySet<string> } {
  const msg = useApp((s) => s.inspectedMsg);
  const simEvents = useApp((s) => s.simEvents);
  const liveEvents = useApp((s) => s.liveEvents);
  return useMemo(() => {
    if (!msg) return EMPTY;
    const tr = player.plans.sim?.byMsg.get(msg) ?? player.plans.live?.byMsg.get(msg);
    if (!tr) return EMPTY;
    const nodes = new Set(tr.stops.map((s) => s.node));
    const pairs = new Set<string>();
    for (let i = 1; i < tr.stops.length; i++) {
      pairs.add(`${tr.stops[i - 1]!.node}>${tr.stops[i]!.node}`);
      pairs.add(`${tr.stops[i]!.node}>${tr.stops[i - 1]!.node}`);
    }
    return { nodes, edges: pairs };
  }, [msg, simEvents, liveEvents]);
}
