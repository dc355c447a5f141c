// @vitest-environment node
// (these tests need no DOM: the node environment starts faster than jsdom)
import { describe, expect, it } from 'vitest';
import { validateDesign } from '@retry-studio/topology-core/model';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { addNode, connect, deleteElements, duplicateNodes, renameNode, updateQueue } from './designEdit';
import { emptyDesign } from './emptyDesign';
import { dlxTtlRetry } from '../fixtures/designs';
import { edgeIdOf } from './edgeIds';
import { createAppStore } from '../store/store';

describe('connect decides the edge kind from the two ends', () => {
  const base = () => {
    let d = emptyDesign();
    d = addNode(d, { kind: 'exchange', type: 'direct' }, { x: 0, y: 0 }).design;
    d = addNode(d, { kind: 'exchange', type: 'fanout' }, { x: 0, y: 0 }).design;
    d = addNode(d, { kind: 'queue', type: 'classic' }, { x: 0, y: 0 }).design;
    d = addNode(d, { kind: 'consumer' }, { x: 0, y: 0 }).design;
    d = addNode(d, { kind: 'publisher' }, { x: 0, y: 0 }).design;
    return d;
  };

  it('exchange → queue binds with the queue name as key', () => {
    const r = connect(base(), 'exchange:direct', 'queue:queue');
    if ('error' in r) throw new Error(r.error);
    expect(r.kind).toBe('binding');
    expect(r.design.topology.bindings).toEqual([
      { source: 'direct', destination: 'queue', destination_type: 'queue', routing_key: 'queue' },
    ]);
  });

  it('the key derived from the queue name follows a rename of the queue (issue 13)', () => {
    const r = connect(base(), 'exchange:direct', 'queue:queue');
    if ('error' in r) throw new Error(r.error);
    const renamed = renameNode(r.design, 'queue:queue', 'orders.q');
    expect(renamed.ok && renamed.design.topology.bindings).toEqual([
      { source: 'direct', destination: 'orders.q', destination_type: 'queue', routing_key: 'orders.q' },
    ]);
  });

  it('fanout bindings get an empty key', () => {
    const r = connect(base(), 'exchange:fanout', 'queue:queue');
    if ('error' in r) throw new Error(r.error);
    expect(r.design.topology.bindings[0]!.routing_key).toBe('');
  });

  it('queue → exchange sets the dead-letter exchange', () => {
    const r = connect(base(), 'queue:queue', 'exchange:fanout');
    if ('error' in r) throw new Error(r.error);
    expect(r.kind).toBe('deadLetter');
    expect(r.design.topology.queues[0]!.arguments?.['x-dead-letter-exchange']).toBe('fanout');
  });

  it('the ae handle sets an alternate exchange; the out handle binds exchange to exchange', () => {
    const ae = connect(base(), 'exchange:direct', 'exchange:fanout', 'ae');
    if ('error' in ae) throw new Error(ae.error);
    expect(ae.kind).toBe('alternate');
    expect(ae.design.topology.exchanges[0]!.arguments?.['alternate-exchange']).toBe('fanout');
    const e2e = connect(base(), 'exchange:direct', 'exchange:fanout', 'out');
    if ('error' in e2e) throw new Error(e2e.error);
    expect(e2e.kind).toBe('binding');
    expect(e2e.design.topology.bindings[0]!.destination_type).toBe('exchange');
  });

  it('queue → consumer attaches, consumer → exchange republishes, publisher → exchange targets', () => {
    let d = base();
    const a = connect(d, 'queue:queue', 'consumer:consumer');
    if ('error' in a) throw new Error(a.error);
    d = a.design;
    expect(d.consumers[0]!.queue).toBe('queue');
    const b = connect(d, 'consumer:consumer', 'exchange:direct');
    if ('error' in b) throw new Error(b.error);
    expect(b.kind).toBe('republish');
    const beh = b.design.consumers[0]!.behaviour;
    expect(beh.kind === 'worker' && beh.onFailure.map((r) => r.then.kind)).toEqual(['republish']);
    const c = connect(b.design, 'publisher:publisher', 'exchange:direct');
    if ('error' in c) throw new Error(c.error);
    expect(c.design.publishers[0]!.exchange).toBe('direct');
  });

  it('a hand-built publisher → direct exchange → queue delivers: the keyless publisher takes the binding key, drawn in either order', () => {
    const ok = (r: ReturnType<typeof connect>) => {
      if ('error' in r) throw new Error(r.error);
      return r.design;
    };
    // publisher first, then the binding (the walk through a hand-built design: every message was dropped, no-route)
    const first = ok(
      connect(ok(connect(base(), 'publisher:publisher', 'exchange:direct')), 'exchange:direct', 'queue:queue'),
    );
    expect(first.publishers[0]).toMatchObject({ exchange: 'direct', routingKey: 'queue' });
    // binding first, then the publisher
    const second = ok(
      connect(ok(connect(base(), 'exchange:direct', 'queue:queue')), 'publisher:publisher', 'exchange:direct'),
    );
    expect(second.publishers[0]).toMatchObject({ exchange: 'direct', routingKey: 'queue' });
    // a key the user chose is left alone, and so is a keyless publisher on a fanout exchange
    const chosen = { ...base(), publishers: [{ ...base().publishers[0]!, exchange: 'direct', routingKey: 'orders' }] };
    expect(ok(connect(chosen, 'exchange:direct', 'queue:queue')).publishers[0]!.routingKey).toBe('orders');
    expect(ok(connect(base(), 'publisher:publisher', 'exchange:fanout')).publishers[0]!.routingKey).toBe('');
  });

  it('refuses meaningless connections', () => {
    expect(connect(base(), 'consumer:consumer', 'queue:queue')).toEqual({
      error: 'a consumer cannot connect to a queue',
    });
    expect(connect(base(), 'exchange:direct', 'publisher:publisher')).toHaveProperty('error');
  });
});

