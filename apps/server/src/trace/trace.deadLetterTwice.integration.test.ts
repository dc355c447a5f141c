/**
 * A dead letter the broker sends twice, traced live on both brokers. A quorum queue that
 * dead-letters at least once sends a dead letter again when its confirm was lost (as in a leader
 * move: seen on the cluster, where it cannot be provoked on demand). Here the second copy is made
 * the way the broker makes it: the same message, x-death and all, routed through the dead-letter
 * exchange again while the trace runs. The trace's mirror sees it and counts one pass; the parking
 * queue's own count then holds one more than the trace parked, and the trace says so
 * (`deadLettersDuplicated`, a `dead-letters-duplicated` notice), with every message as predicted.
 */
import amqp from 'amqplib';
import { describe, expect, it } from 'vitest';
import { bindQ, design, readSse, uniquePrefix } from '../http/testing.js';
import { TEST_BROKERS, type TestBroker } from '../testing/testBrokers.js';
import { useLiveServer } from '../testing/liveServer.js';
import { atLeastOnceQuorumQueue } from '../testing/queueFixtures.js';

const { srv, deploy, waitDone } = useLiveServer();
const MESSAGES = 10;

describe.each(TEST_BROKERS)('a dead letter sent twice, live on RabbitMQ $name', (b: TestBroker) => {
  const on = { broker: b.amqpUrl, managementUrl: b.managementUrl };

  it('the mirror counts one pass; the parking queue holds one more, reported as dead-lettered twice; every message as predicted', async () => {
    const d = {
      ...design({
        name: 'dead-letter-twice',
        exchanges: [{ name: 'dlx', type: 'fanout', durable: true }],
        queues: [atLeastOnceQuorumQueue('work.q', 'dlx'), { name: 'parked.q', durable: true }],
        bindings: [bindQ('dlx', 'parked.q')],
        consumers: [
          {
            id: 'w',
            queue: 'work.q',
            behaviour: { kind: 'worker', failure: { kind: 'always' }, onFailure: [{ then: { kind: 'reject' } }] },
          },
        ],
        publishers: [{ id: 'p1', exchange: '', routingKey: 'work.q' }],
      }),
      profile: b.name,
    };
    const prefix = uniquePrefix('dltwice');
    await deploy(d, prefix, on);
    const conn = await amqp.connect(b.amqpUrl);
    try {
      const ch = await conn.createConfirmChannel();
      // something older in the parking queue is not the trace's: it makes no surplus
      ch.sendToQueue(prefix + 'parked.q', Buffer.from('older'), { persistent: true });
      await ch.waitForConfirms();
      // published over 5 s, so the trace is still running when the second copy goes through
      const t = await srv.post('/api/trace', { design: d, prefix, messages: MESSAGES, ratePerSecond: 2, ...on });
      expect(t.status, JSON.stringify(t.body)).toBe(201);
      const stream = readSse(srv.base + t.body.events, { timeoutMs: 60_000 });
      let first: amqp.GetMessage | false = false;
      for (const end = Date.now() + 10_000; !first && Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
        if ((await ch.checkQueue(prefix + 'parked.q')).messageCount < 2) continue;
        // the older message, then the first dead letter: look at it, put both back
        const older = await ch.get(prefix + 'parked.q');
        first = await ch.get(prefix + 'parked.q');
        if (older) ch.nack(older, false, true);
        if (first) ch.nack(first, false, true);
      }
      if (!first) throw new Error('no dead letter reached the parking queue within 10 s');
      expect(first.properties.headers?.['x-death']).toBeDefined();
      // the same dead letter through the dead-letter exchange again, as the broker's resend does
      ch.publish(first.fields.exchange, first.fields.routingKey, first.content, first.properties);
      await ch.waitForConfirms();

      const summary = await waitDone(t.body.id, 60_000);
      const { frames } = await stream;
      const notices = frames
        .filter((f) => f.event === 'notice')
        .map((f) => f.data as { code: string; message: string });
      const held = (await ch.checkQueue(prefix + 'parked.q')).messageCount;
      console.log(
        `dead letter sent twice on ${b.name}: parked ${summary.parked}, parked.q holds ${held} (1 older), deadLettersDuplicated ${JSON.stringify(summary.deadLettersDuplicated)}`,
      );
      expect(summary, JSON.stringify(summary)).toMatchObject({
        state: 'complete',
        published: MESSAGES,
        parked: MESSAGES,
        acked: 0,
        dropped: 0,
        inFlight: 0,
        balanced: true,
      });
      expect(held).toBe(1 + MESSAGES + 1);
      expect(summary.deadLettersDuplicated).toEqual({ 'parked.q': 1 });
      // counted from what the broker holds
      expect(summary.duplicates).toBe(1);
      expect(summary.deadLettersDropped).toBeUndefined();
      expect(notices.find((n) => n.code === 'dead-letters-duplicated')?.message).toMatch(
        /^queue 'parked\.q' holds 1 message\(s\) more than the trace saw parked there: they were sent twice \(at-least-once/,
      );
      // the second copy is one pass: no extra events, every message as predicted
      const pred = await srv.get(`/api/trace/${t.body.id}/prediction`);
      expect(pred.body.comparison, JSON.stringify(pred.body.comparison.firstDifference)).toMatchObject({
        messagesCompared: MESSAGES,
        matching: MESSAGES,
      });
    } finally {
      await conn.close().catch(() => undefined);
    }
  }, 90_000);
});
