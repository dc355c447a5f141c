/**
 * Pointing the API at a broker: the management API found by itself or given (`managementUrl`),
 * and refused when it is another broker's, with nothing half-deployed (both real brokers).
 */
import { describe, expect, it } from 'vitest';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { useForeignEndpoints } from '../testing/foreignServers.js';
import { useLiveServer } from '../testing/liveServer.js';
import { BROKER_310, BROKER_43, TEST_BROKERS } from '../testing/testBrokers.js';
import { retryLoopDesign, uniquePrefix } from './testing.js';

const { srv, onCleanup } = useLiveServer();
const mgmtOf = (b: typeof BROKER_43) => new ManagementClient(parseAmqpUrl(b.amqpUrl), { baseUrl: b.managementUrl });
const probe = (amqpUrl: string, managementUrl?: string) =>
  srv.post('/api/broker', { broker: amqpUrl, ...(managementUrl ? { managementUrl } : {}) });

/** queues named with `prefix` on either broker */
async function leftovers(prefix: string): Promise<string[]> {
  const all = await Promise.all(
    TEST_BROKERS.map(async (b) => (await mgmtOf(b).listQueues('/')).map((q) => `${b.name}:${q.name}`)),
  );
  return all.flat().filter((n) => n.includes(prefix));
}

describe.each(TEST_BROKERS)('RabbitMQ $name, management API discovered', (b) => {
  it('the probe finds its own management API and reports the version', async () => {
    const t0 = performance.now();
    const r = await probe(b.amqpUrl);
    const ms = performance.now() - t0;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.version.startsWith(`${b.name}.`)).toBe(true);
    expect(r.body.management).toMatchObject({ available: true, baseUrl: b.managementUrl, source: 'discovered' });
    console.log(`probe ${b.name}: ${Math.round(ms)} ms, of which management discovery ${r.body.management.ms} ms`);
  });

  it('plan, deploy and teardown act on that broker only', async () => {
    const prefix = uniquePrefix('disc');
    const d = retryLoopDesign('disc');
    const dep = await srv.post('/api/deploy', { design: d, prefix, broker: b.amqpUrl });
    expect(dep.status, JSON.stringify(dep.body)).toBe(200);
    onCleanup(() => srv.post('/api/teardown', { designName: 'disc', prefix, force: true, broker: b.amqpUrl }));
    expect((await leftovers(prefix)).every((n) => n.startsWith(`${b.name}:`))).toBe(true);
    expect(await leftovers(prefix)).toHaveLength(3);
    const plan = await srv.post('/api/plan', { design: d, prefix, broker: b.amqpUrl, managementUrl: b.managementUrl });
    expect(plan.body.plan.summary.unchanged).toBe(9);
    const td = await srv.post('/api/teardown', { designName: 'disc', prefix, broker: b.amqpUrl });
    expect(td.status, JSON.stringify(td.body)).toBe(200);
    expect(await leftovers(prefix)).toEqual([]);
  });
});

describe.each(TEST_BROKERS)('RabbitMQ $name, live trace', (b) => {
  const live = useLiveServer({ broker: b });

  it('a retry loop traced on that broker: real dead-letter hops with x-death, balanced, as predicted', async () => {
    const prefix = uniquePrefix('trace');
    const d = {
      ...retryLoopDesign('trace-both', { ttl: 150, maxRetries: 1 }),
      profile: b.name === '3.10' ? ('3.10' as const) : ('4.x' as const),
    };
    await live.deploy(d, prefix);
    // one message: with two, 4.3 delivers the second `redelivered: true` (dead-lettered into the
    // queue of a consumer that still holds the first: ../shared/reference/rabbitmq-4.3.md)
    const run = await live.runTrace({ design: d, prefix, messages: 1 });
    expect(run.summary).toMatchObject({ state: 'complete', published: 1, parked: 1, inFlight: 0, balanced: true });
    const dl = run.events.filter((e) => e.msgId === 'p1-1' && e.kind === 'dead-lettered');
    expect(dl.map((e) => e.kind === 'dead-lettered' && [e.queue, e.reason])).toEqual([
      ['work.q', 'rejected'],
      ['retry.q', 'expired'],
    ]);
    const second = run.events.filter((e) => e.msgId === 'p1-1' && e.kind === 'delivered')[1];
    expect(second?.kind === 'delivered' && second.xDeath?.map((x) => [x.queue, x.reason])).toEqual([
      ['retry.q', 'expired'],
      ['work.q', 'rejected'],
    ]);
    // 4.x adds x-last-death-* on every death, 3.10 does not
    expect(second?.kind === 'delivered' && second.headers['x-last-death-reason']).toBe(
      b.name === '3.10' ? undefined : 'expired',
    );
    const pred = await live.srv.get(`/api/trace/${run.id}/prediction`);
    expect(pred.body.comparison).toMatchObject({ messagesCompared: 1, matching: 1 });
  }, 30_000);
});

