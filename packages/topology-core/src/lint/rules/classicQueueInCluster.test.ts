import { describe, expect, it } from 'vitest';
import type { Design } from '../../model/design.js';
import { buildTemplate } from '../../templates/registry.js';
import { lintDesign, lintTopology } from '../lintDesign.js';

function template(id: string): Design {
  const r = buildTemplate(id);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.template.design;
}
/** every queue of the design made quorum */
function allQuorum(d: Design): Design {
  return {
    ...d,
    topology: {
      ...d.topology,
      queues: d.topology.queues.map((q) => ({ ...q, arguments: { ...q.arguments, 'x-queue-type': 'quorum' } })),
    },
  };
}
const inCluster = (d: Design, nodes?: number) =>
  lintDesign(d, nodes === undefined ? {} : { nodes }).filter((f) => f.id === 'classic-queue-in-cluster');

describe('classic-queue-in-cluster', () => {
  it('is silent without a cluster: no nodes given, or one node', () => {
    expect(inCluster(template('dlx-ttl-wait-queue'))).toEqual([]);
    expect(inCluster(template('dlx-ttl-wait-queue'), 1)).toEqual([]);
  });

  it('warns for the classic wait and parking queues of dlx-ttl-wait-queue on 3 nodes, not for the consumed work queue', () => {
    const d = template('dlx-ttl-wait-queue');
    const found = inCluster(d, 3);
    const waits = d.topology.queues
      .filter((q) => typeof q.arguments?.['x-message-ttl'] === 'number')
      .map((q) => q.name);
    expect(waits.length).toBeGreaterThan(0);
    expect(found.map((f) => f.message.split(' ')[0]).sort()).toEqual(
      [...waits, ...d.topology.queues.filter((q) => /park|dead/.test(q.name)).map((q) => q.name)].sort(),
    );
    const work = d.consumers[0]!.queue;
    expect(found.some((f) => f.objects.includes(`queue:${work}` as never))).toBe(false);
    const wait = found.find((f) => f.message.includes('classic wait queue'))!;
    expect(wait).toMatchObject({
      severity: 'warning',
      message: expect.stringContaining('on a 3-node cluster'),
      fix: expect.stringContaining('x-queue-type quorum'),
    });
    expect(found.find((f) => f.message.includes('classic parking queue'))?.fix).toMatch(/or a stream/);
  });

  it('warns for the classic dead-letter queue of quorum-delivery-limit, and not once every queue is quorum', () => {
    const d = template('quorum-delivery-limit');
    expect(inCluster(d, 3).map((f) => f.message)).toEqual([
      expect.stringMatching(/^jobs\.dead is a classic dead-letter queue on a 3-node cluster/),
    ]);
    expect(inCluster(allQuorum(d), 3)).toEqual([]);
  });

  it('a definitions file (no consumers): wait and terminal queues still count', () => {
    const found = lintTopology(template('dlx-ttl-wait-queue').topology, { nodes: 3 }).filter(
      (f) => f.id === 'classic-queue-in-cluster',
    );
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((f) => /classic (wait|dead-letter) queue/.test(f.message))).toBe(true);
  });
});
