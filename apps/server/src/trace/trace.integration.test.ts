/**
 * Live trace against the real broker: the events a retry loop produces, the alternate exchange
 * still working under observation, unroutable messages, a queue deleted under a worker.
 */
import { describe, expect, it } from 'vitest';
import amqp from 'amqplib';
import type { SimEvent } from '@retry-studio/topology-core/sim';
import { bindQ, design, readSse, retryLoopDesign, uniquePrefix } from '../http/testing.js';
import { simEvents as sim, TEST_AMQP_URL as URL, useLiveServer } from '../testing/liveServer.js';
import { waitUntil } from '../testing/waitUntil.js';

const { srv, deploy, waitDone, runTrace } = useLiveServer();

describe('live trace', () => {
  it('a retry loop: events in the simulator vocabulary with real x-death, TTL waits, balanced counts, matching the prediction', async () => {
    const prefix = uniquePrefix('trace');
    const d = retryLoopDesign('trace-retry', { ttl: 150, maxRetries: 1 });
    await deploy(d, prefix);
    // a foreign origin may not read the stream
    const start = await srv.post('/api/trace', { design: d, prefix, messages: 3 });
    expect(start.status, JSON.stringify(start.body)).toBe(201);
    const foreign = await readSse(srv.base + start.body.events, {
      headers: { origin: 'http://evil.example' },
      timeoutMs: 20_000,
    });
    expect(foreign.status).toBe(403);
    const { frames } = await readSse(srv.base + start.body.events, { timeoutMs: 30_000 });
    const events = sim(frames);
    const summary = await waitDone(start.body.id);
    expect(summary.state).toBe('complete');
    // failFirst 2, maxRetries 1: attempt 1 rejected -> retry.q -> attempt 2 fails with 1 death -> republished to parking
    expect(summary).toMatchObject({
      published: 3,
      confirmed: 3,
      acked: 0,
      parked: 3,
      inFlight: 0,
      dropped: 0,
      balanced: true,
    });
    expect(summary.resting).toEqual({ 'parking.q': 3 });
    expect(summary.brokerDepths['parking.q']).toEqual({ ready: 3, unacked: 0 });
    expect(summary.ttlWaits['retry.q'].n).toBe(3);
    expect(summary.ttlWaits['retry.q'].avgMs).toBeGreaterThanOrEqual(100);
    const m1 = events.filter((e) => e.msgId === 'p1-1');
    const kinds = m1.map((e) => e.kind);
    for (const k of [
      'published',
      'routed',
      'enqueued',
      'delivered',
      'processed',
      'rejected',
      'dead-lettered',
      'expired',
      'acked',
    ])
      expect(kinds).toContain(k);
    const dl = m1.filter((e) => e.kind === 'dead-lettered');
    expect(dl.map((e) => e.kind === 'dead-lettered' && [e.queue, e.reason, e.exchange])).toEqual([
      ['work.q', 'rejected', 'retry'],
      ['retry.q', 'expired', 'work'],
    ]);
    const second = m1.filter((e) => e.kind === 'delivered')[1];
    expect(second?.kind === 'delivered' && second.xDeath).toEqual([
      expect.objectContaining({
        queue: 'retry.q',
        reason: 'expired',
        count: 1,
        exchange: 'retry',
        time: expect.any(Number),
      }),
      expect.objectContaining({ queue: 'work.q', reason: 'rejected', count: 1, exchange: 'work' }),
    ]);
    // real headers, broker names, with a numeric timestamp
    const raw = second?.kind === 'delivered' ? (second.headers['x-death'] as any[]) : [];
    expect(raw[0].queue).toBe(`${prefix}retry.q`);
    expect(typeof raw[0].time).toBe('number');
    const rep = m1.find((e) => e.kind === 'published' && e.origin.kind === 'consumer');
    expect(rep).toMatchObject({ exchange: 'parking', origin: { kind: 'consumer', id: 'worker' } });
    expect(m1.some((e) => e.kind === 'routed' && e.exchange === 'parking' && e.queues.includes('parking.q'))).toBe(
      true,
    );
    // every event is a SimEvent with t and seq, in seq order
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const pred = await srv.get(`/api/trace/${start.body.id}/prediction`);
    expect(pred.status).toBe(200);
    expect(pred.body.comparison).toMatchObject({ messagesCompared: 3, matching: 3 });
    expect(pred.body.comparison.firstDifference).toBeUndefined();
    expect(pred.body.predicted.length).toBeGreaterThan(10);
    // ?messages=N: only the first N messages' predicted events (what the page draws)
    const firstOnly = await srv.get(`/api/trace/${start.body.id}/prediction?messages=1`);
    expect(firstOnly.status).toBe(200);
    const ids = new Set((firstOnly.body.predicted as SimEvent[]).map((e) => e.msgId).filter((id) => id !== ''));
    expect([...ids]).toEqual([(pred.body.predicted as SimEvent[]).find((e) => e.msgId !== '')!.msgId]);
    expect(firstOnly.body.predicted.length).toBeLessThan(pred.body.predicted.length);
    const bad = await srv.get(`/api/trace/${start.body.id}/prediction?messages=-1`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'messages' });
    // the observation queues are gone
    const c = await amqp.connect(URL);
    const ch = await c.createChannel();
    ch.on('error', () => undefined);
    await expect(ch.checkQueue(`rs-trace.${start.body.id}.obs.0`)).rejects.toThrow(/404|NOT_FOUND/);
    await c.close().catch(() => undefined);
  });

  it('the batched stream (?batch=1, the web app) carries the same events in the same order as the plain one', async () => {
    const prefix = uniquePrefix('batch');
    const d = retryLoopDesign('trace-batch', { ttl: 100, maxRetries: 1 });
    await deploy(d, prefix);
    const start = await srv.post('/api/trace', { design: d, prefix, messages: 5 });
    expect(start.status, JSON.stringify(start.body)).toBe(201);
    const [plain, batched] = await Promise.all([
      readSse(srv.base + start.body.events, { timeoutMs: 30_000 }),
      readSse(`${srv.base}${start.body.events}?batch=1`, { timeoutMs: 30_000 }),
    ]);
    const events = sim(plain.frames);
    expect(events.length).toBeGreaterThan(5 * 10);
    expect(sim(batched.frames)).toEqual(events);
    expect(batched.frames.at(-1)?.event).toBe('end');
  });

  it('the prediction shows the first point where the broker differs', async () => {
    const prefix = uniquePrefix('diff');
    const d = retryLoopDesign('trace-diff', { ttl: 100, maxRetries: 5 });
    await deploy(d, prefix);
    // the design now says the retry queue's TTL dead-letters to parking: the broker still has the old queue
    const changed = {
      ...d,
      topology: {
        ...d.topology,
        queues: d.topology.queues.map((q) =>
          q.name === 'work.q' ? { ...q, arguments: { 'x-dead-letter-exchange': 'parking' } } : q,
        ),
      },
    };
    const start = await srv.post('/api/trace', { design: changed, prefix, messages: 1 });
    expect(start.status, JSON.stringify(start.body)).toBe(201);
    expect(start.body.warning).toMatch(/work\.q/);
    await waitDone(start.body.id);
    const pred = await srv.get(`/api/trace/${start.body.id}/prediction?events=0`);
    expect(pred.body.comparison.firstDifference).toMatchObject({
      msgId: 'p1-1',
      what: 'milestone',
      predicted: 'dead-lettered work.q (rejected) -> parking',
      actual: 'dead-lettered work.q (rejected) -> retry',
    });
  });
});

