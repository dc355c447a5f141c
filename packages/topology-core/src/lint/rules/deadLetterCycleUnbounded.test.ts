import { describe, expect, it } from 'vitest';
import type { AmqpTable, Topology } from '../../model/definitions.js';
import { lintDesign, lintTopology } from '../lintDesign.js';
import { assumedConsumers } from '../assumedConsumers.js';
import { designFromBroker } from '../../operate/scaffoldImport.js';

/** Issue 21.3's real case: work queue -> DLX -> 5 s TTL queue -> back to the work queue, nothing counts. */
function ttlLoop(o: { viaPolicy?: boolean; parkAfter?: boolean; radlx?: boolean } = {}): Topology {
  const workArgs: AmqpTable = o.viaPolicy ? {} : { 'x-dead-letter-exchange': 'retry' };
  return {
    exchanges: [
      { name: 'app', type: 'direct' },
      { name: 'retry', type: o.radlx ? 'radlx' : 'direct' },
      { name: 'back', type: 'direct' },
    ],
    queues: [
      { name: 'work', arguments: workArgs },
      {
        name: 'work.wait',
        arguments: { 'x-message-ttl': 5000, 'x-dead-letter-exchange': o.parkAfter ? 'park' : 'back' },
      },
    ],
    bindings: [
      { source: 'app', destination: 'work', destination_type: 'queue', routing_key: 'job' },
      { source: 'retry', destination: 'work.wait', destination_type: 'queue', routing_key: 'job' },
      { source: 'back', destination: 'work', destination_type: 'queue', routing_key: 'job' },
    ],
    ...(o.viaPolicy
      ? {
          policies: [
            {
              name: 'dlx',
              pattern: '^work$',
              'apply-to': 'queues',
              priority: 0,
              definition: { 'dead-letter-exchange': 'retry' },
            },
          ],
        }
      : {}),
  };
}
const cycles = (t: Topology) => lintTopology(t).filter((f) => f.id === 'dead-letter-cycle-unbounded');

describe('dead-letter-cycle-unbounded (a definitions file: consumers assumed)', () => {
  it('names the loop in order, that only a consumer counting x-death ends it, and how often it goes round', () => {
    const f = cycles(ttlLoop());
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({ severity: 'warning', objects: ['queue:work', 'queue:work.wait'] });
    expect(f[0]!.message).toMatch(
      /^work -> work\.wait -> work: a dead-letter cycle that nothing in the topology bounds/,
    );
    expect(f[0]!.message).toContain('about every 5 s');
    expect(f[0]!.message).toContain('only a consumer that counts x-death');
  });

  it('sees a dead-letter exchange set by a policy', () => expect(cycles(ttlLoop({ viaPolicy: true }))).toHaveLength(1));

  it('not when the last hop leaves the loop, nor through a radlx exchange (it counts)', () => {
    expect(cycles(ttlLoop({ parkAfter: true }))).toEqual([]);
    expect(cycles(ttlLoop({ radlx: true }))).toEqual([]);
  });

  it('not for a design: its consumers are known (retry-never-ends and retry-without-max judge them)', () => {
    const t = ttlLoop();
    const design = {
      format: 'retry-studio/design' as const,
      version: 1 as const,
      name: 'd',
      topology: t,
      consumers: [...assumedConsumers(t).consumers],
      publishers: [],
    };
    expect(lintDesign(design).map((f) => f.id)).not.toContain('dead-letter-cycle-unbounded');
  });

  it('the linter and the vhost importer assume the same consumers', () => {
    const t = ttlLoop();
    const a = assumedConsumers(t);
    expect(a.roles).toEqual({ work: 'work', 'work.wait': 'wait' });
    const imported = designFromBroker(
      { rabbitVersion: '3.10.8', vhost: '/', exchanges: t.exchanges, queues: t.queues, bindings: t.bindings },
      { layout: false },
    );
    expect(imported.ok && imported.design.consumers).toEqual(a.consumers);
    expect(imported.ok && imported.roles).toEqual(a.roles);
  });
});
