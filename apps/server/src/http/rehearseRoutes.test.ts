import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import type { RehearseRequest, RehearseResponse } from '@retry-studio/contract';
import { fig, uniformCalibration } from '@retry-studio/topology-core/testing/calibration';
import { startTestServer, type TestServer } from './testing.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: { rehearse: { burst: 1000, perSecond: 1000 } } });
});
afterAll(async () => server.close());

const design = (() => {
  const r = buildTemplate('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 5 });
  if (!r.ok) throw new Error('template');
  return r.template.design;
})();

describe('POST /api/rehearse', () => {
  it("returns the report with the issue's names", async () => {
    const body: RehearseRequest = {
      design,
      load: {
        rate: 10,
        durationMs: 60_000,
        targets: [{ target: 'worker', consumerOutages: [{ startMs: 10_000, endMs: 40_000 }] }],
      },
    };
    const res = await server.post('/api/rehearse', body);
    expect(res.status).toBe(200);
    const r = res.body as RehearseResponse;
    expect(r.outcomes).toMatchObject({ acked: 400, parked: 200, parkedIn: { 'orders.parking': 200 } });
    expect(r.queues.map((q) => q.name)).toEqual(['orders.q', 'orders.wait', 'orders.parking']);
    expect(Object.keys(r.brokerOps).sort()).toEqual([
      'deadLettersPerSec',
      'deliveriesPerSec',
      'publishesPerSec',
      'retriesPeakAtMs',
      'retriesPerSec',
    ]);
  });

  it('a load that does not fit the design: 400 naming the field', async () => {
    const res = await server.post('/api/rehearse', {
      design,
      load: {
        rate: 10,
        durationMs: 10_000,
        targets: [{ target: 'nobody', consumerOutages: [{ startMs: 0, endMs: 1000 }] }],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('load.targets[0].target');
    const bad = await server.post('/api/rehearse', { design, load: { rate: 10, durationMs: 10_000, errorRate: 2 } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('load.errorRate');
  });

  it("the broker's bill: a calibration given, the node's RAM named; a calibration that is not one, 400 naming its field", async () => {
    const calibration = uniformCalibration({ ramBytes: 500 });
    const load = { rate: 10, durationMs: 20_000, brokerMemoryBytes: 2 ** 30 };
    const res = await server.post('/api/rehearse', { design, load, calibration });
    expect(res.status).toBe(200);
    const r = res.body as RehearseResponse;
    expect(r.calibration.source).toBe('given');
    expect(r.node.brokerMemoryBytes).toBe(2 ** 30);
    expect(r.queues[0]!.perMessage.ramBytes).toBe(500);
    const bad = await server.post('/api/rehearse', {
      design,
      load,
      calibration: { ...calibration, ceilings: [{ ...calibration.ceilings[0]!, requeuePerSec: fig(0) }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('calibration.ceilings[0].requeuePerSec.value');
  });
});
