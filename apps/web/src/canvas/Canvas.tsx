import { useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  Background,
  BackgroundVariant,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
  useStore,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from '@xyflow/react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../store/store';
import { FlowMapper, type Decorations } from '../graph/designToFlow';
import { NODE_H, NODE_W, type DesignEdge, type DesignNode } from '../graph/flowTypes';
import { nodeTypes } from './nodes';
import { edgeTypes } from './DesignEdge';
import { addNode, connect, moveNodes, type PaletteItem } from '../model/designEdit';
import { env } from '../commands/env';
import { emptyDesign } from '../model/emptyDesign';
import { OverlayHost } from './OverlayHost';
import { assumedActorsOf, drawnNodeId } from '../model/assumedActors';
import { useLintFindings } from '../lint/useLint';
import { useInspectedPath } from './useInspectedPath';
import { CONTROLS_GAP } from '../graph/openingFit';
import {
  focusViewport,
  MINIMAP_SIZE,
  openingViewport,
  readableFit,
  readableViewport,
  useTextScale,
} from './readableFit';
import { NodeSearch } from './NodeSearch';
import { dropPosition } from '../graph/dropPosition';
import { BIG_DESIGN_NODES, OVERVIEW_MIN_NODES, OVERVIEW_ZOOM, overviewHit, overviewModel } from './overviewModel';
import { OverviewLayer } from './OverviewLayer';
import { OVERVIEW_NODE_COLOR } from './overviewDraw';

export const PALETTE_MIME = 'application/x-retry-studio-node';

const NO_EDGES: DesignEdge[] = [];
/** what a big design's edges are drawn from before their own render (also on a reload's first one) */
const NO_DESIGN = emptyDesign('');
/** a zoom at which a face's name reads whole at 9 px and more (graph/wrapLayout.ts's READABLE_ZOOM, with room) */
const NAMES_ZOOM = 0.75;
const DEFAULT_VIEWPORT = { x: 40, y: 40, zoom: 1 };

export function Canvas() {
  const design = useApp((s) => s.design);
  const selected = useApp(useShallow((s) => s.selected));
  const fitRequest = useApp((s) => s.fitRequest);
  const rf = useReactFlow<DesignNode, DesignEdge>();
  const mapper = useRef(new FlowMapper());
  const lint = useLintFindings();
  const path = useInspectedPath();
  const box = useRef<HTMLDivElement>(null);
  const [searching, setSearching] = useState(false);
  // the minimap shows once the view is moved: the opening view has the whole design in it (graph/openingFit.ts)
  const [viewMoved, setViewMoved] = useState(false);

  const deco: Decorations = useMemo(
    () => ({ selected: new Set(selected), lint: lint.byNode, pathNodes: path.nodes, pathEdges: path.edges }),
    [selected, lint.byNode, path],
  );
  const nodes = useMemo(() => mapper.current.nodesOf(design, deco), [design, deco]);
  // semantic zoom: a big design zoomed out is one overview canvas (overviewModel.ts), not thousands of DOM nodes;
  // its nodes stay in React Flow, hidden, so fitting, the minimap's frame and the token overlay still know where they are
  const big = nodes.length >= OVERVIEW_MIN_NODES;
  const far = useStore((s) => s.transform[2] < OVERVIEW_ZOOM);
  // set just before a fit zooms out into the overview: the nodes are hidden first, or React Flow would mount
  // every node of the design for the one frame drawn at the new zoom before the hidden ones reach its store
  const [preOverview, setPreOverview] = useState(false);
  // a big design loaded into the canvas (a fit requested) waits hidden for its opening view: drawn at the view of
  // the design before it, a 10,000-queue import mounted the nodes in view and 2,000 edges crossing it, for seconds
  const [fitted, setFitted] = useState(fitRequest);
  const overview = big && (far || preOverview || fitRequest !== fitted);
  // React Flow mounts once the canvas's size is known, at the design's opening view (in the overview when that
  // is zoomed out): opened at zoom 1 first, it drew the nodes in the corner, then fitted and hid them (a second lost)
  const [initial, setInitial] = useState<{ x: number; y: number; zoom: number } | null>(null);
  const nodesNow = useRef(nodes);
  nodesNow.current = nodes;
  useLayoutEffect(() => {
    const el = box.current;
    const v = el && openingViewport(nodesNow.current, { width: el.clientWidth, height: el.clientHeight });
    if (v && v.zoom < OVERVIEW_ZOOM && nodesNow.current.length >= OVERVIEW_MIN_NODES) setPreOverview(true);
    setInitial(v ?? DEFAULT_VIEWPORT);
  }, []);
  // the overview draws no edge labels: their placement waits for the zoom that shows them
  const labels = !overview && !(big && !initial);
  // a big design's edges in a render of their own after its nodes (a task each: a 5,000-queue import's
  // first frame held the page in one task for the nodes, 13,000 edges and the overview together)
  const deferred = useDeferredValue(design, NO_DESIGN);
  const edgesOfDesign = big ? deferred : design;
  const edges = useMemo(() => mapper.current.edgesOf(edgesOfDesign, deco, { labels }), [edgesOfDesign, deco, labels]);
  // the zoom has reached the overview: it holds the nodes hidden from here on
  useEffect(() => {
    if (far) setPreOverview(false);
  }, [far]);
  // zoomed in on a big design, the edges with an end in (or near) the view: React Flow draws every edge whose
  // bounding box meets the view, and a 10,000-queue vhost's team exchange sent 2,000 edges across it
  const viewKey = useStore((s) => (big ? viewCell(s.transform, s.width, s.height) : ''));
  const shownEdges = useMemo(() => {
    if (!viewKey) return edges;
    const [x0, y0, x1, y1] = viewKey.split(',').map(Number) as [number, number, number, number];
    const at = new Map(nodes.map((n) => [n.id, n.position]));
    const near = (id: string) => {
      const p = at.get(id);
      return !!p && p.x + NODE_W >= x0 && p.x <= x1 && p.y + NODE_H >= y0 && p.y <= y1;
    };
    return edges.filter((e) => near(e.source) || near(e.target));
  }, [viewKey, edges, nodes]);
  const showMinimap = nodes.length < BIG_DESIGN_NODES && !overview && viewMoved;
  const overviewNow = useRef(overview);
  overviewNow.current = overview;
  // a node's hidden copy kept while the node is: a lint result arriving re-rendered 10,000 new copies (React Flow adopts each)
  const hiddenCopies = useRef(new WeakMap<DesignNode, DesignNode>());
  const flowNodes = useMemo(() => {
    if (!overview) return nodes;
    const copies = hiddenCopies.current;
    return nodes.map((n) => {
      let c = copies.get(n);
      if (!c) copies.set(n, (c = { ...n, hidden: true }));
      return c;
    });
  }, [overview, nodes]);
  const overviewOf = useMemo(
    () => (overview ? overviewModel(design, nodes, edges) : null),
    [overview, design, nodes, edges],
  );
  // an undo or redo can take away a selected edge or node: React Flow never deselects what it no
  // longer draws, and the next click would add to the ghost ("2 objects selected")
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

  useEffect(() => {
    env.canvas = {
      fitView: () => {
        const el = box.current;
        if (el) readableFit(rf, { width: el.clientWidth, height: el.clientHeight });
      },
      centre: () => {
        const el = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
        if (!el) return { x: 0, y: 0 };
        return rf.screenToFlowPosition({ x: el.left + el.width / 2 - 95, y: el.top + el.height / 2 - 38 });
      },
      focus: (ids) => {
        const el = box.current;
        // an assumed publisher is drawn folded into the node it publishes to
        const actors = assumedActorsOf(useApp.getState().design);
        const known = [...new Set(ids.map((id) => drawnNodeId(actors, id)))].filter((id) => rf.getInternalNode(id));
        if (!known.length) return;
        useApp.getState().select([...known]);
        moved(true);
        if (el)
          void rf.setViewport(
            focusViewport(rf.getNodesBounds(known), { width: el.clientWidth, height: el.clientHeight }),
          );
      },
      openSearch: () => setSearching(true),
    };
    return () => {
      env.canvas = undefined;
    };
  }, [rf]);

  /** the user has panned or zoomed since the opening view: a resize then keeps their view */
  const userMoved = useRef(false);
  const moved = useCallback((m: boolean) => {
    userMoved.current = m;
    setViewMoved(m);
  }, []);
  const openingView = useCallback(() => {
    const el = box.current;
    moved(false);
    if (!el) return;
    const v = readableViewport(rf, { width: el.clientWidth, height: el.clientHeight });
    if (!v) return;
    if (v.zoom < OVERVIEW_ZOOM && rf.getNodes().length >= OVERVIEW_MIN_NODES && !overviewNow.current) {
      setPreOverview(true);
      requestAnimationFrame(() => {
        void rf.setViewport(v);
        setPreOverview(false);
      });
    } else void rf.setViewport(v);
  }, [rf]);
  useEffect(() => {
    if (!fitRequest) return;
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        openingView();
        setFitted(fitRequest);
      }),
    );
  }, [fitRequest, openingView]);
  // the opening view again when the canvas changes size and the user has not moved it (a notice bar appears
  // above it, the bottom panel is resized): the canvas shrank under a fitted design and the minimap covered its corner
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let raf = 0;
    const ro = new ResizeObserver(() => {
      if (userMoved.current || raf) return;
      raf = requestAnimationFrame(() => {
        raf = 0;
        openingView();
      });
    });
    ro.observe(el);
    return () => {
      ro.disconnect();
      cancelAnimationFrame(raf);
    };
  }, [openingView]);

  const onNodeClick = useCallback(() => {
    if (useApp.getState().messagePane) useApp.setState({ messagePane: false });
  }, []);

  // in the overview one click zooms into names: a node (selected), else the group under it, whole when it fits
  // at a zoom its names read at, else around the point clicked
  const onPaneClick = useCallback(
    (e: React.MouseEvent) => {
      if (!overviewOf) return;
      const at = rf.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      const hit = overviewHit(overviewOf, at);
      if (hit.node) {
        useApp.getState().select([hit.node.id]);
        void rf.setCenter(hit.node.x + NODE_W / 2, hit.node.y + NODE_H / 2, { zoom: NAMES_ZOOM });
        return;
      }
      const g = hit.group;
      const el = box.current;
      if (g && g.level === 'leaf' && el) {
        const v = focusViewport(
          { x: g.x, y: g.y, width: g.w, height: g.h },
          { width: el.clientWidth, height: el.clientHeight },
        );
        if (v.zoom >= NAMES_ZOOM) return void rf.setViewport(v);
      }
      if (g) void rf.setCenter(at.x, at.y, { zoom: NAMES_ZOOM });
    },
    [overviewOf, rf],
  );

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
      {initial && (
        <ReactFlow<DesignNode, DesignEdge>
          nodes={flowNodes}
          edges={overview ? NO_EDGES : shownEdges}
          onlyRenderVisibleElements={nodes.length >= BIG_DESIGN_NODES}
          onMoveStart={(e) => {
            if (e) moved(true);
          }}
          onPaneClick={onPaneClick}
          // a click on a node inspects it, also one already selected while a message was inspected
          onNodeClick={onNodeClick}
          onEdgeMouseEnter={(_, e) => hoverLabel(e.id, true)}
          onEdgeMouseLeave={(_, e) => hoverLabel(e.id, false)}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onConnect={onConnect}
          deleteKeyCode={null}
          selectionKeyCode="Shift"
          multiSelectionKeyCode={['Meta', 'Control']}
          minZoom={0.002}
          maxZoom={2}
          defaultViewport={initial}
          onInit={() => {
            // fit once at start when there is something to fit (never on the first drop into an empty canvas)
            if (
              useApp.getState().design.topology.queues.length + useApp.getState().design.topology.exchanges.length >
              0
            ) {
              requestAnimationFrame(openingView);
            }
          }}
          colorMode="dark"
          proOptions={{ hideAttribution: true }}
        >
          <Background variant={BackgroundVariant.Dots} gap={20} size={1} color="#334155" />
          {/* a big design's map is its overview (zoom out): a minimap of thousands of SVG boxes cost seconds to mount */}
          {showMinimap && (
            <MiniMap
              pannable
              zoomable
              data-testid="minimap"
              nodeColor={(n) => OVERVIEW_NODE_COLOR[n.type ?? ''] ?? '#64748b'}
              maskColor="rgba(2,6,23,0.7)"
              style={{ width: MINIMAP_SIZE.width, height: MINIMAP_SIZE.height }}
            />
          )}
          {/* in the corner the opening view keeps clear (graph/openingFit.ts), left of the minimap */}
          <Controls
            showInteractive={false}
            position="bottom-right"
            style={{ marginRight: showMinimap ? 15 + MINIMAP_SIZE.width + CONTROLS_GAP : 15 }}
          />
        </ReactFlow>
      )}
      {overviewOf && <OverviewLayer model={overviewOf} box={box} />}
      {searching && (
        <NodeSearch
          nodes={nodes}
          onPick={(id) => {
            setSearching(false);
            env.canvas?.focus([id]);
          }}
          onClose={() => setSearching(false)}
        />
      )}
      <OverlayHost edges={edges} />
      <TextScale box={box} />
      {nodes.length === 0 && (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <div className="rounded-lg border border-dashed border-slate-600 bg-slate-900/80 p-6 text-center text-sm text-slate-300">
            <div className="mb-1 text-base font-semibold text-slate-100">An empty canvas</div>
            Drag an exchange, a queue, a consumer and a publisher from the palette,
            <br />
            or open the <span className="font-semibold text-sky-300">template gallery</span> to start from a known retry
            strategy.
          </div>
        </div>
      )}
    </div>
  );
}

