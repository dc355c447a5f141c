/**
 * POST /api/upgrade/verify: the Upgrade view's "verify on a broker", the CLI's --verify-on over
 * HTTP (one engine). On 4.3: a mirroring policy is refused as predicted, in the broker's words,
 * the migrated design is accepted, the throwaway vhosts are deleted; a broker of another line is
 * refused before anything is declared.
 */
import { describe, expect, it } from 'vitest';
import { DESIGN_FORMAT, DESIGN_VERSION, type Design, type Topology } from '@retry-studio/topology-core/model';
import { useLiveServer } from '../testing/liveServer.js';
import { BROKER_310, BROKER_43 } from '../testing/testBrokers.js';

const { srv } = useLiveServer();

const legacy = (): Design => {
  const topology: Topology = {
    exchanges: [{ name: 'hv', type: 'direct', durable: true, auto_delete: false, internal: false, arguments: {} }],
    queues: [{ name: 'hv.q', durable: true, auto_delete: false, arguments: { 'x-queue-version': 1 } }],
    bindings: [{ source: 'hv', destination: 'hv.q', destination_type: 'queue', routing_key: 'k', arguments: {} }],
    policies: [
      { name: 'hv-ha', pattern: '^hv\\.q$', 'apply-to': 'queues', priority: 0, definition: { 'ha-mode': 'all' } },
    ],
  };
  return {
    format: DESIGN_FORMAT,
    version: DESIGN_VERSION,
    name: 'hv',
    profile: '3.10',
    topology,
    consumers: [],
    publishers: [],
  };
};

describe('POST /api/upgrade/verify', () => {
  it("declares the original and the migration on 4.3: refusals as predicted, in the broker's words, vhosts deleted", async () => {
    const r = await srv.post('/api/upgrade/verify', {
      design: legacy(),
      from: '3.10',
      to: '4.3',
      broker: BROKER_43.amqpUrl,
      managementUrl: BROKER_43.managementUrl,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.brokerVersion).toMatch(/^4\.3\./);
    const policy = r.body.original.outcomes.find((o: { object: string }) => o.object === 'policy hv-ha');
    expect(policy).toMatchObject({ accepted: false, predicted: 'refused', agrees: true });
    expect(policy.brokerSaid).toMatch(/ha-mode|mirror/i);
    expect(r.body.migrated.outcomes.every((o: { accepted: boolean }) => o.accepted)).toBe(true);
    expect(r.body.original.cleanedUp && r.body.migrated.cleanedUp && r.body.originalImport.cleanedUp).toBe(true);
    expect(r.body.agrees).toBe(true);
  }, 60_000);

  it('refuses a broker of another line than the target, naming the field', async () => {
    const r = await srv.post('/api/upgrade/verify', {
      design: legacy(),
      from: '3.10',
      to: '4.3',
      broker: BROKER_310.amqpUrl,
      managementUrl: BROKER_310.managementUrl,
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ field: 'broker', error: expect.stringMatching(/3\.10\.\d+.*not the 4\.3/) });
    const same = await srv.post('/api/upgrade/verify', { design: legacy(), from: '4.3', to: '4.3' });
    expect(same.status).toBe(400);
  });
});
