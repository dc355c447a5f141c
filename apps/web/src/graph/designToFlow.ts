/**
 * Design → React Flow nodes and edges. Node objects are reused when nothing about them
 * changed, so React Flow's identity check skips their re-render (dragging one node must not
 * re-render three hundred).
 */
import {
  republishDestination,
  republishSites,
  type Design,
  type EffectiveValue,
} from '@retry-studio/topology-core/model';
import { consumerNodeId, exchangeNodeId, publisherNodeId, queueNodeId } from '../model/nodeIds';
import { assumedActorsOf } from '../model/assumedActors';
import { edgeIdOf } from '../model/edgeIds';
import { edgeCubic, type Cubic } from './bezier';
import { designSettings } from '../model/effective';
import { placeLabels, type LabelSpot } from './labelPlacement';
import {
  NODE_H,
  NODE_HANDLES,
  NODE_W,
  type DesignEdge,
  type DesignNode,
  type DesignNodeData,
  type Severity,
} from './flowTypes';

export interface Decorations {
  selected: ReadonlySet<string>;
  lint: ReadonlyMap<string, { severity: Severity; count: number }>;
  pathNodes: ReadonlySet<string>;
  pathEdges: ReadonlySet<string>;
}

export const NO_DECORATIONS: Decorations = {
  selected: new Set(),
  lint: new Map(),
  pathNodes: new Set(),
  pathEdges: new Set(),
};

const NO_SPOTS = new Map<string, LabelSpot>();

export class FlowMapper {
  private nodes = new Map<string, DesignNode>();
  private edges = new Map<string, DesignEdge>();
  private spots: { inputs: readonly unknown[]; map: Map<string, LabelSpot> } | null = null;
  private raw: { inputs: readonly unknown[]; list: RawEdge[] } | null = null;

  nodesOf(design: Design, deco: Decorations = NO_DECORATIONS): DesignNode[] {
    const out: DesignNode[] = [];
    const next = new Map<string, DesignNode>();
    const push = (id: string, data: DesignNodeData, fallbackIndex: number) => {
      const position = positionOf(design, id, fallbackIndex);
      const selected = deco.selected.has(id);
      const lint = deco.lint.get(id);
      const onPath = deco.pathNodes.has(id);
      const prev = this.nodes.get(id);
      if (
        prev &&
        prev.data.def === data.def &&
        prev.data.settings === data.settings &&
        prev.data.assumed === data.assumed &&
        prev.position.x === position.x &&
        prev.position.y === position.y &&
        !!prev.selected === selected &&
        prev.data.lint === lint?.severity &&
        prev.data.lintCount === lint?.count &&
        !!prev.data.onPath === onPath
      ) {
        next.set(id, prev);
        out.push(prev);
        return;
      }
      const node = {
        id,
        type: data.kind,
        position,
        // fixed sizes: React Flow (minimap, fit view) knows them without waiting for a measure
        width: NODE_W,
        height: NODE_H,
        handles: NODE_HANDLES[data.kind],
        selected,
        data: { ...data, lint: lint?.severity, lintCount: lint?.count, onPath },
      } as DesignNode;
      next.set(id, node);
      out.push(node);
    };
    let i = 0;
    // the import's stand-in publishers are folded into the node they publish to, not drawn as nodes
    const actors = assumedActorsOf(design);
    for (const p of design.publishers)
      if (actors.foldedInto.has(p.id)) i++;
      else push(publisherNodeId(p.id), { kind: 'publisher', def: p }, i++);
    const settings = designSettings(design);
    const folded = (id: string) => {
      const a = actors.byNode.get(id);
      return a ? { assumed: a } : {};
    };
    for (const x of design.topology.exchanges) {
      const id = exchangeNodeId(x.name);
      push(
        id,
        { kind: 'exchange', def: x, settings: settings.exchanges.get(x.name)?.settings ?? {}, ...folded(id) },
        i++,
      );
    }
    for (const q of design.topology.queues) {
      const id = queueNodeId(q.name);
      push(id, { kind: 'queue', def: q, settings: settings.queues.get(q.name)?.settings ?? {}, ...folded(id) }, i++);
    }
    for (const c of design.consumers)
      push(
        consumerNodeId(c.id),
        { kind: 'consumer', def: c, ...(actors.workers.has(c.id) ? { assumed: true } : {}) },
        i++,
      );
    this.nodes = next;
    return out;
  }

