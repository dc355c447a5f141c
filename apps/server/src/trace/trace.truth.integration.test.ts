/**
 * The live trace tells the truth, on both brokers: the request's failure model applied as the
 * simulator applies it, balanced fates, and an honest comparison on deployments sabotaged out
 * of band (a binding deleted, a TTL set by a policy, a queue redeclared with another DLX), a
 * topology changed mid-run, and concurrent traces.
 */
import { describe, expect, it } from 'vitest';
import amqp from 'amqplib';
import { type Design } from '@retry-studio/topology-core/model';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { readSse, uniquePrefix } from '../http/testing.js';
import { TEST_BROKERS, type TestBroker } from '../testing/testBrokers.js';
import { simEvents, useLiveServer } from '../testing/liveServer.js';
import { waitUntil } from '../testing/waitUntil.js';

const { srv, onCleanup, waitDone } = useLiveServer();

function template(params: Record<string, unknown> = {}): Design {
  const r = buildTemplate('dlx-ttl-wait-queue', { delayMs: 200, ...params });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.template.design;
}

describe('a trace request', () => {
  it('refuses a bad failure model, naming the field', async () => {
    const d = template();
    for (const [failure, field] of [
      [{ kind: 'failFirst', n: -1 }, 'failure.n'],
      [{ kind: 'percent', percent: 101 }, 'failure.percent'],
      [{ kind: 'sometimes' }, 'failure.kind'],
      ['always', 'failure'],
    ] as const) {
      const r = await srv.post('/api/trace', { design: d, failure });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.field).toBe(field);
    }
  });

  it('refuses a bad node loss, naming the field', async () => {
    const d = template();
    for (const [nodeLoss, field] of [
      [{ node: 'rabbit@h', atMs: -1, downMs: 100, queues: [] }, 'nodeLoss.atMs'],
      [{ node: 'rabbit@h', atMs: 0, downMs: 100, queues: ['orders.q', 'nope'] }, 'nodeLoss.queues[1]'],
      [{ atMs: 0, downMs: 100, queues: [] }, 'nodeLoss.node'],
      ['rabbit@h', 'nodeLoss'],
    ] as const) {
      const r = await srv.post('/api/trace', { design: d, nodeLoss });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.field).toBe(field);
    }
  });
});

