/**
 * Equal-priority policies on both real brokers (issue 21.5): two policies of priority 0 match
 * the same queues; RabbitMQ applies one of them in its parameter store's hash order. Recorded
 * on 3.10.8 and 4.3.6 with this vhost's name (the name takes part in the hash: a random
 * throwaway name would change the answer, so the vhost is fixed and dropped after): the two
 * brokers choose differently. `import-broker` pins what the broker applies, so the design's
 * effective settings are the broker's, and lint says so.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { lintDesign } from '@retry-studio/topology-core/lint';
import { queueEffectiveSettings } from '@retry-studio/topology-core/model';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { importBroker } from './importBroker.js';
import { readSnapshot } from './readSnapshot.js';
import { readDepths } from './depths.js';
import { routingTopology } from '@retry-studio/topology-core/operate';
import { readBrokerTopology } from '../trace/brokerTopology.js';
import { waitUntil } from '../testing/waitUntil.js';

const VHOST = 'rs-users-lint-policy-tie';
const QUEUES = ['content_data_api', 'cache_clearing_service-low', 'orders'];
const definitions = {
  queues: QUEUES.map((name) => ({ name, vhost: VHOST, durable: true, auto_delete: false, arguments: {} })),
  exchanges: [
    { name: 'dlx', vhost: VHOST, type: 'fanout', durable: true, auto_delete: false, internal: false, arguments: {} },
  ],
  bindings: [],
  policies: [
    {
      name: 'dead-letter',
      vhost: VHOST,
      pattern: '^(content_data_api|cache_clearing_service-low|orders)$',
      'apply-to': 'queues',
      priority: 0,
      definition: { 'dead-letter-exchange': 'dlx', 'message-ttl': 60000 },
    },
    {
      name: 'ha-all',
      vhost: VHOST,
      pattern: '.*',
      'apply-to': 'queues',
      priority: 0,
      definition: { 'max-length': 100000 },
    },
  ],
};
/** What each broker applied to every queue (recorded with the vhost and names above). */
const RECORDED: Record<'3.10' | '4.3', string> = { '3.10': 'ha-all', '4.3': 'dead-letter' };

describe.each(TEST_BROKERS)('equal-priority policies on RabbitMQ $name', (b) => {
  const url = parseAmqpUrl(b.amqpUrl);
  const mgmt = new ManagementClient(url, { baseUrl: b.managementUrl });
  afterAll(async () => mgmt.deleteVhost(VHOST).catch(() => undefined));

  it('the broker applies one of the tied policies (recorded), and import-broker carries its choice into the design', async () => {
    await mgmt.deleteVhost(VHOST);
    await mgmt.createVhost(VHOST);
    await mgmt.loadDefinitions(VHOST, definitions);
    // each queue's policy shows with its statistics (every 5 s): 10 s of polling raced them on a loaded machine
    let applied: Record<string, string> = {};
    await waitUntil(
      async () => {
        const rows = await mgmt.queueDepths(VHOST);
        applied = Object.fromEntries(rows.filter((q) => q.policy).map((q) => [q.name, q.policy!]));
        return Object.keys(applied).length === QUEUES.length;
      },
      'every queue listed with its policy',
      { timeoutMs: 30_000, everyMs: 250 },
    );
    expect(applied).toEqual(Object.fromEntries(QUEUES.map((q) => [q, RECORDED[b.name]])));

    const r = await importBroker({ url, vhost: VHOST, management: mgmt });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.design.topology.policyPins).toEqual(applied);
    for (const q of r.design.topology.queues)
      expect(queueEffectiveSettings(q, r.design.topology).policy).toBe(RECORDED[b.name]);
    const tie = r.lint.find((f) => f.id === 'policy-priority-tie');
    expect(tie?.message).toContain(`The broker applies ${RECORDED[b.name]} (read from the live vhost)`);
    expect([...(lintDesign(r.design).find((f) => f.id === 'policy-priority-tie')?.objects ?? [])].sort()).toEqual(
      QUEUES.map((q) => `queue:${q}`).sort(),
    );

    // the re-drive (its routing topology: dry run, bounce-back) and the live trace (the broker's topology) read the same choice
    const live = routingTopology(await readSnapshot({ url, vhost: VHOST, management: mgmt }));
    expect(live.policyPins).toEqual(applied);
    for (const q of live.queues) expect(queueEffectiveSettings(q, live).policy).toBe(RECORDED[b.name]);
    const traced = await readBrokerTopology(mgmt, VHOST, r.design.topology);
    expect(traced.policyPins).toEqual(applied);
    const depths = await readDepths({ url, vhost: VHOST, management: mgmt });
    expect(Object.fromEntries(depths.queues.map((q) => [q.name, q.policy]))).toEqual(applied);
  });
});