/**
 * The view widened by half its size on each side, snapped to a grid of half its size (a power of two): a key
 * that changes when a pan or zoom has gone far enough to bring other nodes near, not on every frame.
 */
function viewCell(t: [number, number, number], width: number, height: number): string {
  const [tx, ty, z] = t;
  if (!width || !height) return '';
  const step = 2 ** Math.ceil(Math.log2(Math.max(width, height) / z)) / 2;
  const x0 = Math.floor((-tx / z - step) / step) * step;
  const y0 = Math.floor((-ty / z - step) / step) * step;
  const x1 = Math.ceil(((width - tx) / z + step) / step) * step;
  const y1 = Math.ceil(((height - ty) / z + step) / step) * step;
  return `${x0},${y0},${x1},${y1}`;
}

/** an edge hovered shows its label at a readable size (index.css), set on the label's element: no edge re-renders */
function hoverLabel(id: string, on: boolean) {
  const el = document.querySelector(`[data-edge-label="${CSS.escape(id)}"]`);
  if (on) el?.setAttribute('data-hover', 'true');
  else el?.removeAttribute('data-hover');
}

/** its own component: a zoom re-renders it alone, not the canvas */
function TextScale({ box }: { box: React.RefObject<HTMLDivElement | null> }) {
  useTextScale(box);
  return null;
}
