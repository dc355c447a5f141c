/**
 * The HTTP API's safety and bad-input handling (reliability-security.md §3 and its 20 cases),
 * through a real server on a loopback port, with the real broker behind it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import {
  bindQ,
  design,
  rawRequest,
  retryLoopDesign,
  startTestServer,
  uniquePrefix,
  type TestServer,
} from './testing.js';
import { BROKER_310 } from '../testing/testBrokers.js';

let srv: TestServer;
const mgmt = new ManagementClient(parseAmqpUrl('amqp://guest:guest@127.0.0.1:5672/'), {
  baseUrl: BROKER_310.managementUrl,
});
beforeAll(async () => {
  srv = await startTestServer();
});
afterAll(async () => {
  await srv.close();
});

const one = (q: Record<string, unknown>) => design({ name: 'bad', queues: [{ name: 'q', ...q }] });

async function nothingDeclared(prefix: string) {
  const qs = await mgmt.listQueues('/');
  const xs = await mgmt.listExchanges('/');
  expect(qs.some((q) => q.name.startsWith(prefix))).toBe(false);
  expect(xs.some((x) => x.name.startsWith(prefix))).toBe(false);
}

describe('requests from browsers', () => {
  it('refuses a foreign Host (DNS rebinding)', async () => {
    const r = await rawRequest(srv.port, 'GET', '/api/health', { host: 'evil.example' });
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ error: expect.stringMatching(/not this server/), field: 'Host' });
    const r2 = await rawRequest(srv.port, 'GET', '/api/health', { host: `localhost:${srv.port + 1}` });
    expect(r2.status).toBe(403);
    const prefix = uniquePrefix('rebind');
    const post = await rawRequest(
      srv.port,
      'POST',
      '/api/deploy',
      { host: `attacker.example:${srv.port}`, 'content-type': 'application/json' },
      JSON.stringify({ design: retryLoopDesign('x'), prefix }),
    );
    expect(post.status).toBe(403);
    await nothingDeclared(prefix);
    expect((await rawRequest(srv.port, 'GET', '/api/health', { host: `localhost:${srv.port}` })).status).toBe(200);
    expect((await rawRequest(srv.port, 'GET', '/api/health', { host: `[::1]:${srv.port}` })).status).toBe(200);
  });

  it('refuses a cross-site POST, a foreign Origin and a non-JSON body; nothing is applied', async () => {
    const prefix = uniquePrefix('csrf');
    const body = { design: retryLoopDesign('csrf'), prefix };
    const cross = await srv.post('/api/deploy', body, { 'sec-fetch-site': 'cross-site' });
    expect(cross.status).toBe(403);
    expect(cross.body.field).toBe('Sec-Fetch-Site');
    const origin = await srv.post('/api/deploy', body, { origin: 'http://evil.example' });
    expect(origin.status).toBe(403);
    expect(origin.body.field).toBe('Origin');
    const plain = await srv.post('/api/deploy', JSON.stringify(body), { 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    const form = await srv.post('/api/deploy', 'design=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    await nothingDeclared(prefix);
    // our own origin is fine
    const same = await srv.post('/api/plan', body, {
      origin: `http://localhost:${srv.port}`,
      'sec-fetch-site': 'same-origin',
    });
    expect(same.status).toBe(200);
  });

  it('refuses __proto__ / constructor keys anywhere, unknown fields, bad JSON and big bodies', async () => {
    const proto = await srv.post('/api/plan', '{"design":{"topology":{"__proto__":{"polluted":1}}}}');
    expect(proto.status).toBe(400);
    expect(proto.body).toEqual({ error: 'key "__proto__" is not allowed', field: 'design.topology.__proto__' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const ctor = await srv.post('/api/plan', { design: one({ arguments: { constructor: 1 } }) });
    expect(ctor.status).toBe(400);
    const unknown = await srv.post('/api/plan', { design: one({}), deleteEverything: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('deleteEverything');
    const bad = await srv.post('/api/plan', '{"design":');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/not valid JSON/);
    const big = await srv.post('/api/plan', { design: one({}), pad: 'x'.repeat(3_000_000) });
    expect(big.status).toBe(413);
    expect(JSON.stringify(big.body)).not.toMatch(/at .*\.js/); // no stack trace
  });

  it('a probe is a POST checked like every state-changing route; GET with a URL in the query is refused and logs in nowhere', async () => {
    const connections = async () =>
      (await mgmt.listConnections()).filter((c) =>
        c.client_properties?.connection_name?.startsWith('retry-studio:probe'),
      ).length;
    const get = await srv.get('/api/broker?url=' + encodeURIComponent('amqp://guest:guest@127.0.0.1:5672/'));
    expect(get.status).toBe(405);
    expect(get.body.error).toMatch(/POST \/api\/broker/);
    const cross = await srv.post(
      '/api/broker',
      { broker: 'amqp://guest:guest@127.0.0.1:5672/' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(cross.status).toBe(403);
    const origin = await srv.post(
      '/api/broker',
      { broker: 'amqp://guest:guest@127.0.0.1:5672/' },
      { origin: 'http://evil.example' },
    );
    expect(origin.status).toBe(403);
    expect(await connections()).toBe(0);
    const unknown = await srv.post('/api/broker', { url: 'amqp://guest:guest@127.0.0.1:5672/' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('url');
  });

  it('rate-limits deploy, teardown, trace and plan', async () => {
    const limited = await startTestServer({
      rateLimits: {
        deploy: { burst: 3, perSecond: 0.01 },
        teardown: { burst: 1, perSecond: 0.01 },
        trace: { burst: 1, perSecond: 0.01 },
        plan: { burst: 2, perSecond: 0.01 },
      },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await limited.post('/api/deploy', { design: { nope: 1 } })).status);
      expect(statuses).toEqual([400, 400, 400, 429, 429]);
      const last = await limited.post('/api/deploy', { design: { nope: 1 } });
      expect(last.body.error).toMatch(/too many deploy requests/);
      expect([
        (await limited.post('/api/teardown', {})).status,
        (await limited.post('/api/teardown', {})).status,
      ]).toEqual([400, 429]);
      expect([(await limited.post('/api/trace', {})).status, (await limited.post('/api/trace', {})).status]).toEqual([
        400, 429,
      ]);
      // a plan reads the whole vhost through the management API: 500 at once once cost a shared broker 4,000 requests
      const plans: number[] = [];
      for (let i = 0; i < 3; i++) plans.push((await limited.post('/api/plan', { design: { nope: 1 } })).status);
      expect(plans).toEqual([400, 400, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('bad input is refused before the broker is asked', () => {
  it('a 256-byte name (ASCII or emoji) names the field and the limit', async () => {
    const prefix = uniquePrefix('long');
    for (const name of ['q'.repeat(256), '😀'.repeat(64)]) {
      const r = await srv.post('/api/plan', { design: design({ name: 'long', queues: [{ name }] }), prefix });
      expect(r.status).toBe(400);
      expect(r.body.field).toBe('design.topology.queues[0].name');
      expect(r.body.error).toMatch(/256 bytes.*255/);
    }
    // 255 bytes alone is fine, but not once the prefix is added
    const r = await srv.post('/api/deploy', {
      design: design({ name: 'long', queues: [{ name: 'q'.repeat(250) }] }),
      prefix,
    });
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('design.topology.queues[0].name');
    expect(r.body.error).toMatch(/with the prefix/);
    await nothingDeclared(prefix);
  });

  it('amq. names are reserved', async () => {
    const prefix = uniquePrefix('amq');
    const r = await srv.post('/api/deploy', {
      design: design({ name: 'amq', exchanges: [{ name: 'amq.retry', type: 'direct' }] }),
      prefix,
    });
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('design.topology.exchanges[0].name');
    expect(r.body.error).toMatch(/amq\./);
    const q = await srv.post('/api/deploy', { design: design({ name: 'amq', queues: [{ name: 'amq.q' }] }), prefix });
    expect(q.status).toBe(400);
    const p = await srv.post('/api/deploy', {
      design: design({ name: 'amq', queues: [{ name: 'q' }] }),
      prefix: 'amq.',
    });
    expect(p.status).toBe(400);
    expect(p.body.field).toBe('prefix');
    await nothingDeclared(prefix);
  });

  it('bad TTLs and expiries name the argument', async () => {
    const prefix = uniquePrefix('ttl');
    for (const ttl of [1.5, '5000', -1, 4294967296]) {
      const r = await srv.post('/api/deploy', { design: one({ arguments: { 'x-message-ttl': ttl } }), prefix });
      expect(r.status, `ttl ${ttl}`).toBe(400);
      expect(r.body.field).toBe('design.topology.queues[0].arguments.x-message-ttl');
    }
    const exp = await srv.post('/api/deploy', { design: one({ arguments: { 'x-expires': 0 } }), prefix });
    expect(exp.status).toBe(400);
    expect(exp.body.field).toBe('design.topology.queues[0].arguments.x-expires');
    const dlrk = await srv.post('/api/deploy', {
      design: one({ arguments: { 'x-dead-letter-routing-key': 'k' } }),
      prefix,
    });
    expect(dlrk.status).toBe(400);
    await nothingDeclared(prefix);
  });

  it('a binding to an undrawn exchange is a referential error', async () => {
    const r = await srv.post('/api/plan', {
      design: design({ name: 'ref', queues: [{ name: 'q' }], bindings: [bindQ('nowhere', 'q')] }),
    });
    expect(r.status).toBe(400);
    expect(r.body.field).toMatch(/^design\.topology\.bindings\[0\]/);
  });

  it('a bad broker URL, a foreign broker host, never echoing the password', async () => {
    const d = one({});
    const unenc = await srv.post('/api/plan', { design: d, broker: 'amqp://guest:p@ss#1@127.0.0.1:5672/' });
    expect(unenc.status).toBe(400);
    expect(unenc.body.field).toBe('broker');
    expect(JSON.stringify(unenc.body)).not.toMatch(/p@ss|ss#1/);
    const junk = await srv.post('/api/plan', { design: d, broker: 'not a url' });
    expect(junk.status).toBe(400);
    const http = await srv.post('/api/plan', { design: d, broker: 'http://127.0.0.1:5672' });
    expect(http.status).toBe(400);
    const foreign = await srv.post('/api/plan', { design: d, broker: 'amqp://bob:s3cret@broker.example.com:5672/' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toMatch(/not allowed/);
    expect(JSON.stringify(foreign.body)).not.toMatch(/s3cret/);
    const probe = await srv.post('/api/broker', { broker: 'amqp://bob:s3cret@10.0.0.1/' });
    expect(probe.status).toBe(403);
    expect(probe.body.field).toBe('broker');
    const wrongPw = await srv.post('/api/plan', { design: d, broker: 'amqp://guest:wrong-secret@127.0.0.1:5672/' });
    expect(wrongPw.status).toBe(502);
    expect(JSON.stringify(wrongPw.body)).not.toMatch(/wrong-secret/);
    const closed = await srv.post('/api/broker', { broker: 'amqp://guest:guest@127.0.0.1:1/' });
    expect(closed.status).toBe(502);
    expect(closed.body.error).toMatch(/not reachable|refused/);
  });

  it('the probe reports version, exchange types and plugins', async () => {
    const r = await srv.post('/api/broker', {});
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      product: 'RabbitMQ',
      version: '3.10.8',
      plugins: { 'x-delayed-message': false },
      quorum: true,
      management: { available: true },
    });
    expect(r.body.url).toBe('amqp://guest:***@127.0.0.1:5672/%2F');
  });
});
