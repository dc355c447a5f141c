/**
 * The canvas's edits (issue 39: out of Canvas): moves, selection, connections and palette drops
 * become design edits in the store; a click on a node closes the message pane.
 */
import { useCallback, useEffect, type DragEvent, type RefObject } from 'react';
import type { Connection, EdgeChange, NodeChange, ReactFlowInstance } from '@xyflow/react';
import { useApp } from '../store/store';
import type { DesignEdge, DesignNode } from '../graph/flowTypes';
import { addNode, connect, moveNodes, type PaletteItem } from '../model/designEdit';
import { assumedActorsOf, drawnNodeId } from '../model/assumedActors';
import { dropPosition } from '../graph/dropPosition';

export const PALETTE_MIME = 'application/x-retry-studio-node';

/** React Flow's changes and drops, as store edits (each handler stable: they read the store when called). */
export function useCanvasEditing(rf: ReactFlowInstance<DesignNode, DesignEdge>, box: RefObject<HTMLDivElement | null>) {
  const onNodeClick = useCallback(() => {
    if (useApp.getState().messagePane) useApp.setState({ messagePane: false });
  }, []);

  const onNodesChange = useCallback((changes: NodeChange<DesignNode>[]) => {
    const s = useApp.getState();
    const moves: Array<{ id: string; position: { x: number; y: number } }> = [];
    let sel: Set<string> | null = null;
    for (const c of changes) {
      if (c.type === 'position' && c.position) moves.push({ id: c.id, position: c.position });
      if (c.type === 'select') {
        sel ??= new Set(s.selected);
        if (c.selected) sel.add(c.id);
        else sel.delete(c.id);
      }
    }
    if (moves.length) s.setDesign(moveNodes(s.design, moves), { coalesce: `move:${moves.map((m) => m.id).join(',')}` });
    if (sel) s.select([...sel]);
  }, []);

  const onEdgesChange = useCallback((changes: EdgeChange<DesignEdge>[]) => {
    const s = useApp.getState();
    let sel: Set<string> | null = null;
    for (const c of changes) {
      if (c.type === 'select') {
        sel ??= new Set(s.selected);
        if (c.selected) sel.add(c.id);
        else sel.delete(c.id);
      }
    }
    if (sel) s.select([...sel]);
  }, []);

  const onConnect = useCallback((c: Connection) => {
    const s = useApp.getState();
    const r = connect(s.design, c.source, c.target, c.sourceHandle);
    if ('error' in r) return s.notify(r.error, 'error');
    s.setDesign(r.design);
    s.select([r.edgeId]);
  }, []);

  const onDragOver = useCallback((e: DragEvent) => {
    if (e.dataTransfer.types.includes(PALETTE_MIME)) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    }
  }, []);

  const onDrop = useCallback(
    (e: DragEvent) => {
      const raw = e.dataTransfer.getData(PALETTE_MIME);
      if (!raw) return;
      e.preventDefault();
      const item = JSON.parse(raw) as PaletteItem;
      const c = box.current?.getBoundingClientRect();
      const at = rf.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      const tl = c ? rf.screenToFlowPosition({ x: c.left + 8, y: c.top + 8 }) : at;
      const br = c ? rf.screenToFlowPosition({ x: c.right - 8, y: c.bottom - 8 }) : at;
      const pos = dropPosition(at, { x: tl.x, y: tl.y, width: br.x - tl.x, height: br.y - tl.y });
      const s = useApp.getState();
      const r = addNode(s.design, item, pos);
      s.setDesign(r.design);
      s.select([r.nodeId]);
    },
    [rf, box],
  );

  return { onNodeClick, onNodesChange, onEdgesChange, onConnect, onDragOver, onDrop };
}

/**
 * An undo or redo can take away a selected edge or node: React Flow never deselects what it no
 * longer draws, and the next click would add to the ghost ("2 objects selected").
 */
export function useDropUndrawnSelection(nodes: readonly DesignNode[], edges: readonly DesignEdge[]): void {
  useEffect(() => {
    const s = useApp.getState();
    if (!s.selected.length) return;
    const drawn = new Set<string>();
    for (const n of nodes) drawn.add(n.id);
    for (const e of edges) drawn.add(e.id);
    // an assumed publisher is drawn folded into the node it publishes to: it stays selectable (its inspector)
    const actors = assumedActorsOf(s.design);
    const gone = (id: string) => !drawn.has(drawnNodeId(actors, id));
    if (s.selected.some(gone)) s.select(s.selected.filter((id) => !gone(id)));
  }, [nodes, edges]);
}
