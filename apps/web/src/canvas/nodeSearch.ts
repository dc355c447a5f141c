/** Finding nodes by name (the canvas's search box): a name that starts with the text first, then one that holds it. */
import type { DesignNode } from '../graph/flowTypes';

export interface NodeMatch {
  id: string;
  name: string;
  kind: string;
}

export function nodeName(n: DesignNode): string {
  const d = n.data;
  return d.kind === 'exchange' || d.kind === 'queue' ? d.def.name || '(default)' : (d.def.label ?? d.def.id);
}

export function searchNodes(nodes: readonly DesignNode[], text: string, limit = 12): NodeMatch[] {
  const q = text.trim().toLowerCase();
  if (!q) return [];
  const starts: NodeMatch[] = [];
  const holds: NodeMatch[] = [];
  for (const n of nodes) {
    const name = nodeName(n);
    const i = name.toLowerCase().indexOf(q);
    if (i < 0) continue;
    const m = { id: n.id, name, kind: n.data.kind };
    (i === 0 ? starts : holds).push(m);
    if (starts.length >= limit) break;
  }
  return [...starts, ...holds].slice(0, limit);
}
