/**
 * Connection losses in the middle of a re-drive, on both real brokers: the job's consume and/or
 * publish connection killed through the management API (as a broker restart does to clients,
 * 320 CONNECTION_FORCED). The job reconnects and finishes; afterwards every body is there exactly
 * once, except at most the copies the job reports as possibly duplicated (those in flight on a
 * publish connection that died, or whose original's ack was not yet proven when the consume
 * connection died); a byte-identical twin is never taken for an original whose ack was lost.
 * The broker restart itself is in redrive.restart.integration.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { deadLetterVhost, ORDERS, type DeadLetterVhost } from './testing.js';
import { startRedrive } from './redrive.js';
import { bodyCounts, jobConnections, revokePermissions } from './faultTesting.js';

const N = 5000;

type Kill = 'consume' | 'publish' | 'both';
const CASES: { kill: Kill; dlqType: 'classic' | 'quorum' }[] = [
  { kill: 'consume', dlqType: 'classic' },
  { kill: 'publish', dlqType: 'classic' },
  { kill: 'both', dlqType: 'classic' },
  { kill: 'both', dlqType: 'quorum' },
];

describe.each(TEST_BROKERS)('re-drive under killed connections on RabbitMQ $name', (broker) => {
  let v: DeadLetterVhost | undefined;
  afterEach(async () => {
    await v?.cleanup();
    v = undefined;
  });

  it.each(CASES)(
    'kill $kill ($dlqType DLQ): resumes, loses nothing, duplicates only what it reports',
    async ({ kill, dlqType }) => {
      v = await deadLetterVhost(broker, `fault-${kill}`, { dlqType });
      await v.deadLetter(N);
      // rate-limited so the kill lands mid-run however busy the machine is (at full speed 5,000 can be gone between two polls)
      const job = await startRedrive(v.target, {
        queue: ORDERS.dlq,
        target: { kind: 'original' },
        ratePerSecond: 4000,
        ...(dlqType === 'quorum' ? { insist: true } : {}),
      });
      // hold it while the management API lists its connections, then kill them mid-run
      job.pause();
      const names = await jobConnections(v.target.management, job);
      job.resume();
      while (job.progress().moved < 1500 && job.isRunning) await new Promise((r) => setTimeout(r, 2));
      const atKill = job.progress();
      expect(atKill.moved).toBeLessThan(N);
      if (kill !== 'publish') await v.target.management.closeConnection(names.consume);
      if (kill !== 'consume') await v.target.management.closeConnection(names.publish);
      const p = await job.done;

      expect(p.status, p.error).toBe('done');
      expect(p.reconnects).toBeGreaterThanOrEqual(kill === 'both' ? 2 : 1);
      expect(p.lastLoss).toMatch(/closed/);
      expect(p.moved).toBe(N);

      const moved = await v.drain(ORDERS.work);
      const left = await v.drain(ORDERS.dlq);
      expect(left).toHaveLength(0);
      const { counts, duplicated } = bodyCounts([...moved, ...left]);
      // every body, none lost
      expect(counts.size).toBe(N);
      expect(moved.length).toBe(N + duplicated);
      // a duplicate only where the job says one may be
      expect(duplicated).toBeLessThanOrEqual(p.duplicatesPossible);
      if (p.duplicatesPossible > 0)
        expect(p.notes.join(' ')).toMatch(/possible duplicates: copies in flight at the crash/);
    },
  );

  it('a byte-identical twin redelivered after a consume loss is copied, not taken for the original whose ack may be lost', async () => {
    v = await deadLetterVhost(broker, 'fault-twin');
    // two originals no header or property tells apart, both marked redelivered by an earlier reader
    const ch = await v.conn.createConfirmChannel();
    for (let i = 0; i < 2; i++) ch.sendToQueue(ORDERS.dlq, Buffer.from('twin'), { persistent: true });
    await ch.waitForConfirms();
    await ch.prefetch(10);
    let got = 0;
    const tag = await ch.consume(ORDERS.dlq, () => void (++got === 2 && ch.nackAll(true)));
    while (got < 2) await new Promise((r) => setTimeout(r, 5));
    await ch.cancel(tag.consumerTag);
    await ch.close();
    // one copy a second, and no ack ever proven: the first twin's ack is sent, the second waits its turn
    const job = await startRedrive(
      v.target,
      { queue: ORDERS.dlq, target: { kind: 'exchange', exchange: '', routingKey: ORDERS.work }, ratePerSecond: 1 },
      { proveAcks: false, window: 10 },
    );
    job.pause();
    const names = await jobConnections(v.target.management, job);
    job.resume();
    while (job.progress().moved < 1) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 100)); // the first twin's ack reaches the broker
    await v.target.management.closeConnection(names.consume);
    const p = await job.done;
    expect(p.status, p.error).toBe('done');
    const copies = (await v.drain(ORDERS.work)).filter((m) => m.body === 'twin').length;
    const left = (await v.drain(ORDERS.dlq)).length;
    // both twins exist after the move: none acked without a copy
    expect(copies + left).toBeGreaterThanOrEqual(2);
    expect(copies + left - 2).toBeLessThanOrEqual(p.duplicatesPossible);
  });

  it('fails after the bounded time when a side does not come back, with the reason, and loses nothing', async () => {
    v = await deadLetterVhost(broker, 'fault-gone');
    await v.deadLetter(500);
    const job = await startRedrive(
      v.target,
      { queue: ORDERS.dlq, target: { kind: 'original' }, ratePerSecond: 500 },
      { reconnectMs: 1500 },
    );
    job.pause();
    const names = await jobConnections(v.target.management, job);
    job.resume();
    while (job.progress().moved < 50) await new Promise((r) => setTimeout(r, 5));
    // the publish side cannot come back: its vhost's permissions are gone for the user
    await revokePermissions(broker, v.vhost);
    await v.target.management.closeConnection(names.publish);
    const p = await job.done;
    expect(p.status).toBe('failed');
    expect(p.error).toMatch(/publish connection .* did not come back within 1500 ms/);
    await v.target.management.createVhost(v.vhost);
    const { counts, duplicated } = bodyCounts([...(await v.drain(ORDERS.work)), ...(await v.drain(ORDERS.dlq))]);
    expect(counts.size).toBe(500);
    expect(duplicated).toBeLessThanOrEqual(p.duplicatesPossible);
  });
});
