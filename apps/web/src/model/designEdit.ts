/**
 * Pure edits of a design document. Every canvas gesture and inspector field ends here, so the
 * same edit works from the mouse, the keyboard and the tests. No RabbitMQ rules live here
 * (the core validates the result); only the bookkeeping of names and references.
 */
import type {
  AmqpTable,
  BindingDef,
  ConsumerBehaviour,
  ConsumerSpec,
  Design,
  ExchangeDef,
  ExchangeType,
  NodePosition,
  PublisherSpec,
  QueueDef,
  ValidationIssue,
} from '@retry-studio/topology-core/model';
import { mapRepublishes, renameNode as renameInCore } from '@retry-studio/topology-core/model';
export { connect, type ConnectResult } from './designConnect';
import { nodeIdOf, parseNodeId, type NodeKind } from './nodeIds';
import { edgeIdOf, parseEdgeId } from './edgeIds';

export type QueueType = 'classic' | 'quorum' | 'stream';

/** What the palette can drop: a node kind and, for exchanges and queues, a flavour. */
export type PaletteItem =
  | { kind: 'exchange'; type: ExchangeType }
  | { kind: 'queue'; type: QueueType }
  | { kind: 'consumer' }
  | { kind: 'publisher' };

function uniqueName(base: string, taken: (n: string) => boolean): string {
  if (!taken(base)) return base;
  for (let i = 2; ; i++) {
    const n = `${base}.${i}`;
    if (!taken(n)) return n;
  }
}

function withLayout(design: Design, id: string, pos: NodePosition): Design['layout'] {
  return { ...(design.layout ?? {}), [id]: { x: Math.round(pos.x), y: Math.round(pos.y) } };
}

const hasExchange = (d: Design, n: string) => d.topology.exchanges.some((e) => e.name === n);
const hasQueue = (d: Design, n: string) => d.topology.queues.some((q) => q.name === n);
const hasConsumer = (d: Design, id: string) => d.consumers.some((c) => c.id === id);
const hasPublisher = (d: Design, id: string) => d.publishers.some((p) => p.id === id);

export function addNode(design: Design, item: PaletteItem, pos: NodePosition): { design: Design; nodeId: string } {
  switch (item.kind) {
    case 'exchange': {
      const name = uniqueName(item.type === 'x-delayed-message' ? 'delayed' : item.type, (n) => hasExchange(design, n));
      const ex: ExchangeDef = {
        name,
        type: item.type,
        durable: true,
        ...(item.type === 'x-delayed-message' ? { arguments: { 'x-delayed-type': 'direct' } } : {}),
      };
      const id = nodeIdOf('exchange', name);
      return {
        nodeId: id,
        design: {
          ...design,
          topology: { ...design.topology, exchanges: [...design.topology.exchanges, ex] },
          layout: withLayout(design, id, pos),
        },
      };
    }
    case 'queue': {
      const name = uniqueName(
        item.type === 'quorum' ? 'quorum.queue' : item.type === 'stream' ? 'stream' : 'queue',
        (n) => hasQueue(design, n),
      );
      const q: QueueDef = {
        name,
        durable: true,
        arguments: item.type === 'classic' ? {} : { 'x-queue-type': item.type },
      };
      const id = nodeIdOf('queue', name);
      return {
        nodeId: id,
        design: {
          ...design,
          topology: { ...design.topology, queues: [...design.topology.queues, q] },
          layout: withLayout(design, id, pos),
        },
      };
    }
    case 'consumer': {
      const cid = uniqueName('consumer', (n) => hasConsumer(design, n));
      const c: ConsumerSpec = {
        id: cid,
        queue: '',
        prefetch: 1,
        behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'reject' } }] },
      };
      const id = nodeIdOf('consumer', cid);
      return {
        nodeId: id,
        design: { ...design, consumers: [...design.consumers, c], layout: withLayout(design, id, pos) },
      };
    }
    case 'publisher': {
      const pid = uniqueName('publisher', (n) => hasPublisher(design, n));
      const p: PublisherSpec = { id: pid, exchange: '', routingKey: '', bodyPrefix: 'msg' };
      const id = nodeIdOf('publisher', pid);
      return {
        nodeId: id,
        design: { ...design, publishers: [...design.publishers, p], layout: withLayout(design, id, pos) },
      };
    }
  }
}

