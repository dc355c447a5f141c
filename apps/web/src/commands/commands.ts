/** The editor's commands. Importing this module registers them. */
import { deleteElements, duplicateNodes, moveNodes } from '../model/designEdit';
import { parseNodeId } from '../model/nodeIds';
import { layoutDesign } from '../graph/autoLayout';
import { canvasShape } from '../graph/canvasShape';
import { DEFAULT_NODE_LOSS } from '../sim/nodeLossWhatIf';
import { player } from '../sim/player';
import { emptyDesign } from '../model/emptyDesign';
import { mod, register } from './registry';

export const undo = register({
  id: 'undo',
  label: 'Undo',
  shortcut: 'Ctrl+Z',
  icon: '↶',
  group: 'edit',
  keyTest: (e) => mod(e) && !e.shiftKey && e.key.toLowerCase() === 'z',
  enabled: (s) => s.past.length > 0,
  perform: ({ store }) => store.getState().undo(),
});

export const redo = register({
  id: 'redo',
  label: 'Redo',
  shortcut: 'Ctrl+Shift+Z',
  icon: '↷',
  group: 'edit',
  keyTest: (e) => mod(e) && ((e.shiftKey && e.key.toLowerCase() === 'z') || e.key.toLowerCase() === 'y'),
  enabled: (s) => s.future.length > 0,
  perform: ({ store }) => store.getState().redo(),
});

export const deleteSelection = register({
  id: 'delete',
  label: 'Delete',
  shortcut: 'Del',
  icon: '⌫',
  group: 'edit',
  keyTest: (e) => e.key === 'Delete' || e.key === 'Backspace',
  enabled: (s) => s.selected.length > 0,
  perform: ({ store }) => {
    const s = store.getState();
    const nodes = s.selected.filter((id) => parseNodeId(id));
    const edges = s.selected.filter((id) => !parseNodeId(id));
    s.setDesign(deleteElements(s.design, nodes, edges));
    s.select([]);
  },
});

export const duplicate = register({
  id: 'duplicate',
  label: 'Duplicate',
  shortcut: 'Ctrl+D',
  icon: '+',
  group: 'edit',
  keyTest: (e) => mod(e) && e.key.toLowerCase() === 'd',
  enabled: (s) => s.selected.some((id) => parseNodeId(id)),
  perform: ({ store }) => {
    const s = store.getState();
    const r = duplicateNodes(
      s.design,
      s.selected.filter((id) => parseNodeId(id)),
    );
    s.setDesign(r.design);
    s.select(r.nodeIds);
  },
});

/** A blank canvas as a new named design; the open one stays stored and Ctrl+Z comes back to it. */
export const newDesign = register({
  id: 'newDesign',
  label: 'New blank design',
  perform: ({ store }) => {
    store.getState().loadDesign(emptyDesign(), { pristine: true });
    store.getState().setView('designer');
  },
});

export const selectAll = register({
  id: 'selectAll',
  label: 'Select all',
  shortcut: 'Ctrl+A',
  keyTest: (e) => mod(e) && e.key.toLowerCase() === 'a',
  perform: ({ store }) => {
    const d = store.getState().design;
    store
      .getState()
      .select([
        ...d.publishers.map((p) => `publisher:${p.id}`),
        ...d.topology.exchanges.map((x) => `exchange:${x.name}`),
        ...d.topology.queues.map((q) => `queue:${q.name}`),
        ...d.consumers.map((c) => `consumer:${c.id}`),
      ]);
  },
});

export const autoLayout = register({
  id: 'autoLayout',
  label: 'Auto-layout',
  shortcut: 'Shift+L',
  icon: '▦',
  group: 'view',
  keyTest: (e) => e.shiftKey && !mod(e) && e.key.toLowerCase() === 'l',
  perform: async ({ store, canvas }) => {
    // aimed at the canvas's shape, as an import is
    const pos = await layoutDesign(store.getState().design, canvasShape());
    const s = store.getState();
    s.setDesign(
      moveNodes(
        s.design,
        Object.entries(pos).map(([id, position]) => ({ id, position })),
      ),
    );
    requestAnimationFrame(() => canvas?.fitView());
  },
});

export const fitView = register({
  id: 'fitView',
  label: 'Fit view',
  shortcut: 'Shift+1',
  icon: '⤢',
  group: 'view',
  keyTest: (e) => e.shiftKey && (e.key === '!' || e.code === 'Digit1'),
  // all of the design: the opening view may show a part of it, where its names read only closer
  perform: ({ canvas }) => canvas?.fitView(true),
});

/** Find a node by name: the canvas's search box (selects the node and brings it into view). */
export const findNode = register({
  id: 'findNode',
  label: 'Find a node',
  shortcut: 'Ctrl+F or /',
  icon: '⌕',
  group: 'view',
  keyTest: (e) => (mod(e) && !e.shiftKey && e.key.toLowerCase() === 'f') || (e.key === '/' && !mod(e)),
  enabled: (s) => s.view === 'designer',
  perform: ({ canvas }) => canvas?.openSearch(),
});

export const playPause = register({
  id: 'playPause',
  label: 'Play / pause',
  shortcut: 'Space',
  icon: '▶',
  group: 'sim',
  // Space on a focused button, tab or node belongs to that element, not to the player
  keyTest: (e) =>
    e.key === ' ' &&
    !mod(e) &&
    !(e.target as Element | null)?.closest?.('button, a, [role=tab], .react-flow__node, .react-flow__edge'),
  perform: ({ store }) => {
    if (!player.plans.sim && !player.plans.live) store.getState().runSimulation();
    if (player.playing) player.pause();
    else player.play();
  },
});

/** Runs the simulation and plays it from the start. */
export const simulate = register({
  id: 'simulate',
  label: 'Simulate',
  icon: '▶',
  perform: ({ store }) => {
    store.getState().runSimulation();
    if (store.getState().simEvents) player.play();
  },
});

/** "What if a node goes down": adds a node loss to the simulation (a probed cluster's second node, else a named one), or removes it. */
export const toggleNodeLoss = register({
  id: 'toggleNodeLoss',
  label: 'What if a node goes down',
  icon: '⏻',
  perform: ({ store }) => {
    const s = store.getState();
    if (s.nodeLoss) s.setNodeLoss(null);
    else
      s.setNodeLoss({
        ...DEFAULT_NODE_LOSS,
        node: s.clusterNodeNames[1] ?? s.clusterNodeNames[0] ?? DEFAULT_NODE_LOSS.node,
      });
    if (s.simEvents) store.getState().runSimulation();
  },
});

export const stepSim = register({
  id: 'step',
  label: 'Step',
  shortcut: '.',
  icon: '›',
  group: 'sim',
  keyTest: (e) => e.key === '.',
  perform: ({ store }) => {
    if (!player.plans.sim) store.getState().runSimulation();
    player.step();
  },
});

export const resetSim = register({
  id: 'resetSim',
  label: 'Reset simulation',
  shortcut: 'Shift+R',
  icon: '↺',
  group: 'sim',
  keyTest: (e) => e.shiftKey && !mod(e) && e.key.toLowerCase() === 'r',
  perform: () => player.reset(),
});

export const escape = register({
  id: 'deselect',
  label: 'Clear selection',
  shortcut: 'Esc',
  keyTest: (e) => e.key === 'Escape',
  perform: ({ store }) => {
    store.getState().select([]);
    store.getState().inspectMessage(null);
  },
});