  /** `labels: false`: no label placement (the overview draws no labels; 5,000 edges took half a second) */
  edgesOf(
    design: Design,
    deco: Decorations = NO_DECORATIONS,
    { labels = true }: { labels?: boolean } = {},
  ): DesignEdge[] {
    // what the edges are depends on the topology and the actors only: a selection or lint change reuses it
    const what = [design.topology, design.consumers, design.publishers] as const;
    if (!this.raw || this.raw.inputs.some((v, i) => v !== what[i]))
      this.raw = { inputs: what, list: rawEdgesOf(design) };
    const raw = this.raw.list;
    // placement depends on positions and labels only: selection, lint or path changes reuse it
    const inputs = [design.layout, design.topology, design.consumers, design.publishers] as const;
    if (labels && (!this.spots || this.spots.inputs.some((v, i) => v !== inputs[i])))
      this.spots = { inputs, map: labelSpots(design, raw) };
    const spots = labels && this.spots ? this.spots.map : NO_SPOTS;
    const next = new Map<string, DesignEdge>();
    const out: DesignEdge[] = [];
    for (const e of raw) {
      const spot = spots.get(e.id);
      const selected = deco.selected.has(e.id);
      const onPath = deco.pathEdges.has(e.id) || deco.pathEdges.has(`${e.source}>${e.target}`);
      const prev = this.edges.get(e.id);
      if (
        prev &&
        prev.source === e.source &&
        prev.target === e.target &&
        prev.data?.label === e.data?.label &&
        prev.data?.policy === e.data?.policy &&
        prev.data?.labelT === spot?.t &&
        prev.data?.labelDy === spot?.dy &&
        prev.data?.labelCrowded === spot?.crowded &&
        !!prev.selected === selected &&
        !!prev.data?.onPath === onPath
      ) {
        next.set(e.id, prev);
        out.push(prev);
        continue;
      }
      const edge: DesignEdge = {
        ...e,
        selected,
        data: {
          ...e.data!,
          onPath,
          ...(spot ? { labelT: spot.t, labelDy: spot.dy } : {}),
          ...(spot?.crowded ? { labelCrowded: true } : {}),
        },
      };
      next.set(e.id, edge);
      out.push(edge);
    }
    this.edges = next;
    return out;
  }
}

type RawEdge = Omit<DesignEdge, 'selected'>;

/** The design's edges before decoration: bindings, publishes, dead-letter and alternate routes, consumes and republishes. */
function rawEdgesOf(design: Design): RawEdge[] {
  const t = design.topology;
  const exchanges = new Set(t.exchanges.map((x) => x.name));
  const queues = new Set(t.queues.map((q) => q.name));
  const raw: RawEdge[] = [];
  const add = (id: string, source: string, target: string, kind: DesignEdge['data'] & object, sourceHandle = 'out') =>
    raw.push({ id, source, target, sourceHandle, targetHandle: 'in', type: 'design', data: kind });

  const actors = assumedActorsOf(design);
  for (const p of design.publishers) {
    if (actors.foldedInto.has(p.id)) continue;
    if (p.exchange && exchanges.has(p.exchange))
      add(edgeIdOf.publish(p.id), publisherNodeId(p.id), exchangeNodeId(p.exchange), {
        kind: 'publish',
        label: p.routingKey,
      });
    else if (!p.exchange && queues.has(p.routingKey))
      // the default exchange routes by queue name: draw it straight to the queue
      add(edgeIdOf.publish(p.id), publisherNodeId(p.id), queueNodeId(p.routingKey), {
        kind: 'publish',
        label: `(default) ${p.routingKey}`,
      });
  }
  for (const b of t.bindings) {
    const target = b.destination_type === 'queue' ? queueNodeId(b.destination) : exchangeNodeId(b.destination);
    const ok =
      exchanges.has(b.source) &&
      (b.destination_type === 'queue' ? queues.has(b.destination) : exchanges.has(b.destination));
    if (!ok) continue;
    add(edgeIdOf.binding(b), exchangeNodeId(b.source), target, { kind: 'binding', label: bindingLabel(b) });
  }
  // dead-letter and alternate exchanges as in effect: an argument or a policy (the simulator reads the same)
  const settings = designSettings(design);
  const policyOf = (v: EffectiveValue | undefined) =>
    v && v.source.kind !== 'argument' ? { policy: v.source.name } : {};
  for (const x of t.exchanges) {
    const ae = settings.exchanges.get(x.name)?.settings['alternate-exchange'];
    if (typeof ae?.value === 'string' && exchanges.has(ae.value))
      add(
        edgeIdOf.alternate(x.name),
        exchangeNodeId(x.name),
        exchangeNodeId(ae.value),
        { kind: 'alternate', label: 'alternate', ...policyOf(ae) },
        'ae',
      );
  }
  for (const q of t.queues) {
    const s = settings.queues.get(q.name)?.settings ?? {};
    const dlx = s['x-dead-letter-exchange'];
    const rk = s['x-dead-letter-routing-key']?.value;
    if (typeof dlx?.value === 'string' && exchanges.has(dlx.value)) {
      add(edgeIdOf.deadLetter(q.name), queueNodeId(q.name), exchangeNodeId(dlx.value), {
        kind: 'deadLetter',
        label: typeof rk === 'string' ? `DL rk: ${rk}` : 'dead-letter',
        ...policyOf(dlx),
      });
    } else if (dlx?.value === '') {
      // DLX = default exchange: routes by the dead-letter routing key (or the original key) to a queue
      if (typeof rk === 'string' && queues.has(rk))
        add(edgeIdOf.deadLetter(q.name), queueNodeId(q.name), queueNodeId(rk), {
          kind: 'deadLetter',
          label: `DL (default) ${rk}`,
          ...policyOf(dlx),
        });
    }
  }
  for (const c of design.consumers) {
    if (c.queue && queues.has(c.queue))
      add(edgeIdOf.consume(c.id), queueNodeId(c.queue), consumerNodeId(c.id), { kind: 'consume', label: '' });
    // every republish target: an exchange, or a queue through the default exchange (the parking queue)
    const seen = new Set<string>();
    for (const site of republishSites(c.behaviour)) {
      const to = republishDestination(site.action);
      const [id, target] =
        to.kind === 'exchange' && exchanges.has(to.exchange)
          ? [edgeIdOf.republish(c.id, to.exchange), exchangeNodeId(to.exchange)]
          : to.kind === 'queue' && queues.has(to.queue)
            ? [edgeIdOf.republishToQueue(c.id, to.queue), queueNodeId(to.queue)]
            : [];
      if (!id || !target || seen.has(id)) continue;
      seen.add(id);
      add(id, consumerNodeId(c.id), target, { kind: 'republish', label: 'republish' });
    }
  }
  return raw;
}