function withoutArgs(args: AmqpTable | undefined, keys: string[]): AmqpTable {
  const out: Record<string, AmqpTable[string]> = { ...(args ?? {}) };
  for (const k of keys) delete out[k];
  return out;
}

/** Removes nodes and edges and every reference that would dangle. */
export function deleteElements(design: Design, nodeIds: readonly string[], edgeIds: readonly string[]): Design {
  let d = design;
  for (const eid of edgeIds) d = deleteEdge(d, eid);
  const exchanges = new Set<string>();
  const queues = new Set<string>();
  const consumers = new Set<string>();
  const publishers = new Set<string>();
  for (const id of nodeIds) {
    const p = parseNodeId(id);
    if (!p) continue;
    ({ exchange: exchanges, queue: queues, consumer: consumers, publisher: publishers })[p.kind].add(p.key);
  }
  if (!exchanges.size && !queues.size && !consumers.size && !publishers.size) return d;
  // a consumer without its queue goes with it: its position and where it was read go too
  const gone = new Set([
    ...nodeIds,
    ...d.consumers.filter((c) => queues.has(c.queue)).map((c) => nodeIdOf('consumer', c.id)),
  ]);
  const layout = { ...(d.layout ?? {}) };
  for (const id of gone) delete layout[id];
  const sources = d.sources
    ? { sources: Object.fromEntries(Object.entries(d.sources).filter(([id]) => !gone.has(id))) }
    : {};
  return {
    ...d,
    topology: {
      ...d.topology,
      exchanges: d.topology.exchanges
        .filter((e) => !exchanges.has(e.name))
        .map((e) =>
          typeof e.arguments?.['alternate-exchange'] === 'string' && exchanges.has(e.arguments['alternate-exchange'])
            ? { ...e, arguments: withoutArgs(e.arguments, ['alternate-exchange']) }
            : e,
        ),
      queues: d.topology.queues
        .filter((q) => !queues.has(q.name))
        .map((q) =>
          typeof q.arguments?.['x-dead-letter-exchange'] === 'string' &&
          exchanges.has(q.arguments['x-dead-letter-exchange'])
            ? { ...q, arguments: withoutArgs(q.arguments, ['x-dead-letter-exchange', 'x-dead-letter-routing-key']) }
            : q,
        ),
      bindings: d.topology.bindings.filter(
        (b) =>
          !exchanges.has(b.source) &&
          !(b.destination_type === 'queue' ? queues.has(b.destination) : exchanges.has(b.destination)),
      ),
    },
    // a consumer without its queue means nothing: it goes with it
    consumers: d.consumers.filter((c) => !consumers.has(c.id) && !queues.has(c.queue)),
    publishers: d.publishers.filter((p) => !publishers.has(p.id)),
    layout,
    ...sources,
  };
}

export function deleteEdge(design: Design, edgeId: string): Design {
  const e = parseEdgeId(edgeId);
  if (!e) return design;
  const t = design.topology;
  switch (e.kind) {
    case 'binding':
      return { ...design, topology: { ...t, bindings: t.bindings.filter((b) => edgeIdOf.binding(b) !== edgeId) } };
    case 'deadLetter':
      return {
        ...design,
        topology: {
          ...t,
          queues: t.queues.map((q) =>
            q.name === e.from
              ? { ...q, arguments: withoutArgs(q.arguments, ['x-dead-letter-exchange', 'x-dead-letter-routing-key']) }
              : q,
          ),
        },
      };
    case 'alternate':
      return {
        ...design,
        topology: {
          ...t,
          exchanges: t.exchanges.map((x) =>
            x.name === e.from ? { ...x, arguments: withoutArgs(x.arguments, ['alternate-exchange']) } : x,
          ),
        },
      };
    case 'consume':
      return { ...design, consumers: design.consumers.map((c) => (c.id === e.to ? { ...c, queue: '' } : c)) };
    case 'publish':
      return { ...design, publishers: design.publishers.map((p) => (p.id === e.from ? { ...p, exchange: '' } : p)) };
    case 'republish':
      // a republish is part of a behaviour: turn it back into a reject (the inspector edits the rest)
      return {
        ...design,
        consumers: design.consumers.map((c) =>
          c.id === e.from
            ? {
                ...c,
                // the one republish walk (core): the republishes the edge draws become rejects
                behaviour: mapRepublishes(c.behaviour, 'behaviour', (a) =>
                  a.exchange === e.to && (e.to !== '' || a.routingKey === e.queue) ? { kind: 'reject' } : a,
                ) as ConsumerBehaviour,
              }
            : c,
        ),
      };
  }
}