describe('live trace: routing as the broker routes', () => {
  it('observation does not change routing: the alternate exchange still gets unroutable messages', async () => {
    const prefix = uniquePrefix('ae');
    const d = design({
      name: 'trace-ae',
      exchanges: [
        { name: 'in', type: 'direct', arguments: { 'alternate-exchange': 'ae' } },
        { name: 'ae', type: 'fanout' },
      ],
      queues: [{ name: 'known.q' }, { name: 'unrouted.q' }],
      bindings: [bindQ('in', 'known.q', 'known'), bindQ('ae', 'unrouted.q')],
      consumers: [],
      publishers: [
        { id: 'odd', exchange: 'in', routingKey: 'other' },
        { id: 'ok', exchange: 'in', routingKey: 'known' },
      ],
    });
    await deploy(d, prefix);
    const odd = await srv.post('/api/trace', { design: d, prefix, publisher: 'odd', messages: 2 });
    expect(odd.status).toBe(201);
    const s1 = await waitDone(odd.body.id);
    expect(s1.brokerDepths).toEqual({ 'known.q': { ready: 0, unacked: 0 }, 'unrouted.q': { ready: 2, unacked: 0 } });
    expect(s1).toMatchObject({ parked: 2, balanced: true });
    const { frames } = await readSse(srv.base + odd.body.events, { timeoutMs: 20_000 });
    const ev = sim(frames).filter((e) => e.msgId === 'odd-1');
    expect(ev.find((e) => e.kind === 'routed' && e.exchange === 'ae')).toMatchObject({
      alternateOf: 'in',
      queues: ['unrouted.q'],
    });
    expect(ev.find((e) => e.kind === 'routed' && e.exchange === 'in')).toMatchObject({ queues: [], exchanges: ['ae'] });
    const ok = await srv.post('/api/trace', { design: d, prefix, publisher: 'ok', messages: 1 });
    const s2 = await waitDone(ok.body.id);
    expect(s2.brokerDepths['known.q']).toEqual({ ready: 1, unacked: 0 });
    expect(s2.brokerDepths['unrouted.q']).toEqual({ ready: 2, unacked: 0 });
  });

  it('an unroutable publish is reported (unroutable, returned when mandatory, dropped)', async () => {
    const prefix = uniquePrefix('noroute');
    const d = design({
      name: 'trace-noroute',
      exchanges: [{ name: 'x', type: 'topic' }],
      queues: [{ name: 'q' }],
      bindings: [bindQ('x', 'q', 'a.*')],
      publishers: [{ id: 'p', exchange: 'x', routingKey: 'b.c', mandatory: true }],
    });
    await deploy(d, prefix);
    const t = await runTrace({ design: d, prefix, messages: 1 });
    expect(t.summary).toMatchObject({ dropped: 1, balanced: true });
    expect(t.events.map((e) => e.kind)).toEqual(
      expect.arrayContaining(['published', 'unroutable', 'returned', 'dropped']),
    );
    const pred = await srv.get(`/api/trace/${t.id}/prediction?events=0`);
    expect(pred.body.comparison.firstDifference).toBeUndefined();
  });

  it('a republish the broker returns (unroutable): its return follows the publish, the message is dropped at once, nothing held', async () => {
    const prefix = uniquePrefix('reret');
    const d = design({
      name: 'trace-republish-returned',
      exchanges: [
        { name: 'in', type: 'direct' },
        { name: 'nowhere', type: 'direct' },
      ],
      queues: [{ name: 'in.q' }],
      bindings: [bindQ('in', 'in.q', 'k')],
      consumers: [
        {
          id: 'w',
          queue: 'in.q',
          behaviour: {
            kind: 'worker',
            failure: { kind: 'always' },
            onFailure: [{ then: { kind: 'republish', exchange: 'nowhere', routingKey: 'k' } }],
          },
        },
      ],
      publishers: [{ id: 'p', exchange: 'in', routingKey: 'k' }],
    });
    await deploy(d, prefix);
    const started = Date.now();
    const t = await runTrace({ design: d, prefix, messages: 2, durationMs: 30_000 });
    expect(t.summary).toMatchObject({ state: 'complete', dropped: 2, balanced: true, outOfOrder: 0 });
    // settled in seconds: the copy's return did not wait out a hold for its publish
    expect(Date.now() - started).toBeLessThan(15_000);
    const mine = t.events.filter((e) => e.msgId === 'p-1').map((e) => e.kind);
    expect(mine.slice(mine.indexOf('processed'))).toEqual([
      'processed',
      'published',
      'routed',
      'unroutable',
      'dropped',
      'acked',
    ]);
  });

  it('script, requeue, republish with expiration and in-process retry behave as the simulator predicts', async () => {
    const prefix = uniquePrefix('behave');
    const d = design({
      name: 'trace-behaviours',
      exchanges: [
        { name: 'in', type: 'direct' },
        { name: 'later', type: 'direct' },
      ],
      queues: [
        { name: 'a' },
        { name: 'wait', arguments: { 'x-dead-letter-exchange': 'in', 'x-dead-letter-routing-key': 'b' } },
        { name: 'b' },
      ],
      bindings: [bindQ('in', 'a', 'a'), bindQ('later', 'wait', 'w'), bindQ('in', 'b', 'b')],
      consumers: [
        {
          id: 'scripted',
          queue: 'a',
          behaviour: {
            kind: 'script',
            actions: [
              { kind: 'requeue' },
              {
                kind: 'republish',
                exchange: 'later',
                routingKey: 'w',
                expiration: 80,
                headers: { 'x-retries': { kind: 'counter', by: { kind: 'header', name: 'x-retries' }, add: 1 } },
              },
            ],
          },
        },
        {
          id: 'retrying',
          queue: 'b',
          behaviour: {
            kind: 'worker',
            failure: { kind: 'failFirst', n: 2 },
            onFailure: [
              {
                then: {
                  kind: 'retryInProcess',
                  maxAttempts: 3,
                  backoff: { initialMs: 10, multiplier: 2, maxMs: 50 },
                  recover: { kind: 'reject' },
                },
              },
            ],
          },
        },
      ],
      publishers: [{ id: 'p', exchange: 'in', routingKey: 'a' }],
    });
    await deploy(d, prefix);
    const t = await runTrace({ design: d, prefix, messages: 2 });
    expect(t.summary).toMatchObject({ state: 'complete', acked: 2, balanced: true });
    const ev = t.events.filter((e) => e.msgId === 'p-1');
    expect(ev.filter((e) => e.kind === 'requeued')).toHaveLength(1);
    const rep = ev.find((e) => e.kind === 'published' && e.origin.kind === 'consumer');
    expect(rep).toMatchObject({
      exchange: 'later',
      expiration: '80',
      headers: expect.objectContaining({ 'x-retries': 1 }),
    });
    expect(ev.filter((e) => e.kind === 'processed').map((e) => e.kind === 'processed' && e.ok)).toEqual([
      false,
      false,
      true,
    ]);
    const pred = await srv.get(`/api/trace/${t.id}/prediction?events=0`);
    expect(pred.status).toBe(200);
    expect(pred.body.comparison.firstDifference).toBeUndefined();
    expect(pred.body.comparison.matching).toBe(2);
  });
});

