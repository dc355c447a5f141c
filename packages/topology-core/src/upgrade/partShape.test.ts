/**
 * The upgrade check simulates each shape of a design once (partShape.ts): copies of one retry
 * shape share a run and read it back under their own names. What is read back must be what a run
 * of the copy itself gives, and the work must grow with the design, never with its square.
 */
import { describe, expect, it } from 'vitest';
import { partShape } from './partShape.js';
import { fateOf, fateRunner, failureModels, type FateWork } from './behaviourDiff.js';
import { upgradeCheck } from './upgradeCheck.js';
import { migrateDesignForUpgrade } from './migrateDesignForUpgrade.js';
import { designParts } from '../sim/designParts.js';
import { listTemplates } from '../templates/registry.js';
import { templateDesign } from '../../testing/templateDesign.js';
import { copiesOf, designOf, nackDeliveryLimit, quorumNoLimit } from '../../testing/upgradeFixtures.js';
import { mapReferences } from '../model/references.js';
import type { Design } from '../model/design.js';
import { T } from '../../testing/builders.js';

const prefixed = (d: Design) => (p: string) => mapReferences({ ...d, name: p }, (r) => `${p}.${r.name}`);
const work = (): FateWork => ({ simulated: 0, reused: 0, queues: 0 });

describe('a part read back from its shape is the part run as it is', () => {
  for (const t of listTemplates()) {
    it(`${t.id}: the third copy's fates, from the first copy's runs`, () => {
      const d = copiesOf(prefixed(templateDesign(t.id)), 3);
      const partOf = designParts(d);
      const runner = fateRunner();
      d.publishers.forEach((_, i) => runner(partOf(i)));
      const last = d.publishers.length - 1;
      const fate = runner(partOf(last));
      for (const failure of failureModels(3)) {
        const r = fate('3.10', failure);
        expect(r.back(r.run.fate)).toEqual(fateOf(partOf(last), '3.10', failure));
      }
    });
  }
});

describe('names that decide more than equality: no shape, the part runs as it is', () => {
  it('a topic binding with a wildcard beside a routing key that names a queue', () => {
    const d = designOf(
      'topic',
      T.topology(
        T.exchange('x', 'topic'),
        T.queue('orders.q'),
        T.queue('all'),
        T.bind('x', 'orders.q', 'orders.q'),
        T.bind('x', 'all', 'orders.*'),
      ),
      [],
      [{ id: 'p', exchange: 'x', routingKey: 'orders.q' }],
    );
    expect(partShape(d)).toBeUndefined();
    // `#` alone matches every key whatever its words: the shape stands
    const hash = {
      ...d,
      topology: { ...d.topology, bindings: [T.bind('x', 'orders.q', 'orders.q'), T.bind('x', 'all', '#')] },
    };
    expect(partShape(hash)).toBeDefined();
  });
  it('a headers exchange', () => {
    const d = designOf('h', T.topology(T.exchange('h', 'headers'), T.queue('q'), T.bind('h', 'q', '', { a: 'q' })));
    expect(partShape(d)).toBeUndefined();
  });
  it('a policy keeps what it matched, and only that, under its tokens', () => {
    const d = designOf(
      'pol',
      T.topology(
        T.queue('a.q', { quorum: true }),
        T.queue('b.q', { quorum: true }),
        T.policy('limit', '^a\\.', { 'delivery-limit': 3 }),
        T.policy('elsewhere', '^zzz', { 'message-ttl': 1 }),
      ),
    );
    const s = partShape(d)!;
    expect(s.design.topology.policies).toEqual([
      expect.objectContaining({
        pattern: `^(?:${s.design.topology.queues[0]!.name})$`,
        definition: { 'delivery-limit': 3 },
      }),
    ]);
    expect(s.back(`policy ${s.design.topology.policies![0]!.name}`)).toBe('policy limit');
  });
});

describe('the upgrade check grows with the design (issue 42 item 2: 5/40/80 copies took 1.1/9.4/27.5 s)', () => {
  it('copies of one shape: one set of runs, however many copies', () => {
    const [w5, w40] = [work(), work()];
    upgradeCheck(copiesOf(nackDeliveryLimit, 5), { from: '3.10', to: '4.3' }, w5);
    upgradeCheck(copiesOf(nackDeliveryLimit, 40), { from: '3.10', to: '4.3' }, w40);
    expect(w40.simulated).toBe(w5.simulated);
    expect(w40.reused).toBeGreaterThan(w5.reused);
  });
  it('a definitions file (consumers assumed): the same', () => {
    const [w5, w40] = [work(), work()];
    migrateDesignForUpgrade(copiesOf(quorumNoLimit, 5, { bare: true }), { from: '3.10', to: '4.x' }, w5);
    migrateDesignForUpgrade(copiesOf(quorumNoLimit, 40, { bare: true }), { from: '3.10', to: '4.x' }, w40);
    expect(w40.simulated).toBe(w5.simulated);
  });
  it('copies with no shape: each publisher simulates its own part, never the whole design', () => {
    // a headers exchange in each copy: no shape, every part runs
    const headersCopy = (p: string) =>
      designOf(
        p,
        T.topology(
          T.exchange(p, 'headers'),
          T.exchange(`${p}.dlx`, 'fanout'),
          T.queue(`${p}.q`, { quorum: true, dlx: `${p}.dlx` }),
          T.queue(`${p}.dlq`),
          T.bind(p, `${p}.q`, '', { kind: 'job' }),
          T.bind(`${p}.dlx`, `${p}.dlq`),
        ),
        [{ id: 'w', queue: `${p}.q`, behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'requeue' } }] } }],
        [{ id: 'pub', exchange: p, routingKey: '', properties: { headers: { kind: 'job' } } }],
      );
    const [w2, w16] = [work(), work()];
    upgradeCheck(copiesOf(headersCopy, 2), { from: '3.10', to: '4.x' }, w2);
    upgradeCheck(copiesOf(headersCopy, 16), { from: '3.10', to: '4.x' }, w16);
    expect(w2.reused).toBe(0);
    // 8 times the copies: 8 times the runs and 8 times the queues simulated (the square would be 64)
    expect(w16.simulated).toBe(8 * w2.simulated);
    expect(w16.queues).toBe(8 * w2.queues);
  }, 60_000);
  it('what a copy reads back names its own objects', () => {
    const r = upgradeCheck(copiesOf(nackDeliveryLimit, 3), { from: '3.10', to: '4.3' });
    const fates = r.findings.filter((f) => f.kind === 'behaviour-changed');
    expect([...new Set(fates.map((f) => f.object))]).toEqual(['queue svc0.q', 'queue svc1.q', 'queue svc2.q']);
    const last = fates.at(-1)!;
    expect(last.message).toContain('svc2.q');
    expect(JSON.stringify(last)).not.toMatch(/svc[01]|⟦/);
  });
});