export type RenameOutcome =
  { readonly ok: true; readonly design: Design } | { readonly ok: false; readonly error: ValidationIssue };

/**
 * Renames an exchange or queue through the core's renameNode (every reference follows: bindings
 * and binding keys equal to the queue's name, dead-letter settings, counters, republish targets,
 * policies, publishers, layout, sources), or re-ids a consumer/publisher (its layout and source
 * follow). One design out: one undo step.
 */
export function renameNode(design: Design, nodeId: string, next: string): RenameOutcome {
  const p = parseNodeId(nodeId);
  if (!p || p.key === next) return { ok: true, design };
  if (p.kind === 'exchange' || p.kind === 'queue') return renameInCore(design, p.kind, p.key, next);
  const list = p.kind === 'consumer' ? 'consumers' : 'publishers';
  const taken = p.kind === 'consumer' ? hasConsumer(design, next) : hasPublisher(design, next);
  if (next === '' || taken)
    return {
      ok: false,
      error: {
        path: `${list}.id`,
        code: next === '' ? 'field-type' : 'duplicate-id',
        message: next === '' ? 'the id cannot be empty' : `a ${p.kind} with id "${next}" exists`,
      },
    };
  const layout = { ...(design.layout ?? {}) };
  const pos = layout[nodeId];
  delete layout[nodeId];
  if (pos) layout[nodeIdOf(p.kind, next)] = pos;
  // where an app-config import read it (file and line) follows the new id, as the layout does
  const source = design.sources?.[nodeId];
  const sources = source
    ? {
        sources: {
          ...Object.fromEntries(Object.entries(design.sources!).filter(([k]) => k !== nodeId)),
          [nodeIdOf(p.kind, next)]: source,
        },
      }
    : {};
  const old = p.key;
  if (p.kind === 'consumer')
    return {
      ok: true,
      design: {
        ...design,
        layout,
        ...sources,
        consumers: design.consumers.map((c) => (c.id === old ? { ...c, id: next } : c)),
      },
    };
  return {
    ok: true,
    design: {
      ...design,
      layout,
      ...sources,
      publishers: design.publishers.map((pb) => (pb.id === old ? { ...pb, id: next } : pb)),
    },
  };
}

