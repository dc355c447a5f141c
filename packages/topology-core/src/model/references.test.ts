import { describe, expect, it } from 'vitest';
import type { Design } from './design.js';
import { designReferences, mapHeaderReferences, mapReferences } from './references.js';
import { renameNode } from './renameNode.js';
import { listTemplates, buildTemplate } from '../templates/registry.js';
import { simulate } from '../sim/simulate.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import type { FailureModel } from './consumer.js';

const template = (id: string): Design => {
  const r = buildTemplate(id);
  if (!r.ok) throw new Error(`template ${id}: ${r.errors[0]?.message}`);
  return r.template.design;
};

/** Every queue -> q1, q2...; every exchange -> x1, x2... (names that share nothing with the old ones). */
function renameEverything(d: Design): { design: Design; back: Map<string, string> } {
  let out = d;
  const back = new Map<string, string>();
  d.topology.queues.forEach((q, i) => {
    const r = renameNode(out, 'queue', q.name, `q${i + 1}`);
    if (!r.ok) throw new Error(r.error.message);
    out = r.design;
    back.set(`q${i + 1}`, q.name);
  });
  d.topology.exchanges.forEach((x, i) => {
    const r = renameNode(out, 'exchange', x.name, `x${i + 1}`);
    if (!r.ok) throw new Error(r.error.message);
    out = r.design;
    back.set(`x${i + 1}`, x.name);
  });
  return { design: out, back };
}

/** What a run did, with names mapped back: event kinds, times, queues, exchanges, consumers, attempts. */
function outcome(d: Design, failure: FailureModel, back: Map<string, string> = new Map()): string[] {
  const name = (n: unknown): unknown => (typeof n === 'string' ? (back.get(n) ?? n) : n);
  const r = simulate({ ...designToSimulation(d, { messages: 1, failure }), maxEvents: 3000 });
  // events at one instant may come in another order (a fanout visits queues in name order)
  const events = r.events.map((e) => {
    const o = e as unknown as Record<string, unknown>;
    return [e.t, e.kind, name(o.queue), name(o.exchange), o.consumer, o.attempt, o.why].join('|');
  });
  events.sort((a, b) => Number(a.split('|')[0]) - Number(b.split('|')[0]) || a.localeCompare(b));
  const final = Object.entries(r.final).map(([q, ms]) => `${String(name(q))}:${ms.length}`);
  return [...events, ...final.sort(), `truncated:${r.truncated}`];
}

