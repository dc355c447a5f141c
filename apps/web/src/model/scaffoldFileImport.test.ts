// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { loadDocument } from '@retry-studio/topology-core/io';
import { DESIGN_FORMAT, DESIGN_VERSION, type Design } from '@retry-studio/topology-core/model';
import { scaffoldFileImport } from './scaffoldFileImport';

/** a real file's shape: topic exchanges each bound to its queue, every queue dead-lettering to dlx.exchange through a policy */
function definitionsFile(services: readonly string[]): string {
  return JSON.stringify({
    rabbit_version: '3.12.0',
    exchanges: [
      ...services.map((s) => ({
        name: s,
        vhost: '/',
        type: 'topic',
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      })),
      {
        name: 'dlx.exchange',
        vhost: '/',
        type: 'direct',
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      },
    ],
    queues: services.map((s) => ({ name: `${s}.jobs`, vhost: '/', durable: true, auto_delete: false, arguments: {} })),
    bindings: services.map((s) => ({
      source: s,
      vhost: '/',
      destination: `${s}.jobs`,
      destination_type: 'queue',
      routing_key: `${s}.*`,
      arguments: {},
    })),
    policies: [
      {
        vhost: '/',
        name: 'dlx-policy',
        pattern: '.*',
        'apply-to': 'queues',
        priority: 1,
        definition: { 'dead-letter-exchange': 'dlx.exchange' },
      },
    ],
  });
}

describe('a definitions file opened in the designer', () => {
  it('gets a publisher per entry exchange (none for the dead-letter exchange) and a worker per work queue', () => {
    const r = loadDocument(definitionsFile(['trading', 'oracle', 'scheduler']), { name: 'platform' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.design.publishers).toEqual([]);
    const d = scaffoldFileImport(r.design);
    expect(d.publishers.map((p) => `${p.exchange} ${p.routingKey}`).sort()).toEqual([
      'oracle oracle.x',
      'scheduler scheduler.x',
      'trading trading.x',
    ]);
    // the policy makes them work queues: failures reject, so they dead-letter as on the broker
    expect(
      d.consumers.map((c) => [c.queue, c.behaviour.kind === 'worker' && c.behaviour.onFailure[0]!.then.kind]),
    ).toEqual([
      ['trading.jobs', 'reject'],
      ['oracle.jobs', 'reject'],
      ['scheduler.jobs', 'reject'],
    ]);
    expect(d.topology).toBe(r.design.topology);
    expect(d.name).toBe('platform');
  });

  it('leaves a design that has its own consumers or publishers as it is', () => {
    const own: Design = {
      format: DESIGN_FORMAT,
      version: DESIGN_VERSION,
      name: 'x',
      topology: { exchanges: [{ name: 'e', type: 'fanout' }], queues: [{ name: 'q' }], bindings: [] },
      consumers: [],
      publishers: [{ id: 'p', exchange: 'e', routingKey: '', bodyPrefix: 'm' }],
    };
    expect(scaffoldFileImport(own)).toBe(own);
  });
});