describe('live trace: behaviours, default-exchange hops, vhosts, refusals and a deleted queue', () => {
  it("a failure model counts a message's attempts across workers, as the simulator does (tier 2 succeeds after tier 1 failed once)", async () => {
    const prefix = uniquePrefix('tiers');
    const worker = (id: string, queue: string) => ({
      id,
      queue,
      behaviour: {
        kind: 'worker' as const,
        failure: { kind: 'failFirst' as const, n: 1 },
        onFailure: [{ then: { kind: 'reject' as const } }],
      },
    });
    const d = design({
      name: 'trace-tiers',
      exchanges: [{ name: 'in', type: 'direct' }],
      queues: [
        { name: 'tier1', arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'tier2' } },
        { name: 'tier2', arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'parking' } },
        { name: 'parking' },
      ],
      bindings: [bindQ('in', 'tier1', 'job')],
      consumers: [worker('w1', 'tier1'), worker('w2', 'tier2')],
      publishers: [{ id: 'p', exchange: 'in', routingKey: 'job' }],
    });
    await deploy(d, prefix);
    const t = await runTrace({ design: d, prefix, messages: 2 });
    expect(t.summary).toMatchObject({ state: 'complete', acked: 2, parked: 0, balanced: true });
    const processed = t.events.filter((e) => e.msgId === 'p-1' && e.kind === 'processed');
    expect(processed.map((e) => e.kind === 'processed' && [e.consumer, e.attempt, e.ok])).toEqual([
      ['w1', 1, false],
      ['w2', 2, true],
    ]);
    const pred = await srv.get(`/api/trace/${t.id}/prediction?events=0`);
    expect(pred.status).toBe(200);
    expect(pred.body.comparison.firstDifference).toBeUndefined();
    expect(pred.body.comparison.matching).toBe(2);
  });

  it('hops through the default exchange (publish by queue name, dead-letter via DLX "" and a DLRK) are reported, with design names', async () => {
    const prefix = uniquePrefix('dflt');
    const d = design({
      name: 'trace-default-exchange',
      queues: [
        { name: 'work', arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'dead' } },
        { name: 'dead' },
      ],
      consumers: [
        {
          id: 'w',
          queue: 'work',
          behaviour: { kind: 'worker', failure: { kind: 'always' }, onFailure: [{ then: { kind: 'reject' } }] },
        },
        { id: 'd', queue: 'dead', behaviour: { kind: 'router', rules: [{ then: { kind: 'ack' } }] } },
      ],
      publishers: [{ id: 'p', exchange: '', routingKey: 'work' }],
    });
    await deploy(d, prefix);
    const t = await runTrace({ design: d, prefix, messages: 2 });
    expect(t.summary).toMatchObject({ state: 'complete', acked: 2, balanced: true });
    const ev = t.events.filter((e) => e.msgId === 'p-1');
    expect(ev.filter((e) => e.kind === 'routed')).toEqual([
      expect.objectContaining({ exchange: '', routingKeys: ['work'], queues: ['work'] }),
      expect.objectContaining({ exchange: '', routingKeys: ['dead'], queues: ['dead'] }),
    ]);
    expect(ev.find((e) => e.kind === 'dead-lettered')).toMatchObject({
      queue: 'work',
      reason: 'rejected',
      exchange: '',
      routingKeys: ['dead'],
    });
    expect(ev.find((e) => e.kind === 'published')).toMatchObject({ exchange: '', routingKey: 'work' });
    const pred = await srv.get(`/api/trace/${t.id}/prediction?events=0`);
    expect(pred.body.comparison.firstDifference).toBeUndefined();
    expect(pred.body.comparison.matching).toBe(2);
  });

  it('traces a design deployed in its own vhost', async () => {
    const vhost = uniquePrefix('tvh').slice(0, -1);
    const d = retryLoopDesign('trace-vhost', { ttl: 50, maxRetries: 5 });
    const dep = await srv.post('/api/deploy', { design: d, vhost });
    expect(dep.status).toBe(200);
    try {
      const t = await srv.post('/api/trace', { design: d, vhost, messages: 2 });
      expect(t.status, JSON.stringify(t.body)).toBe(201);
      expect(t.body.target).toEqual({ vhost, prefix: '' });
      const s = await waitDone(t.body.id);
      expect(s).toMatchObject({ state: 'complete', acked: 2, balanced: true });
    } finally {
      const td = await srv.post('/api/teardown', { designName: 'trace-vhost', vhost, force: true });
      expect(td.body.deletedVhost).toBe(true);
    }
  });

  it('a trace needs the design deployed', async () => {
    const r = await srv.post('/api/trace', { design: retryLoopDesign('never-deployed'), prefix: uniquePrefix('nd') });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/deploy it first/);
    // the count and the names agree (issue 30: "6 missing" named 5)
    const said = /(\d+) object\(s\) missing \(([^)]*)\)/.exec(r.body.error as string);
    expect(said, r.body.error).not.toBeNull();
    const listed = said![2]!.split(', ');
    expect(Number(said![1])).toBeGreaterThan(1);
    expect(listed.length).toBe(Number(said![1]));
    expect(r.body.missing.map((m: { name: string }) => m.name)).toEqual(listed);
    const bad = await srv.post('/api/trace', { design: retryLoopDesign('x'), messages: 100_001 });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('messages');
    const exp = await srv.post('/api/trace', { design: retryLoopDesign('x'), expiration: 'abc' });
    expect(exp.body.field).toBe('expiration');
    const pri = await srv.post('/api/trace', { design: retryLoopDesign('x'), priority: 300 });
    expect(pri.body.field).toBe('priority');
  });

  it('the queue deleted under a running worker: the consumer is reported cancelled and the server keeps going', async () => {
    const prefix = uniquePrefix('del');
    const d = retryLoopDesign('trace-del', { ttl: 60_000 });
    await deploy(d, prefix);
    // stopped by the test: a duration long enough for a slow first delivery and cancellation
    const t = await srv.post('/api/trace', { design: d, prefix, messages: 1, durationMs: 50_000 });
    expect(t.status).toBe(201);
    const second = await srv.post('/api/trace', { design: d, prefix, messages: 1 });
    expect(second.status).toBe(409);
    expect(second.body.error).toMatch(/still running/);
    const frames: { event: string; data: any }[] = [];
    const reading = readSse(srv.base + t.body.events, { timeoutMs: 55_000, onFrame: (f) => frames.push(f) });
    // wait for the first delivery (the worker consumes), then delete the work queue under the worker
    // (5 s of polling was a race on a loaded machine: the queue went before the worker consumed)
    await waitUntil(() => frames.some((f) => f.data.kind === 'delivered'), 'the first delivery', { timeoutMs: 20_000 });
    const c = await amqp.connect(URL);
    const ch = await c.createChannel();
    await ch.deleteQueue(`${prefix}work.q`);
    await c.close();
    await waitUntil(() => frames.some((f) => f.data.code === 'consumer-cancelled'), "the worker's cancel notice", {
      timeoutMs: 20_000,
    });
    expect(frames.find((f) => f.data.code === 'consumer-cancelled')?.data.message).toMatch(
      /queue 'work\.q' was deleted/,
    );
    expect((await srv.get('/api/health')).status).toBe(200);
    const stopped = await srv.post(`/api/trace/${t.body.id}/stop`, {});
    expect(stopped.status).toBe(200);
    expect(stopped.body.cancelledConsumers).toEqual(['worker']);
    await reading;
  });
});
