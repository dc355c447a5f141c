/**
 * A broker restart in the middle of a trace (rabbitmqctl stop_app / start_app): the trace
 * reconnects and resumes, and no message is lost: every confirmed test message ends acked,
 * parked, or still in flight, checked against the broker itself.
 * The broker is always started again, even when the test fails.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import amqp from 'amqplib';
import { design, bindQ, readSse, uniquePrefix } from '../http/testing.js';
import { TEST_AMQP_URL as URL, useLiveServer } from '../testing/liveServer.js';

const run = promisify(execFile);

async function brokerUp(timeoutMs = 120_000): Promise<void> {
  await run('rabbitmqctl', ['start_app'], { timeout: 60_000 }).catch(() => undefined);
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      const c = await amqp.connect(URL);
      await c.close();
      const r = await fetch('http://127.0.0.1:15672/api/overview', {
        headers: {
          authorization: 'Basic ' + Buffer.from('guest:guest').toString('base64'),
        },
      });
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > until) throw new Error('broker did not come back');
    await new Promise((r) => setTimeout(r, 500));
  }
}

// whatever happened, the broker is running again before the deployment is torn down
const { srv, deploy } = useLiveServer({ before: () => brokerUp(), after: () => brokerUp(), afterTimeoutMs: 180_000 });

/** every 4th message is poison: rejected once, then parked; the rest are acked after 5 ms of work */
function restartDesign(name: string) {
  return design({
    name,
    exchanges: [
      { name: 'work', type: 'direct' },
      { name: 'retry', type: 'direct' },
      { name: 'parking', type: 'fanout' },
    ],
    queues: [
      { name: 'work.q', arguments: { 'x-dead-letter-exchange': 'retry' } },
      {
        name: 'retry.q',
        arguments: { 'x-message-ttl': 300, 'x-dead-letter-exchange': 'work' },
      },
      { name: 'parking.q' },
    ],
    bindings: [bindQ('work', 'work.q', 'job'), bindQ('retry', 'retry.q', 'job'), bindQ('parking', 'parking.q')],
    consumers: [
      {
        id: 'worker',
        queue: 'work.q',
        prefetch: 10,
        behaviour: {
          kind: 'worker',
          processingMs: 5,
          failure: { kind: 'poison', every: 4 },
          onFailure: [
            {
              when: {
                kind: 'lt',
                counter: {
                  kind: 'deathCount',
                  queue: 'work.q',
                  reason: 'rejected',
                },
                value: 1,
              },
              then: { kind: 'reject' },
            },
            {
              then: {
                kind: 'republish',
                exchange: 'parking',
                routingKey: 'job',
              },
            },
          ],
        },
      },
    ],
    publishers: [{ id: 'p', exchange: 'work', routingKey: 'job', bodyPrefix: 'm' }],
  });
}

describe('broker restart during a trace', () => {
  it('resumes after the restart and loses no message (published = acked + parked + in flight)', async () => {
    const prefix = uniquePrefix('restart');
    const d = restartDesign('restart');
    await deploy(d, prefix);
    await traceThroughRestart(d, prefix);
  }, 180_000);
});

async function traceThroughRestart(d: ReturnType<typeof restartDesign>, prefix: string): Promise<void> {
  const N = 400;
  const t = await srv.post('/api/trace', {
    design: d,
    prefix,
    messages: N,
    ratePerSecond: 100,
    durationMs: 60_000,
  });
  expect(t.status, JSON.stringify(t.body)).toBe(201);
  const acked = new Set<string>();
  const notices: string[] = [];
  const stream = readSse(srv.base + t.body.events, {
    timeoutMs: 150_000,
    onFrame: (f) => {
      if (f.data.kind === 'acked' && f.data.queue === 'work.q') acked.add(f.data.msgId);
      if (f.event === 'notice') notices.push(f.data.code);
    },
  });
  // let part of the messages through, then restart the broker under the trace
  const start = Date.now();
  while (acked.size < 60 && Date.now() - start < 20_000) await new Promise((r) => setTimeout(r, 50));
  expect(acked.size).toBeGreaterThanOrEqual(60);
  try {
    await run('rabbitmqctl', ['stop_app'], { timeout: 60_000 });
    await new Promise((r) => setTimeout(r, 2000));
  } finally {
    await brokerUp();
  }
  const { frames } = await stream;
  expect(frames.at(-1)?.event).toBe('end');
  const summary = (await srv.get(`/api/trace/${t.body.id}`)).body;
  expect(notices).toContain('disconnected');
  expect(notices).toContain('reconnected');
  expect(summary.reconnects).toBeGreaterThanOrEqual(1);
  expect(summary.state).toBe('complete');
  // Around the restart the observer is re-attaching, so a hop can go unseen and the trace may end
  // still waiting for one message's copy; that message must then be acked or parked on the broker
  // (checked below against the broker's own view), never lost.
  const waitedFor = /^(p-\d+)/.exec(summary.endedWaitingFor ?? '')?.[1];
  if (summary.endedWaitingFor) console.warn(`restart trace ended waiting: ${summary.endedWaitingFor}`);
  expect(summary.published).toBe(N);
  expect(summary.confirmed).toBe(N);
  expect(summary.unaccounted).toEqual([]);
  expect(summary.balanced).toBe(true);
  expect(summary.acked + summary.parked + summary.inFlight + summary.dropped).toBe(N);
  expect(summary.dropped).toBe(0);

  // the broker's own view: drain parking.q and check every message is acked or parked there
  const c = await amqp.connect(URL);
  const ch = await c.createChannel();
  const parked = new Set<string>();
  for (;;) {
    const m = await ch.get(`${prefix}parking.q`, { noAck: true });
    if (!m) break;
    parked.add(String(m.properties.headers?.['rs-msg-id']));
  }
  const work = await ch.checkQueue(`${prefix}work.q`);
  const retry = await ch.checkQueue(`${prefix}retry.q`);
  await c.close();
  if (summary.endedWaitingFor)
    expect(waitedFor !== undefined && (acked.has(waitedFor) || parked.has(waitedFor)), summary.endedWaitingFor).toBe(
      true,
    );
  const missing: string[] = [];
  for (let i = 1; i <= N; i++) if (!acked.has(`p-${i}`) && !parked.has(`p-${i}`)) missing.push(`p-${i}`);
  expect(missing.length, `lost: ${missing.slice(0, 20).join(', ')}`).toBe(work.messageCount + retry.messageCount);
  expect(missing).toEqual([]);
  // every 4th message is poison and ends parked; the others are acked
  expect(parked.size).toBe(N / 4);
  expect(summary.acked).toBe((3 * N) / 4);
}
