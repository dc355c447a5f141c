/** Finding a broker's own management API, and refusing another broker's (both real brokers). */
import { describe, expect, it } from 'vitest';
import { BROKER_310, BROKER_43 } from '../testing/testBrokers.js';
import { useForeignEndpoints } from '../testing/foreignServers.js';
import { parseAmqpUrl } from './amqpUrl.js';
import { ManagementClient } from './management.js';
import { ManagementResolutionError, requireManagement, resolveManagement } from './resolveManagement.js';

const url43 = parseAmqpUrl(BROKER_43.amqpUrl);
const noEnv = { env: {} };

describe('resolveManagement', () => {
  it('finds each broker its own API by discovery (4.3 on 5673: 15672 is the 3.10 broker, 15673 is its own)', async () => {
    for (const b of [BROKER_310, BROKER_43]) {
      const r = await resolveManagement(parseAmqpUrl(b.amqpUrl), noEnv);
      expect(r.kind).toBe('verified');
      if (r.kind !== 'verified') return;
      expect(r.client.baseUrl).toBe(b.managementUrl);
      expect(r.source).toBe('discovered');
      expect(r.broker.version.startsWith(`${b.name}.`)).toBe(true);
    }
    const r = await resolveManagement(url43, noEnv);
    expect(r.tried).toEqual([expect.objectContaining({ baseUrl: BROKER_310.managementUrl, problem: 'other-broker' })]);
  });

  it('takes the given URL (then the env) over discovery, and checks it the same way', async () => {
    const given = await resolveManagement(url43, { managementUrl: `${BROKER_43.managementUrl}/api/`, env: {} });
    expect(given.kind === 'verified' && given.source).toBe('given');
    const env = await resolveManagement(url43, { env: { RETRY_STUDIO_MANAGEMENT_URL: BROKER_43.managementUrl } });
    expect(env.kind === 'verified' && env.source).toBe('env');
  });

  it("refuses another broker's API, naming both brokers", async () => {
    const r = await resolveManagement(url43, { managementUrl: BROKER_310.managementUrl, env: {} });
    expect(r.kind).toBe('unavailable');
    const err = (() => {
      try {
        requireManagement(r);
      } catch (e) {
        return e as ManagementResolutionError;
      }
    })();
    expect(err).toBeInstanceOf(ManagementResolutionError);
    expect(err!.problem).toBe('other-broker');
    expect(err!.message).toMatch(
      /^managementUrl: the management API at http:\/\/127\.0\.0\.1:15672 belongs to a different broker: it is RabbitMQ 3\.10\.8 \(cluster \S+, node \S+\), while amqp:\/\/guest:\*\*\*@127\.0\.0\.1:5673\/%2F is RabbitMQ 4\.3\.\d+ \(cluster \S+\)$/,
    );
    // the env is checked the same way
    const env = await resolveManagement(url43, { env: { RETRY_STUDIO_MANAGEMENT_URL: BROKER_310.managementUrl } });
    expect(env.kind === 'unavailable' && env.message).toMatch(
      /^RETRY_STUDIO_MANAGEMENT_URL: the management API at .* belongs to a different broker/,
    );
  });

  describe('a broker whose management API is nowhere near (a TCP forward to 5673) and an HTTP server that is not RabbitMQ', () => {
    const ends = useForeignEndpoints(BROKER_43.amqpPort);

    it('discovery finds none, and says what it tried', async () => {
      const r = await resolveManagement(parseAmqpUrl(`amqp://guest:guest@127.0.0.1:${ends.forward.port}/`), noEnv);
      expect(r.kind).toBe('unavailable');
      if (r.kind !== 'unavailable') return;
      expect(r.tried[0]).toMatchObject({ baseUrl: BROKER_310.managementUrl, problem: 'other-broker' });
      expect(r.message).toMatch(
        /^no management API of RabbitMQ 4\.3\.\d+ .* found by discovery \(tried http:\/\/127\.0\.0\.1:15672.*\): the management API at http:\/\/127\.0\.0\.1:15672 belongs to a different broker.*; give the management URL/,
      );
      expect(() => requireManagement(r)).toThrow(ManagementResolutionError);
    });

    it('an HTTP server that is not RabbitMQ is named as such', async () => {
      const r = await resolveManagement(url43, { managementUrl: `http://127.0.0.1:${ends.html.port}`, env: {} });
      expect(r.kind === 'unavailable' && r.tried[0]!.problem).toBe('not-rabbitmq');
      expect(r.kind === 'unavailable' && r.message).toMatch(/is not a RabbitMQ management API/);
    });
  });

  it('a user who may use AMQP but not the management API (401): refused, with the reason', async () => {
    const admin = new ManagementClient(url43, { baseUrl: BROKER_43.managementUrl });
    const user = `retry-studio-test-nomgmt-${process.pid}-${Date.now()}`;
    const h = {
      authorization: 'Basic ' + Buffer.from('guest:guest').toString('base64'),
      'content-type': 'application/json',
    };
    const api = `${admin.baseUrl}/api`;
    expect(
      (
        await fetch(`${api}/users/${user}`, {
          method: 'PUT',
          headers: h,
          body: JSON.stringify({ password: 'pw-for-test', tags: '' }),
        })
      ).ok,
    ).toBe(true);
    try {
      await fetch(`${api}/permissions/%2F/${user}`, {
        method: 'PUT',
        headers: h,
        body: JSON.stringify({ configure: '.*', write: '.*', read: '.*' }),
      });
      const limited = { ...url43, username: user, password: 'pw-for-test' };
      const r = await resolveManagement(limited, { managementUrl: BROKER_43.managementUrl, env: {} });
      expect(r.kind === 'unavailable' && r.tried[0]!.problem).toBe('refused');
      expect(r.kind === 'unavailable' && r.message).toBe(
        `managementUrl: ${BROKER_43.managementUrl} refused user '${user}' (401): the user needs the management tag`,
      );
    } finally {
      await fetch(`${api}/users/${user}`, { method: 'DELETE', headers: h });
    }
  });
});