describe('bad input', () => {
  it("another broker's management API (AMQP 5673, management 15672): refused naming both brokers, nothing deployed", async () => {
    const prefix = uniquePrefix('other');
    const d = retryLoopDesign('other');
    const body = { design: d, prefix, broker: BROKER_43.amqpUrl, managementUrl: BROKER_310.managementUrl };
    for (const route of ['/api/plan', '/api/deploy', '/api/trace']) {
      const r = await srv.post(route, body);
      expect(r.status, route).toBe(400);
      expect(r.body.field).toBe('managementUrl');
      expect(r.body.error).toMatch(
        /managementUrl: the management API at http:\/\/127\.0\.0\.1:15672 belongs to a different broker: it is RabbitMQ 3\.10\.8 .*, while amqp:\/\/guest:\*\*\*@127\.0\.0\.1:5673\/%2F is RabbitMQ 4\.3\./,
      );
      expect(r.body.error).not.toMatch(/guest:guest/);
    }
    expect(await leftovers(prefix)).toEqual([]);
    // the probe still describes the AMQP side, and says why the management API was refused
    const p = await probe(BROKER_43.amqpUrl, BROKER_310.managementUrl);
    expect(p.status).toBe(200);
    expect(p.body.version.startsWith('4.3.')).toBe(true);
    expect(p.body.management.available).toBe(false);
    expect(p.body.management.error).toMatch(/belongs to a different broker/);
  });

  it('teardown with the wrong management URL touches nothing; with the right one it removes the deployment', async () => {
    const prefix = uniquePrefix('tdwrong');
    const d = retryLoopDesign('tdwrong');
    expect((await srv.post('/api/deploy', { design: d, prefix, broker: BROKER_43.amqpUrl })).status).toBe(200);
    onCleanup(() =>
      srv.post('/api/teardown', { designName: 'tdwrong', prefix, force: true, broker: BROKER_43.amqpUrl }),
    );
    const wrong = await srv.post('/api/teardown', {
      designName: 'tdwrong',
      prefix,
      broker: BROKER_43.amqpUrl,
      managementUrl: BROKER_310.managementUrl,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe('managementUrl');
    expect(await leftovers(prefix)).toHaveLength(3);
    const right = await srv.post('/api/teardown', {
      designName: 'tdwrong',
      prefix,
      broker: BROKER_43.amqpUrl,
      managementUrl: BROKER_43.managementUrl,
    });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(await leftovers(prefix)).toEqual([]);
  });

  it('a management URL that is not a URL, or on a host off the allow-list: 400/403 naming managementUrl', async () => {
    const d = retryLoopDesign('bad');
    const bad = await srv.post('/api/plan', { design: d, broker: BROKER_43.amqpUrl, managementUrl: '127.0.0.1:15673' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      field: 'managementUrl',
      error: expect.stringMatching(/bad management URL: .*http:\/\/host:15672/),
    });
    const far = await srv.post('/api/plan', {
      design: d,
      broker: BROKER_43.amqpUrl,
      managementUrl: 'http://192.0.2.1:15672',
    });
    expect(far.status).toBe(403);
    expect(far.body).toMatchObject({
      field: 'managementUrl',
      error: expect.stringMatching(/management host '192\.0\.2\.1' is not allowed/),
    });
    const probeBad = await probe(BROKER_43.amqpUrl, 'ftp://127.0.0.1:15673');
    expect(probeBad.status).toBe(400);
    expect(probeBad.body.field).toBe('managementUrl');
    const unknown = await srv.post('/api/plan', { design: d, managementURL: 'http://127.0.0.1:15673' });
    expect(unknown.status).toBe(400);
  });

  it('a management API answering 401 (a user without the management tag): 502 naming managementUrl, nothing deployed', async () => {
    const admin = mgmtOf(BROKER_43);
    const user = `retry-studio-test-nomgmt-${process.pid}-${Date.now()}`;
    const h = {
      authorization: 'Basic ' + Buffer.from('guest:guest').toString('base64'),
      'content-type': 'application/json',
    };
    await fetch(`${admin.baseUrl}/api/users/${user}`, {
      method: 'PUT',
      headers: h,
      body: JSON.stringify({ password: 'pw', tags: '' }),
    });
    onCleanup(() => fetch(`${admin.baseUrl}/api/users/${user}`, { method: 'DELETE', headers: h }));
    await fetch(`${admin.baseUrl}/api/permissions/%2F/${user}`, {
      method: 'PUT',
      headers: h,
      body: JSON.stringify({ configure: '.*', write: '.*', read: '.*' }),
    });
    const prefix = uniquePrefix('noauth');
    const r = await srv.post('/api/deploy', {
      design: retryLoopDesign('noauth'),
      prefix,
      broker: `amqp://${user}:pw@127.0.0.1:5673/`,
    });
    expect(r.status).toBe(502);
    expect(r.body.field).toBe('managementUrl');
    expect(r.body.error).toMatch(
      new RegExp(
        `^deploy: no management API .*http://127\\.0\\.0\\.1:15673 refused user '${user}' \\(401\\): the user needs the management tag`,
      ),
    );
    expect(r.body.error).not.toMatch(/:pw@/);
    expect(await leftovers(prefix)).toEqual([]);
  });

  describe('endpoints that are not what they claim', () => {
    const ends = useForeignEndpoints(BROKER_43.amqpPort);

    it('a broker URL that is not RabbitMQ (an HTTP server): 502 naming broker and the step', async () => {
      const r = await probe(`amqp://guest:guest@127.0.0.1:${ends.html.port}/`);
      expect(r.status).toBe(502);
      expect(r.body.field).toBe('broker');
      expect(r.body.error).toMatch(/^probe: amqp:\/\/guest:\*\*\*@127\.0\.0\.1:\d+\/%2F is not a RabbitMQ AMQP port/);
      const plan = await srv.post('/api/plan', {
        design: retryLoopDesign('x'),
        broker: `amqp://guest:guest@127.0.0.1:${ends.html.port}/`,
      });
      expect(plan.status).toBe(502);
      expect(plan.body.field).toBe('broker');
    });

    it('a management URL that is not RabbitMQ: named as such', async () => {
      const r = await srv.post('/api/plan', {
        design: retryLoopDesign('x'),
        broker: BROKER_43.amqpUrl,
        managementUrl: `http://127.0.0.1:${ends.html.port}`,
      });
      expect(r.status).toBe(502);
      expect(r.body).toMatchObject({
        field: 'managementUrl',
        error: expect.stringMatching(
          /^plan: managementUrl: http:\/\/127\.0\.0\.1:\d+ is not a RabbitMQ management API/,
        ),
      });
    });

    it('a broker without a reachable management API: the probe works, plan/deploy/trace say what they cannot see, nothing deployed', async () => {
      const amqpUrl = `amqp://guest:guest@127.0.0.1:${ends.forward.port}/`;
      const p = await probe(amqpUrl);
      expect(p.status).toBe(200);
      expect(p.body.version.startsWith('4.3.')).toBe(true);
      expect(p.body.management.available).toBe(false);
      expect(p.body.exchangeTypesSource).toBe('declare');
      expect(p.body.management.tried[0]).toMatchObject({ baseUrl: BROKER_310.managementUrl, problem: 'other-broker' });
      const prefix = uniquePrefix('nomgmt');
      for (const [route, step] of [
        ['/api/plan', 'plan'],
        ['/api/deploy', 'deploy'],
        ['/api/trace', 'trace'],
      ] as const) {
        const r = await srv.post(route, { design: retryLoopDesign('nomgmt'), prefix, broker: amqpUrl });
        expect(r.status, route).toBe(502);
        expect(r.body.field).toBe('managementUrl');
        expect(r.body.error).toMatch(
          new RegExp(
            `^${step}: no management API of RabbitMQ 4\\.3\\.\\d+ .* found by discovery .*give the management URL.*; without it the ${step} cannot see `,
          ),
        );
      }
      expect(await leftovers(prefix)).toEqual([]);
      // given explicitly, the broker's own API makes it work through the forward
      const ok = await srv.post('/api/plan', {
        design: retryLoopDesign('nomgmt'),
        prefix,
        broker: amqpUrl,
        managementUrl: BROKER_43.managementUrl,
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    });
  });
});
