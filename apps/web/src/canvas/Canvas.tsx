import { useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Background, BackgroundVariant, Controls, MiniMap, ReactFlow, useReactFlow, useStore } from '@xyflow/react';
import { useShallow } from 'zustand/react/shallow';
import { useApp } from '../store/store';
import { FlowMapper, type Decorations } from '../graph/designToFlow';
import type { DesignEdge, DesignNode } from '../graph/flowTypes';
import { nodeTypes } from './nodes';
import { edgeTypes } from './DesignEdge';
import { env } from '../commands/env';
import { useCanvasEditing, useDropUndrawnSelection } from './useCanvasEditing';
import { useOpeningView } from './useOpeningView';
import { useCanvasCommands } from './useCanvasCommands';
import { useOverviewPaneClick } from './useOverviewPaneClick';
import { useEdgesNearView, useHiddenInOverview } from './useBigDesignView';
import { emptyDesign } from '../model/emptyDesign';
import { OverlayHost } from './OverlayHost';
import { useLintFindings } from '../lint/useLint';
import { useInspectedPath } from './useInspectedPath';
import { CONTROLS_GAP, minimapFits } from '../graph/openingFit';
import { MINIMAP_SIZE, openingViewport, useTextScale } from './readableFit';
import { NodeSearch } from './NodeSearch';
import { BIG_DESIGN_NODES, OVERVIEW_MIN_NODES, OVERVIEW_ZOOM, overviewModel } from './overviewModel';
import { OverviewLayer } from './OverviewLayer';
import { OVERVIEW_NODE_COLOR } from './overviewDraw';

export { PALETTE_MIME } from './useCanvasEditing';

const NO_EDGES: DesignEdge[] = [];
/** what a big design's edges are drawn from before their own render (also on a reload's first one) */
const NO_DESIGN = emptyDesign('');
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
  // the minimap shows once the view is moved, or when the view opens on a part of the design (readableZoom.ts)
  const [mapShown, setMapShown] = useState(false);

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
    setMapShown(!!v && !v.whole);
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
  const shownEdges = useEdgesNearView(big, edges, nodes);
  const mapFits = useStore((s) => minimapFits({ width: s.width, height: s.height }));
  const showMinimap = nodes.length < BIG_DESIGN_NODES && !overview && mapShown && mapFits;
  const overviewNow = useRef(overview);
  overviewNow.current = overview;
  const flowNodes = useHiddenInOverview(overview, nodes);
  const overviewOf = useMemo(
    () => (overview ? overviewModel(design, nodes, edges) : null),
    [overview, design, nodes, edges],
  );
  useDropUndrawnSelection(nodes, edges);
  const { moved, openingView } = useOpeningView({
    rf,
    box,
    fitRequest,
    overviewNow,
    setPreOverview,
    setFitted,
    setMapShown,
  });
  useCanvasCommands(rf, box, moved, () => setSearching(true));
  const { onNodeClick, onNodesChange, onEdgesChange, onConnect, onDragOver, onDrop } = useCanvasEditing(rf, box);
  const onPaneClick = useOverviewPaneClick(overviewOf, rf, box);

  return (
    <div
      ref={box}
      data-testid="canvas"
      // whether the canvas has room for the minimap (tests read it: a part in view without a map in a small canvas)
      data-minimap-room={mapFits}
      className="relative h-full w-full"
      onDragOver={onDragOver}
      onDrop={onDrop}
    >
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
          <MapAndControls shown={showMinimap} />
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
      {nodes.length === 0 && <EmptyCanvasHint />}
    </div>
  );
}

/** The minimap, where it shows, and the zoom buttons in the corner the opening view keeps clear. */
function MapAndControls({ shown }: { shown: boolean }) {
  return (
    <>
      {/* a big design's map is its overview (zoom out): a minimap of thousands of SVG boxes cost seconds to mount */}
      {shown && (
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
        style={{ marginRight: shown ? 15 + MINIMAP_SIZE.width + CONTROLS_GAP : 15 }}
      />
    </>
  );
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

/** what an empty canvas says: where to start */
function EmptyCanvasHint() {
  return (
    <div className="pointer-events-none absolute inset-0 flex items-center justify-center">
      <div className="rounded-lg border border-dashed border-slate-600 bg-slate-900/80 p-6 text-center text-sm text-slate-300">
        <div className="mb-1 text-base font-semibold text-slate-100">An empty canvas</div>
        Drag an exchange, a queue, a consumer and a publisher from the palette,
        <br />
        or open the <span className="font-semibold text-sky-300">template gallery</span> to start from a known retry
        strategy.
      </div>
    </div>
  );
}
