import { useCallback, useEffect, useMemo, useRef } from 'react';
import {
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../store/store';
import { FlowMapper, type Decorations } from '../graph/designToFlow';
import type { DesignEdge, DesignNode } from '../graph/flowTypes';
import { nodeTypes } from './nodes';
import { edgeTypes } from './DesignEdge';
import { addNode, connect, moveNodes, type PaletteItem } from '../model/designEdit';
import { env } from '../commands/env';
import { OverlayHost } from './OverlayHost';
import { useLintFindings } from '../lint/useLint';
import { useInspectedPath } from './useInspectedPath';
import { readableFit, useTextScale } from './readableFit';
import { dropPosition } from '../graph/dropPosition';

export const PALETTE_MIME = 'application/x-retry-studio-node';

const MINIMAP_COLOR: Record<string, string> = { exchange: '#3b82f6', queue: '#64748b', consumer: '#10b981', publisher: '#0ea5e9' };

export function Canvas() {
  const design = useApp((s) => s.design);
  const selected = useApp(useShallow((s) => s.selected));
  const fitRequest = useApp((s) => s.fitRequest);
  const rf = useReactFlow<DesignNode, DesignEdge>();
  const mapper = useRef(new FlowMapper());
  const lint = useLintFindings();
  const path = useInspectedPath();

  const deco: Decorations = useMemo(
    () => ({ selected: new Set(selected), lint: lint.byNode, pathNodes: path.nodes, pathEdges: path.edges }),
    [selected, lint.byNode, path],
  );
  const nodes = useMemo(() => mapper.current.nodesOf(design, deco), [design, deco]);
  const edges = useMemo(() => mapper.current.edgesOf(design, deco), [design, deco]);
  // an undo or redo can take away a selected edge or node: React Flow never deselects what it no
  // longer draws, and the next click would add to the ghost ("2 objects selected")
  useEffect(() => {
    const s = useApp.getState();
    if (!s.selected.length) return;
    const drawn = new Set<string>();
    for (const n of nodes) drawn.add(n.id);
    for (const e of edges) drawn.add(e.id);
    if (s.selected.some((id) => !drawn.has(id))) s.select(s.selected.filter((id) => drawn.has(id)));
  }, [nodes, edges]);

  useEffect(() => {
    env.canvas = {
      fitView: () => void rf.fitView({ padding: 0.15, duration: 0, maxZoom: 1.2 }),
      centre: () => {
        const el = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
        if (!el) return { x: 0, y: 0 };
        return rf.screenToFlowPosition({ x: el.left + el.width / 2 - 95, y: el.top + el.height / 2 - 38 });
      },
    };
    return () => {
      env.canvas = undefined;
    };
  }, [rf]);

  const box = useRef<HTMLDivElement>(null);
  const openingView = useCallback(() => {
    const el = box.current;
    if (useApp.getState().fitAll) void rf.fitView({ padding: 0.15, maxZoom: 1.2 });
    else if (el) readableFit(rf, { width: el.clientWidth, height: el.clientHeight });
  }, [rf]);
  const fittedAt = useRef(0);
  useEffect(() => {
    if (!fitRequest) return;
    fittedAt.current = Date.now();
    requestAnimationFrame(() => requestAnimationFrame(openingView));
  }, [fitRequest, openingView]);
  // the opening view again when the canvas changes size just after it (a notice bar appears above it)
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => {
      if (Date.now() - fittedAt.current < 1500) openingView();
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [openingView]);

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

  const onDragOver = useCallback((e: React.DragEvent) => {
    if (e.dataTransfer.types.includes(PALETTE_MIME)) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    }
  }, []);

  const onDrop = useCallback(
    (e: React.DragEvent) => {
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
    [rf],
  );

  return (
    <div ref={box} data-testid="canvas" className="relative h-full w-full" onDragOver={onDragOver} onDrop={onDrop}>
      <ReactFlow<DesignNode, DesignEdge>
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        deleteKeyCode={null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={['Meta', 'Control']}
        minZoom={0.05}
        maxZoom={2}
        defaultViewport={{ x: 40, y: 40, zoom: 1 }}
        onInit={() => {
          // fit once at start when there is something to fit (never on the first drop into an empty canvas)
          if (useApp.getState().design.topology.queues.length + useApp.getState().design.topology.exchanges.length > 0) {
            fittedAt.current = Date.now();
            requestAnimationFrame(openingView);
          }
        }}
        colorMode="dark"
        proOptions={{ hideAttribution: true }}
      >
        <Background variant={BackgroundVariant.Dots} gap={20} size={1} color="#334155" />
        <MiniMap
          pannable
          zoomable
          data-testid="minimap"
          nodeColor={(n) => MINIMAP_COLOR[n.type ?? ''] ?? '#64748b'}
          maskColor="rgba(2,6,23,0.7)"
          style={{ width: 160, height: 100 }}
        />
        <Controls showInteractive={false} />
      </ReactFlow>
      <OverlayHost edges={edges} />
      <TextScale box={box} />
      {nodes.length === 0 && (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <div className="rounded-lg border border-dashed border-slate-600 bg-slate-900/80 p-6 text-center text-sm text-slate-300">
            <div className="mb-1 text-base font-semibold text-slate-100">An empty canvas</div>
            Drag an exchange, a queue, a consumer and a publisher from the palette,
            <br />
            or open the <span className="font-semibold text-sky-300">template gallery</span> to start from a known retry strategy.
          </div>
        </div>
      )}
    </div>
  );
}

/** its own component: a zoom re-renders it alone, not the canvas */
function TextScale({ box }: { box: React.RefObject<HTMLDivElement | null> }) {
  useTextScale(box);
  return null;
}
