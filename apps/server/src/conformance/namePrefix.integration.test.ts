/** Without the management API the broker target isolates a run by a name prefix, and cleans up. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareObserved } from '@retry-studio/topology-core/scenario';
import { parseAmqpUrl } from '../broker/amqpUrl.js';
import { ManagementClient } from '../broker/management.js';
import { probeBroker } from '../broker/probe.js';
import { loadScenarioFile } from './loadScenarios.js';
import { runBrokerScenario } from './runBrokerScenario.js';
import { BROKER_310 } from '../testing/testBrokers.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const url = parseAmqpUrl(process.env.AMQP_URL);

describe('broker target without management', () => {
  it('runs under a name prefix in the default vhost, un-prefixes the trace, and deletes what it declared', async () => {
    const offline = new ManagementClient(url, { baseUrl: 'http://127.0.0.1:1', timeoutMs: 300 });
    const probe = await probeBroker(url, { managementUrl: offline.baseUrl });
    expect(probe.management.available).toBe(false);
    const { scenario } = await loadScenarioFile(
      path.join(repoRoot, 'packages/topology-core/conformance/scenarios/multiple-deaths-chain.json'),
    );
    const r = await runBrokerScenario(scenario, { url, probe, management: offline });
    expect(r.kind).toBe('observed');
    if (r.kind !== 'observed') return;
    expect(r.isolation).toBe('prefix');
    expect(compareObserved(r.observed, scenario.expect!).diff).toEqual([]);
    const live = new ManagementClient(url, { baseUrl: BROKER_310.managementUrl });
    const leftovers = (await live.listQueues('/')).filter((q) => q.name.startsWith('retry-studio-conformance-'));
    expect(leftovers).toEqual([]);
  });
});

describe('broker target for a user who may not create vhosts', () => {
  it('falls back to the name prefix', async () => {
    const admin = 'Basic ' + Buffer.from(`${url.username}:${url.password}`).toString('base64');
    const api = `http://${url.hostname}:15672/api`;
    const user = `retry-studio-test-${process.pid}-${Date.now()}`;
    const h = { authorization: admin, 'content-type': 'application/json' };
    expect(
      (
        await fetch(`${api}/users/${user}`, {
          method: 'PUT',
          headers: h,
          body: JSON.stringify({ password: 'pw-for-test', tags: 'management' }),
        })
      ).ok,
    ).toBe(true);
    try {
      await fetch(`${api}/permissions/%2F/${user}`, {
        method: 'PUT',
        headers: h,
        body: JSON.stringify({ configure: '.*', write: '.*', read: '.*' }),
      });
      const limited = { ...url, username: user, password: 'pw-for-test' };
      const mgmt = new ManagementClient(limited, { baseUrl: BROKER_310.managementUrl });
      const probe = await probeBroker(limited, { managementUrl: mgmt.baseUrl });
      expect(probe.management.available).toBe(true);
      const { scenario } = await loadScenarioFile(
        path.join(repoRoot, 'packages/topology-core/conformance/scenarios/ttl-zero.json'),
      );
      const r = await runBrokerScenario(scenario, { url: limited, probe, management: mgmt });
      expect(r.kind === 'observed' && r.isolation).toBe('prefix');
      if (r.kind === 'observed') expect(compareObserved(r.observed, scenario.expect!).diff).toEqual([]);
    } finally {
      await fetch(`${api}/users/${user}`, { method: 'DELETE', headers: h });
    }
  });
});
