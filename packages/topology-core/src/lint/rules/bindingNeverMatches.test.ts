import { describe, expect, it } from 'vitest';
import type { Design } from '../../model/design.js';
import { buildTemplate, listTemplates } from '../../templates/registry.js';
import { lintDesign } from '../lintDesign.js';

function template(id: string, params: Record<string, unknown> = {}): Design {
  const r = buildTemplate(id, params);
  if (!r.ok) throw new Error(`${id}: ${JSON.stringify(r.errors)}`);
  return r.template.design;
}
const ids = (d: Design, id: string) => lintDesign(d).filter((f) => f.id === id && f.severity !== 'info');

describe('binding-never-matches and ttl-queue-without-exit', () => {
  it.each(listTemplates().map((t) => [t.id]))(
    'template %s: every binding can match, every TTL queue has a way out',
    (id) => {
      const d = template(id);
      expect(ids(d, 'binding-never-matches')).toEqual([]);
      expect(ids(d, 'ttl-queue-without-exit')).toEqual([]);
    },
  );

  it('flags a binding whose key no publisher, republish or dead letter carries (a typo, a stale key)', () => {
    const d = template('dlx-ttl-wait-queue');
    const fromPublisher = d.topology.bindings.findIndex((b) =>
      d.publishers.some((p) => p.exchange === b.source && p.routingKey === b.routing_key),
    );
    expect(fromPublisher).toBeGreaterThanOrEqual(0);
    const b = d.topology.bindings[fromPublisher]!;
    const broken: Design = {
      ...d,
      topology: {
        ...d.topology,
        bindings: d.topology.bindings.map((x, i) => (i === fromPublisher ? { ...x, routing_key: 'orders.typo' } : x)),
      },
    };
    const f = ids(broken, 'binding-never-matches');
    expect(f).toHaveLength(1);
    expect(f[0]!.message).toContain(`${b.source} -> ${b.destination}`);
    expect(f[0]!.message).toContain('"orders.typo"');
  });

  it('a wildcard binding no current key matches is only an info (binary delay levels bind every level)', () => {
    const f = lintDesign(template('binary-delay-levels')).filter((x) => x.id === 'binding-never-matches');
    expect(f.length).toBeGreaterThan(0);
    expect(f.every((x) => x.severity === 'info')).toBe(true);
  });

  it('does not judge a design without publishers (a definitions file) or a key taken from a header', () => {
    const d = template('dlx-ttl-wait-queue');
    const bindings = d.topology.bindings.map((x) => ({ ...x, routing_key: 'nothing.sends.this' }));
    expect(ids({ ...d, publishers: [], topology: { ...d.topology, bindings } }, 'binding-never-matches')).toEqual([]);
  });

  it('flags a TTL queue that lost its dead-letter exchange and has no consumer; a policy DLX is a way out', () => {
    const d = template('dlx-ttl-wait-queue');
    const wait = d.topology.queues.find(
      (q) => typeof q.arguments?.['x-message-ttl'] === 'number' && !d.consumers.some((c) => c.queue === q.name),
    )!;
    expect(wait).toBeDefined();
    const stripped = {
      ...wait,
      arguments: Object.fromEntries(
        Object.entries(wait.arguments ?? {}).filter(([k]) => !k.startsWith('x-dead-letter')),
      ),
    };
    const lost: Design = {
      ...d,
      topology: { ...d.topology, queues: d.topology.queues.map((q) => (q.name === wait.name ? stripped : q)) },
    };
    // it still receives dead letters: parked-dead-letters-expire says they are discarded when the TTL ends
    expect(ids(lost, 'ttl-queue-without-exit')).toEqual([]);
    const f = ids(lost, 'parked-dead-letters-expire');
    expect(f.map((x) => x.objects)).toEqual([[`queue:${wait.name}`]]);
    const dlx = wait.arguments!['x-dead-letter-exchange'] as string;
    const viaPolicy: Design = {
      ...lost,
      topology: {
        ...lost.topology,
        policies: [
          {
            name: 'wait-dlx',
            pattern: `^${wait.name.replace(/\./g, '\\.')}$`,
            'apply-to': 'queues',
            priority: 0,
            definition: { 'dead-letter-exchange': dlx },
          },
        ],
      },
    };
    expect(ids(viaPolicy, 'ttl-queue-without-exit')).toEqual([]);
    expect(ids(viaPolicy, 'parked-dead-letters-expire')).toEqual([]);
    // a TTL queue nothing feeds by dead-lettering: ttl-queue-without-exit's
    const fed = {
      ...d,
      topology: {
        ...d.topology,
        queues: [...d.topology.queues, { name: 'lonely', arguments: { 'x-message-ttl': 1000 } }],
        bindings: [
          ...d.topology.bindings,
          {
            source: d.publishers[0]!.exchange,
            destination: 'lonely',
            destination_type: 'queue' as const,
            routing_key: d.publishers[0]!.routingKey,
          },
        ],
      },
    };
    expect(ids(fed, 'ttl-queue-without-exit').map((x) => x.objects)).toEqual([['queue:lonely']]);
  });
});