describe('reference walker', () => {
  it('finds every kind of reference with its path', () => {
    const d = template('dlx-ttl-wait-queue');
    const refs = designReferences(d).filter((r) => r.target === 'queue' && r.name === 'orders.q');
    expect(refs.map((r) => [r.role, r.kind, r.path])).toEqual([
      ['declaration', 'declaration', 'topology.queues[0].name'],
      ['dead-letter-routing-key', 'routingKey', 'topology.queues[0].arguments.x-dead-letter-routing-key'],
      ['binding-destination', 'name', 'topology.bindings[0].destination'],
      ['binding-destination', 'name', 'topology.bindings[2].destination'],
      ['binding-key', 'routingKey', 'topology.bindings[2].routing_key'],
      ['consumer-queue', 'name', 'consumers[0].queue'],
      ['counter', 'name', 'consumers[0].behaviour.onFailure[0].when.counter.queue'],
      ['layout', 'name', 'layout["queue:orders.q"]'],
    ]);
  });

  it('reads policies, alternate exchanges, republish targets and radlx headers', () => {
    const d: Design = {
      ...template('dlx-ttl-wait-queue'),
      topology: {
        ...template('dlx-ttl-wait-queue').topology,
        exchanges: [
          { name: 'orders', type: 'direct', arguments: { 'alternate-exchange': 'orders.retry' } },
          { name: 'orders.retry', type: 'topic' },
          { name: 'orders.requeue', type: 'direct' },
        ],
        policies: [
          {
            name: 'p1',
            pattern: '^orders\\.q$',
            'apply-to': 'queues',
            definition: { 'dead-letter-exchange': 'orders.retry', 'dead-letter-routing-key': 'orders.q' },
          },
          { name: 'p2', pattern: '^orders\\.', definition: { 'alternate-exchange': 'orders.requeue' } },
        ],
      },
      publishers: [
        { id: 'p', exchange: '', routingKey: 'orders.q', properties: { headers: { 'radlx-track-queue': 'orders.q' } } },
      ],
    };
    const paths = (target: 'queue' | 'exchange', name: string): string[] =>
      designReferences(d)
        .filter((r) => r.target === target && r.name === name)
        .map((r) => r.path);
    expect(paths('exchange', 'orders.retry')).toContain('topology.exchanges[0].arguments.alternate-exchange');
    expect(paths('exchange', 'orders.retry')).toContain('topology.policies[0].definition.dead-letter-exchange');
    expect(paths('exchange', 'orders.requeue')).toContain('topology.policies[1].definition.alternate-exchange');
    expect(paths('queue', 'orders.q')).toEqual(
      expect.arrayContaining([
        'topology.policies[0].pattern',
        'topology.policies[0].definition.dead-letter-routing-key',
        'publishers[0].routingKey',
        'publishers[0].properties.headers.radlx-track-queue',
      ]),
    );
    const r = renameNode(d, 'queue', 'orders.q', 'orders.work');
    expect(r.ok && r.design.topology.policies).toEqual([
      {
        name: 'p1',
        pattern: '^orders\\.work$',
        'apply-to': 'queues',
        definition: { 'dead-letter-exchange': 'orders.retry', 'dead-letter-routing-key': 'orders.work' },
      },
      { name: 'p2', pattern: '^orders\\.', definition: { 'alternate-exchange': 'orders.requeue' } },
    ]);
    expect(r.ok && r.design.publishers[0]).toEqual({
      id: 'p',
      exchange: '',
      routingKey: 'orders.work',
      properties: { headers: { 'radlx-track-queue': 'orders.work' } },
    });
  });

  it('reads the x-first/last-death-* headers as names, in republish and publisher headers and in a bare header table', () => {
    const d = template('dlx-ttl-wait-queue');
    const withHeaders: Design = {
      ...d,
      publishers: [
        {
          id: 'p',
          exchange: '',
          routingKey: 'orders.q',
          properties: {
            headers: {
              'x-first-death-queue': 'orders.q',
              'x-first-death-exchange': '',
              'x-last-death-exchange': 'orders.retry',
            },
          },
        },
      ],
    };
    const refs = designReferences(withHeaders).filter((r) => r.role === 'death-header');
    // the default exchange ('') is no reference
    expect(refs.map((r) => [r.target, r.name, r.path])).toEqual([
      ['queue', 'orders.q', 'publishers[0].properties.headers.x-first-death-queue'],
      ['exchange', 'orders.retry', 'publishers[0].properties.headers.x-last-death-exchange'],
    ]);
    const up = (r: { name: string }) => r.name.toUpperCase();
    const h = {
      'x-first-death-queue': 'q',
      'x-first-death-exchange': 'x',
      'x-last-death-queue': 'r',
      'x-last-death-exchange': '',
      other: 'keep',
    };
    expect(mapHeaderReferences(h, up, 'headers')).toEqual({
      'x-first-death-queue': 'Q',
      'x-first-death-exchange': 'X',
      'x-last-death-queue': 'R',
      'x-last-death-exchange': '',
      other: 'keep',
    });
    const same = { other: 'keep' };
    expect(mapHeaderReferences(same, up, 'headers')).toBe(same);
  });

  it('keeps shapes it does not know and changes nothing when every name maps to itself', () => {
    const d = template('spring-stateless');
    expect(mapReferences(d, (r) => r.name)).toEqual(d);
    const odd = {
      topology: { queues: 'nope', bindings: [1, { source: 7 }] },
      consumers: [{ behaviour: { kind: 'nope' } }],
    };
    expect(designReferences(odd)).toEqual([]);
    expect(mapReferences(odd, () => 'x')).toEqual(odd);
  });

  for (const t of listTemplates())
    it(`renaming every queue and exchange of ${t.id} leaves its simulation identical`, () => {
      const d = template(t.id);
      const { design: renamed, back } = renameEverything(d);
      const old = new Set([...d.topology.queues.map((q) => q.name), ...d.topology.exchanges.map((x) => x.name)]);
      expect(designReferences(renamed).filter((r) => old.has(r.name))).toEqual([]);
      for (const failure of [{ kind: 'always' }, { kind: 'failFirst', n: 1 }] as const)
        expect(outcome(renamed, failure, back)).toEqual(outcome(d, failure));
    });
});

describe('renameNode', () => {
  const d = template('dlx-ttl-wait-queue');
  it('refuses an existing name, an invalid name and an unknown node, naming the field', () => {
    expect(renameNode(d, 'queue', 'orders.q', 'orders.wait')).toMatchObject({
      ok: false,
      error: { path: 'topology.queues[1].name', code: 'duplicate-name' },
    });
    expect(renameNode(d, 'queue', 'orders.q', 'amq.mine')).toMatchObject({
      ok: false,
      error: { path: 'topology.queues[0].name', code: 'name-reserved' },
    });
    expect(renameNode(d, 'exchange', 'orders', '')).toMatchObject({
      ok: false,
      error: { path: 'topology.exchanges[0].name', code: 'name-empty' },
    });
    expect(renameNode(d, 'exchange', 'nope', 'x')).toMatchObject({
      ok: false,
      error: { path: 'topology.exchanges', code: 'rename-unknown' },
    });
  });
  it('renames the counter, the DLRK, the binding key and the layout with the queue', () => {
    const r = renameNode(d, 'queue', 'orders.q', 'orders.work');
    if (!r.ok) throw new Error(r.error.message);
    expect(JSON.stringify(r.design)).not.toContain('"orders.q"');
    expect(r.design.layout?.['queue:orders.work']).toEqual(d.layout?.['queue:orders.q']);
  });
  it('renames the key of its app-config source (design.sources) with the queue, and leaves the others', () => {
    const source = { framework: 'celery' as const, file: 'celeryconfig.py', line: 4 };
    const r = renameNode(
      { ...d, sources: { 'queue:orders.q': source, 'consumer:w': source } },
      'queue',
      'orders.q',
      'orders.work',
    );
    if (!r.ok) throw new Error(r.error.message);
    expect(r.design.sources).toEqual({ 'queue:orders.work': source, 'consumer:w': source });
  });
});