/** what the tests on one broker share: every request names it and its management API */
function onBroker(b: TestBroker) {
  // every request names the broker and its management API
  const on = { broker: b.amqpUrl, managementUrl: b.managementUrl };
  const auth = 'Basic ' + Buffer.from('guest:guest').toString('base64');
  const mgmt = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(b.managementUrl + path, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status}`);
    return r.status === 204 ? undefined : r.json().catch(() => undefined);
  };
  const deploy = async (d: Design, prefix: string) => {
    const r = await srv.post('/api/deploy', { design: d, prefix, ...on });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    onCleanup(() => srv.post('/api/teardown', { designName: d.name, prefix, ...on, force: true }));
  };
  const withChannel = async <T>(f: (ch: amqp.Channel) => Promise<T>): Promise<T> => {
    const c = await amqp.connect(b.amqpUrl);
    try {
      return await f(await c.createChannel());
    } finally {
      await c.close().catch(() => undefined);
    }
  };
  const trace = async (body: Record<string, unknown>) => {
    const t = await srv.post('/api/trace', { ...on, ...body });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    const summary = await waitDone(t.body.id, 60_000);
    const pred = await srv.get(`/api/trace/${t.body.id}/prediction?events=0`);
    expect(pred.status).toBe(200);
    const events = await srv.get(`/api/trace/${t.body.id}/prediction`);
    return {
      id: t.body.id as string,
      start: t.body,
      summary,
      comparison: pred.body.comparison,
      predicted: events.body.predicted as unknown[],
    };
  };
  const deleteRequeueBinding = (prefix: string) =>
    withChannel((ch) => ch.unbindQueue(`${prefix}orders.q`, `${prefix}orders.requeue`, 'orders.q'));
  return { on, mgmt, deploy, withChannel, trace, deleteRequeueBinding };
}

describe.each(TEST_BROKERS)('live trace on RabbitMQ $name', (b: TestBroker) => {
  const { mgmt, deploy, withChannel, trace, deleteRequeueBinding } = onBroker(b);

  it('dlx-ttl-wait-queue with failFirst 2: 12 dead-letter hops, 3 acks, balanced, 3 of 3 as predicted', async () => {
    const prefix = uniquePrefix('truth');
    const d = template();
    await deploy(d, prefix);
    const t = await trace({ design: d, prefix, messages: 3, failure: { kind: 'failFirst', n: 2 } });
    expect(t.summary).toMatchObject({
      state: 'complete',
      published: 3,
      acked: 3,
      parked: 0,
      inFlight: 0,
      dropped: 0,
      balanced: true,
    });
    expect(t.summary.eventCounts['dead-lettered']).toBe(12);
    expect(t.summary.eventCounts.acked).toBe(3);
    expect(t.summary.resting).toEqual({});
    expect(t.comparison).toMatchObject({ messagesCompared: 3, matching: 3 });
    expect(t.comparison.firstDifference).toBeUndefined();
  });

  it('a node loss asked for (a what-if) is in the prediction: orders.q delivers nothing while its node is down; the same steps per message', async () => {
    const prefix = uniquePrefix('nloss');
    const d = template();
    await deploy(d, prefix);
    const nodeLoss = { node: 'rabbit-c2@localhost', atMs: 0, downMs: 700, queues: ['orders.q'] };
    const t = await trace({ design: d, prefix, messages: 2, failure: { kind: 'failFirst', n: 1 }, nodeLoss });
    const pred = await srv.get(`/api/trace/${t.id}/prediction?events=0`);
    expect(pred.body.nodeLoss).toEqual({ ...nodeLoss, leaderMovesAfterMs: 1000, source: 'request' });
    const delivered = (t.predicted as { kind: string; queue?: string; t: number }[]).filter(
      (e) => e.kind === 'delivered' && e.queue === 'orders.q',
    );
    expect(delivered.length).toBeGreaterThan(0);
    expect(Math.min(...delivered.map((e) => e.t))).toBeGreaterThanOrEqual(700);
    // one broker: no node went down, none observed
    expect(t.summary.nodeLoss).toBeUndefined();
    expect(t.comparison).toMatchObject({ messagesCompared: 2, matching: 2 });
  });

  it('the requeue binding deleted out of band: both messages dropped at the unroutable hop, 0 of 2 as predicted', async () => {
    const prefix = uniquePrefix('nobind');
    const d = template();
    await deploy(d, prefix);
    await deleteRequeueBinding(prefix);
    const t = await trace({ design: d, prefix, messages: 2, failure: { kind: 'failFirst', n: 1 } });
    expect(t.start.warning).toMatch(/bindings are missing/);
    expect(t.summary).toMatchObject({ state: 'complete', published: 2, dropped: 2, acked: 0, balanced: true });
    expect(t.comparison).toMatchObject({ messagesCompared: 2, matching: 0 });
    expect(t.comparison.firstDifference).toMatchObject({
      what: 'routing',
      where: { exchange: 'orders.requeue' },
      predicted: 'routed orders.requeue -> [orders.q]',
      actual: 'routed orders.requeue -> []',
    });
  });

  it('a TTL set on the parking queue by a policy: parked messages expire and are dropped, unlike the prediction', async () => {
    const prefix = uniquePrefix('ttlpol');
    const d = template({ maxRetries: 1 });
    await deploy(d, prefix);
    const policy = `${prefix}ttl`;
    await mgmt('PUT', `/api/policies/%2F/${encodeURIComponent(policy)}`, {
      pattern: `^${prefix.replace(/\./g, '\\.')}orders\\.parking$`,
      'apply-to': 'queues',
      definition: { 'message-ttl': 100 },
      priority: 0,
    });
    onCleanup(() => mgmt('DELETE', `/api/policies/%2F/${encodeURIComponent(policy)}`));
    const t = await trace({ design: d, prefix, messages: 2, failure: { kind: 'always' } });
    expect(t.summary).toMatchObject({ state: 'complete', published: 2, dropped: 2, parked: 0, balanced: true });
    expect(t.comparison.matching).toBe(0);
    expect(t.comparison.firstDifference).toMatchObject({
      where: { queue: 'orders.parking' },
      actual: 'expired orders.parking',
    });
  });

  it('a queue redeclared with another dead-letter exchange: the first difference is its dead-letter hop', async () => {
    const prefix = uniquePrefix('redlx');
    const d = template();
    await deploy(d, prefix);
    await withChannel(async (ch) => {
      await ch.deleteQueue(`${prefix}orders.q`);
      // straight back to the work exchange, no wait
      await ch.assertQueue(`${prefix}orders.q`, {
        durable: true,
        arguments: { 'x-dead-letter-exchange': `${prefix}orders` },
      });
      await ch.bindQueue(`${prefix}orders.q`, `${prefix}orders`, 'task');
      await ch.bindQueue(`${prefix}orders.q`, `${prefix}orders.requeue`, 'orders.q');
    });
    const t = await trace({ design: d, prefix, messages: 2, failure: { kind: 'failFirst', n: 1 } });
    expect(t.start.warning).toMatch(/orders\.q/);
    expect(t.summary).toMatchObject({ state: 'complete', acked: 2, balanced: true });
    expect(t.comparison.matching).toBe(0);
    expect(t.comparison.firstDifference).toMatchObject({
      where: { queue: 'orders.q' },
      predicted: 'dead-lettered orders.q (rejected) -> orders.retry',
      actual: 'dead-lettered orders.q (rejected) -> orders',
    });
  });
});

describe.each(TEST_BROKERS)(
  'live trace on RabbitMQ $name: the deployment changed out of band, concurrent traces',
  (b: TestBroker) => {
    const { on, deploy, withChannel, deleteRequeueBinding } = onBroker(b);

    it('a binding deleted mid-run ends the trace with the reason', async () => {
      const prefix = uniquePrefix('midrun');
      const d = template({ delayMs: 60_000 });
      await deploy(d, prefix);
      const t = await srv.post('/api/trace', {
        ...on,
        design: d,
        prefix,
        messages: 1,
        failure: { kind: 'failFirst', n: 1 },
        durationMs: 30_000,
      });
      expect(t.status, JSON.stringify(t.body)).toBe(201);
      // the message waits in the wait queue (a loop that gave up silently let the test go on without it)
      await waitUntil(
        async () => (await srv.get(`/api/trace/${t.body.id}`)).body.resting['orders.wait'] === 1,
        'the message resting in orders.wait',
        { timeoutMs: 20_000, everyMs: 100 },
      );
      await deleteRequeueBinding(prefix);
      const s = await waitDone(t.body.id, 15_000);
      expect(s.state).toBe('stopped');
      expect(s.endReason).toMatch(/topology changed.*binding 'orders\.requeue' -> 'orders\.q' key 'orders\.q' removed/);
      expect(s).toMatchObject({ inFlight: 1, balanced: true });
    });

    it('the wait queue purged out of band mid-run: its messages are named dropped (vanished) long before their TTL, not left in flight', async () => {
      const prefix = uniquePrefix('purge');
      const d = template({ delayMs: 60_000 });
      await deploy(d, prefix);
      const t = await srv.post('/api/trace', {
        ...on,
        design: d,
        prefix,
        messages: 3,
        failure: { kind: 'failFirst', n: 1 },
        durationMs: 40_000,
      });
      expect(t.status, JSON.stringify(t.body)).toBe(201);
      const events = readSse(srv.base + t.body.events, { timeoutMs: 45_000 });
      await waitUntil(
        async () => (await srv.get(`/api/trace/${t.body.id}`)).body.resting['orders.wait'] === 3,
        'the 3 messages resting in orders.wait',
        { timeoutMs: 20_000, everyMs: 100 },
      );
      const purgedAt = Date.now();
      expect((await withChannel((ch) => ch.purgeQueue(`${prefix}orders.wait`))).messageCount).toBe(3);
      const s = await waitDone(t.body.id, 20_000);
      // about 3 s of the broker holding none while nothing moved, not the 60 s TTL nor the 40 s duration
      expect(Date.now() - purgedAt).toBeLessThan(15_000);
      expect(s).toMatchObject({
        state: 'complete',
        published: 3,
        acked: 0,
        parked: 0,
        inFlight: 0,
        dropped: 3,
        balanced: true,
        resting: {},
      });
      expect(s.endedWaitingFor).toBeUndefined();
      const { frames } = await events;
      const dropped = simEvents(frames).flatMap((e) => (e.kind === 'dropped' ? [e] : []));
      expect(dropped.map((e) => [e.why, e.queue])).toEqual([0, 1, 2].map(() => ['vanished', 'orders.wait']));
      expect(new Set(dropped.map((e) => e.msgId)).size).toBe(3);
      const notice = frames.find((f) => f.event === 'notice' && (f.data as { code: string }).code === 'copies-vanished')
        ?.data as { message: string } | undefined;
      expect(notice?.message).toMatch(
        /^queue 'orders\.wait' has held none of the 3 message\(s\) the trace counted there .*purged/,
      );
      const pred = await srv.get(`/api/trace/${t.body.id}/prediction?events=0`);
      expect(pred.body.comparison).toMatchObject({ messagesCompared: 3, matching: 0 });
      expect(pred.body.comparison.firstDifference).toMatchObject({ where: { queue: 'orders.wait' } });
    });

    it('concurrent traces on different deployments; the same deployment is a 409', async () => {
      const [p1, p2] = [uniquePrefix('conc1'), uniquePrefix('conc2')];
      const d = template();
      await Promise.all([deploy(d, p1), deploy(d, p2)]);
      const body = (prefix: string) => ({
        ...on,
        design: d,
        prefix,
        messages: 3,
        failure: { kind: 'failFirst', n: 1 },
      });
      const [a, c] = await Promise.all([srv.post('/api/trace', body(p1)), srv.post('/api/trace', body(p2))]);
      expect([a.status, c.status]).toEqual([201, 201]);
      const again = await srv.post('/api/trace', body(p1));
      expect(again.status).toBe(409);
      expect(again.body.error).toMatch(/still running on this deployment/);
      for (const t of [a, c]) {
        const s = await waitDone(t.body.id, 30_000);
        expect(s).toMatchObject({ state: 'complete', published: 3, acked: 3, balanced: true });
        const pred = await srv.get(`/api/trace/${t.body.id}/prediction?events=0`);
        expect(pred.body.comparison, JSON.stringify(pred.body.comparison.firstDifference)).toMatchObject({
          messagesCompared: 3,
          matching: 3,
        });
      }
    });
  },
);