/** Copies nodes (and the bindings among them) with fresh names, offset so both stay visible. */
export function duplicateNodes(design: Design, nodeIds: readonly string[]): { design: Design; nodeIds: string[] } {
  let d = design;
  const created: string[] = [];
  const renamed = new Map<string, string>();
  const offset = (id: string): NodePosition => {
    const p = design.layout?.[id] ?? { x: 0, y: 0 };
    return { x: p.x + 40, y: p.y + 40 };
  };
  for (const id of nodeIds) {
    const p = parseNodeId(id);
    if (!p) continue;
    if (p.kind === 'exchange') {
      const src = d.topology.exchanges.find((x) => x.name === p.key);
      if (!src) continue;
      const name = uniqueName(`${src.name}.copy`, (n) => hasExchange(d, n));
      renamed.set(id, name);
      const nid = nodeIdOf('exchange', name);
      d = {
        ...d,
        topology: { ...d.topology, exchanges: [...d.topology.exchanges, { ...src, name }] },
        layout: withLayout(d, nid, offset(id)),
      };
      created.push(nid);
    } else if (p.kind === 'queue') {
      const src = d.topology.queues.find((q) => q.name === p.key);
      if (!src) continue;
      const name = uniqueName(`${src.name}.copy`, (n) => hasQueue(d, n));
      renamed.set(id, name);
      const nid = nodeIdOf('queue', name);
      d = {
        ...d,
        topology: { ...d.topology, queues: [...d.topology.queues, { ...src, name }] },
        layout: withLayout(d, nid, offset(id)),
      };
      created.push(nid);
    } else if (p.kind === 'consumer') {
      const src = d.consumers.find((c) => c.id === p.key);
      if (!src) continue;
      const cid = uniqueName(`${src.id}.copy`, (n) => hasConsumer(d, n));
      const nid = nodeIdOf('consumer', cid);
      d = { ...d, consumers: [...d.consumers, { ...src, id: cid }], layout: withLayout(d, nid, offset(id)) };
      created.push(nid);
    } else {
      const src = d.publishers.find((pb) => pb.id === p.key);
      if (!src) continue;
      const pid = uniqueName(`${src.id}.copy`, (n) => hasPublisher(d, n));
      const nid = nodeIdOf('publisher', pid);
      d = { ...d, publishers: [...d.publishers, { ...src, id: pid }], layout: withLayout(d, nid, offset(id)) };
      created.push(nid);
    }
  }
  // bindings whose both ends were copied are copied too
  const copyEx = (n: string) => renamed.get(nodeIdOf('exchange', n));
  const extra: BindingDef[] = [];
  for (const b of design.topology.bindings) {
    const src = copyEx(b.source);
    const dst = b.destination_type === 'queue' ? renamed.get(nodeIdOf('queue', b.destination)) : copyEx(b.destination);
    if (src && dst) extra.push({ ...b, source: src, destination: dst });
  }
  if (extra.length) d = { ...d, topology: { ...d.topology, bindings: [...d.topology.bindings, ...extra] } };
  return { design: d, nodeIds: created };
}

export function moveNodes(design: Design, moves: ReadonlyArray<{ id: string; position: NodePosition }>): Design {
  const layout = { ...(design.layout ?? {}) };
  for (const m of moves) layout[m.id] = { x: Math.round(m.position.x), y: Math.round(m.position.y) };
  return { ...design, layout };
}

/** The design renamed and the name to apply the edit under: the old one when the rename is refused (the name field shows why). */
function renamedOr(design: Design, kind: NodeKind, from: string, to: string): { d: Design; name: string } {
  const r = renameNode(design, nodeIdOf(kind, from), to);
  return r.ok ? { d: r.design, name: to } : { d: design, name: from };
}

export function updateExchange(design: Design, name: string, next: ExchangeDef): Design {
  const { d, name: n } = renamedOr(design, 'exchange', name, next.name);
  return {
    ...d,
    topology: { ...d.topology, exchanges: d.topology.exchanges.map((x) => (x.name === n ? { ...next, name: n } : x)) },
  };
}

export function updateQueue(design: Design, name: string, next: QueueDef): Design {
  const { d, name: n } = renamedOr(design, 'queue', name, next.name);
  return {
    ...d,
    topology: { ...d.topology, queues: d.topology.queues.map((q) => (q.name === n ? { ...next, name: n } : q)) },
  };
}

export function updateConsumer(design: Design, id: string, next: ConsumerSpec): Design {
  const { d, name: n } = renamedOr(design, 'consumer', id, next.id);
  return { ...d, consumers: d.consumers.map((c) => (c.id === n ? { ...next, id: n } : c)) };
}

export function updatePublisher(design: Design, id: string, next: PublisherSpec): Design {
  const { d, name: n } = renamedOr(design, 'publisher', id, next.id);
  return { ...d, publishers: d.publishers.map((p) => (p.id === n ? { ...next, id: n } : p)) };
}

export function updateBinding(design: Design, edgeId: string, next: BindingDef): Design {
  return {
    ...design,
    topology: {
      ...design.topology,
      bindings: design.topology.bindings.map((b) => (edgeIdOf.binding(b) === edgeId ? next : b)),
    },
  };
}