describe('delete, rename, duplicate keep references whole', () => {
  it('deleting an exchange drops its bindings, the DLX arguments that name it and nothing else', () => {
    const d = deleteElements(dlxTtlRetry(), ['exchange:retry'], []);
    expect(d.topology.exchanges.map((x) => x.name)).toEqual(['work']);
    expect(d.topology.bindings.every((b) => b.source !== 'retry')).toBe(true);
    expect(d.topology.queues.find((q) => q.name === 'work.q')!.arguments).toEqual({});
    expect(d.layout?.['exchange:retry']).toBeUndefined();
  });

  it('deleting a queue takes its consumer with it', () => {
    const d = deleteElements(dlxTtlRetry(), ['queue:work.q'], []);
    expect(d.consumers).toEqual([]);
  });

  it('deleting a node drops where it was read (design.sources), also for the consumer that goes with its queue', () => {
    const src = (line: number) => ({ framework: 'spring-boot' as const, file: 'application.yml', line });
    const d = deleteElements(
      { ...dlxTtlRetry(), sources: { 'queue:work.q': src(3), 'consumer:worker': src(7), 'queue:wait.q': src(9) } },
      ['queue:work.q'],
      [],
    );
    expect(d.sources).toEqual({ 'queue:wait.q': src(9) });
  });

  it('deleting a dead-letter edge removes the DLX and its routing key', () => {
    const d = deleteElements(dlxTtlRetry(), [], [edgeIdOf.deadLetter('work.q')]);
    expect(d.topology.queues[0]!.arguments).toEqual({});
  });

  it('renaming an exchange follows bindings, DLX arguments, publishers and layout', () => {
    const r = renameNode(dlxTtlRetry(), 'exchange:work', 'orders');
    if (!r.ok) throw new Error(r.error.message);
    const d = r.design;
    expect(d.topology.bindings[0]!.source).toBe('orders');
    expect(d.topology.queues.find((q) => q.name === 'wait.q')!.arguments?.['x-dead-letter-exchange']).toBe('orders');
    expect(d.publishers[0]!.exchange).toBe('orders');
    expect(d.layout?.['exchange:orders']).toEqual(dlxTtlRetry().layout?.['exchange:work']);
    expect(validateDesign(d).ok).toBe(true);
  });

  it('renaming a queue or a consumer carries where the app-config import read it (design.sources); an undo brings the old keys back', () => {
    const src = (line: number) => ({ framework: 'spring-boot' as const, file: 'application.yml', line });
    const before = {
      ...dlxTtlRetry(),
      sources: { 'queue:work.q': src(3), 'consumer:worker': src(7), 'queue:wait.q': src(9) },
    };
    const store = createAppStore();
    store.getState().loadDesign(before, { history: false });
    for (const [id, next] of [
      ['queue:work.q', 'orders.work'],
      ['consumer:worker', 'orders-worker'],
    ] as const) {
      const r = renameNode(store.getState().design, id, next);
      if (!r.ok) throw new Error(r.error.message);
      store.getState().setDesign(r.design);
    }
    expect(store.getState().design.sources).toEqual({
      'queue:orders.work': src(3),
      'consumer:orders-worker': src(7),
      'queue:wait.q': src(9),
    });
    expect(validateDesign(store.getState().design).ok).toBe(true);
    store.getState().undo();
    expect(store.getState().design.sources).toEqual({
      'queue:orders.work': src(3),
      'consumer:worker': src(7),
      'queue:wait.q': src(9),
    });
    store.getState().undo();
    expect(store.getState().design.sources).toEqual(before.sources);
  });

  it('renaming the template queue renames its counter, DLRK and binding key in one edit; taken or invalid names are refused', () => {
    const built = buildTemplate('dlx-ttl-wait-queue');
    if (!built.ok) throw new Error('template');
    const t = built.template.design;
    const r = renameNode(t, 'queue:orders.q', 'orders.work');
    if (!r.ok) throw new Error(r.error.message);
    expect(JSON.stringify(r.design)).not.toContain('"orders.q"');
    expect(renameNode(t, 'queue:orders.q', 'orders.wait')).toMatchObject({
      ok: false,
      error: { path: 'topology.queues[1].name' },
    });
    expect(renameNode(t, 'queue:orders.q', '')).toMatchObject({
      ok: false,
      error: { path: 'topology.queues[0].name' },
    });
    // a refused rename inside a field edit keeps the old name and touches no other queue
    expect(
      updateQueue(t, 'orders.q', { ...t.topology.queues[0]!, name: 'orders.wait' }).topology.queues.map((q) => q.name),
    ).toEqual(['orders.q', 'orders.wait', 'orders.parking']);
  });

  it('duplicate copies nodes with new names and the bindings among them', () => {
    const r = duplicateNodes(dlxTtlRetry(), ['exchange:work', 'queue:work.q']);
    expect(r.nodeIds).toEqual(['exchange:work.copy', 'queue:work.q.copy']);
    expect(r.design.topology.bindings.some((b) => b.source === 'work.copy' && b.destination === 'work.q.copy')).toBe(
      true,
    );
    expect(validateDesign(r.design).ok).toBe(true);
  });

  it('added nodes get unique names and a valid design', () => {
    let d = emptyDesign();
    d = addNode(d, { kind: 'queue', type: 'quorum' }, { x: 1, y: 2 }).design;
    d = addNode(d, { kind: 'queue', type: 'quorum' }, { x: 1, y: 2 }).design;
    expect(d.topology.queues.map((q) => q.name)).toEqual(['quorum.queue', 'quorum.queue.2']);
    expect(d.topology.queues[0]!.arguments?.['x-queue-type']).toBe('quorum');
    expect(validateDesign(d).ok).toBe(true);
  });

  it('a stream from the palette is a durable x-queue-type stream the core accepts; a TTL on it is refused naming the field', () => {
    const d = addNode(emptyDesign(), { kind: 'queue', type: 'stream' }, { x: 1, y: 2 }).design;
    expect(d.topology.queues[0]).toMatchObject({
      name: 'stream',
      durable: true,
      arguments: { 'x-queue-type': 'stream' },
    });
    expect(validateDesign(d).ok).toBe(true);
    const withTtl = updateQueue(d, 'stream', {
      ...d.topology.queues[0]!,
      arguments: { 'x-queue-type': 'stream', 'x-message-ttl': 1000 },
    });
    expect(validateDesign(withTtl).errors.map((e) => e.path)).toEqual(['topology.queues[0].arguments.x-message-ttl']);
  });
});
describe('half-written behaviours never break the canvas', () => {
  it('republish targets and renames tolerate a behaviour that is not valid yet', async () => {
    const { republishSites } = await import('@retry-studio/topology-core/model');
    const { behaviourLines } = await import('./describe');
    const bad = { kind: 'worker', onFailure: 'oops' } as never;
    expect(republishSites(bad)).toEqual([]);
    expect(behaviourLines(bad)).toEqual(['(behaviour being edited: see the inspector)']);
    expect(behaviourLines({} as never)).toEqual(['(not a known behaviour kind)']);
    const d = dlxTtlRetry();
    const withBad = { ...d, consumers: [{ ...d.consumers[0]!, behaviour: { kind: 'nope' } as never }] };
    const r = renameNode(withBad, 'exchange:work', 'w2');
    expect(r.ok && r.design.consumers[0]!.behaviour).toEqual({ kind: 'nope' });
  });
});
describe('republish edges to a queue through the default exchange', () => {
  it('deleting the edge to the parking queue turns that republish back into a reject, and only that one', async () => {
    const { deleteElements } = await import('./designEdit');
    const { edgeIdOf } = await import('./edgeIds');
    const d = dlxTtlRetry();
    const out = deleteElements(d, [], [edgeIdOf.republishToQueue('worker', 'parking.q')]);
    const b = out.consumers[0]!.behaviour;
    expect(b.kind === 'worker' && b.onFailure.map((r) => r.then.kind)).toEqual(['reject', 'reject']);
    const other = deleteElements(d, [], [edgeIdOf.republishToQueue('worker', 'work.q')]);
    expect(other.consumers[0]!.behaviour).toEqual(d.consumers[0]!.behaviour);
  });
});