/**
 * Where a node is drawn: its saved position; else a publisher left of where it publishes (an assumed one the
 * user made theirs: the layout had folded it); else a grid slot by its place in the design.
 */
function positionOf(design: Design, id: string, fallbackIndex: number): { x: number; y: number } {
  const saved = design.layout?.[id];
  if (saved) return saved;
  if (id.startsWith('publisher:')) {
    const p = design.publishers.find((x) => publisherNodeId(x.id) === id);
    const to = p && design.layout?.[p.exchange ? exchangeNodeId(p.exchange) : queueNodeId(p.routingKey)];
    if (to) return { x: to.x - NODE_W - 80, y: to.y };
  }
  return { x: 40 + (fallbackIndex % 5) * 240, y: 40 + Math.floor(fallbackIndex / 5) * 120 };
}

/** Label spots for the edges, on the curves the edges will draw (handles: out right, ae bottom, in left). */
function labelSpots(design: Design, edges: ReadonlyArray<Omit<DesignEdge, 'selected'>>): Map<string, LabelSpot> {
  const pos = new Map<string, { x: number; y: number }>();
  const folded = assumedActorsOf(design).foldedInto;
  const ids = [
    ...design.publishers.map((p) => publisherNodeId(p.id)),
    ...design.topology.exchanges.map((x) => exchangeNodeId(x.name)),
    ...design.topology.queues.map((q) => queueNodeId(q.name)),
    ...design.consumers.map((c) => consumerNodeId(c.id)),
  ];
  ids.forEach((id, i) => pos.set(id, positionOf(design, id, i)));
  for (const p of folded.keys()) pos.delete(publisherNodeId(p));
  const curves: Array<{ id: string; label: string; cubic: Cubic }> = [];
  for (const e of edges) {
    const a = pos.get(e.source);
    const b = pos.get(e.target);
    if (!a || !b || !e.data?.label) continue;
    const cubic =
      e.sourceHandle === 'ae'
        ? edgeCubic(a.x + NODE_W / 2, a.y + NODE_H, 'bottom', b.x, b.y + NODE_H / 2, 'left')
        : edgeCubic(a.x + NODE_W, a.y + NODE_H / 2, 'right', b.x, b.y + NODE_H / 2, 'left');
    curves.push({ id: e.id, label: e.data.label, cubic });
  }
  return placeLabels(
    curves,
    [...pos.values()].map((p) => ({ x: p.x, y: p.y, w: NODE_W, h: NODE_H })),
  );
}

function bindingLabel(b: Design['topology']['bindings'][number]): string {
  const args = b.arguments ?? {};
  const match = Object.entries(args).filter(([k]) => !k.startsWith('x-'));
  if (match.length) return `${args['x-match'] ?? 'all'}: ${match.map(([k, v]) => `${k}=${String(v)}`).join(', ')}`;
  return b.routing_key === '' ? '(no key)' : b.routing_key;
}
