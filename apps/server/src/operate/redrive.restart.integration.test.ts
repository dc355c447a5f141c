/**
 * The broker restarting (rabbitmqctl stop_app / start_app) in the middle of a re-drive, on both
 * brokers: the job waits for it, reconnects and finishes; nothing is lost, and a body exists twice
 * only within what the job reports. The broker is always started again, even when the test fails.
 * (Other tests on the same broker see the restart: keep to one per broker.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { deadLetterVhost, ORDERS, type DeadLetterVhost } from './testing.js';
import { startRedrive } from './redrive.js';
import { bodyCounts, brokerApp, drainBodies } from './faultTesting.js';

const N = 8000;

describe.each(TEST_BROKERS)('re-drive through a restart of RabbitMQ $name', (broker) => {
  let v: DeadLetterVhost | undefined;
  afterEach(async () => {
    await brokerApp(broker, 'start_app');
    await v?.cleanup();
    v = undefined;
  }, 180_000);

  it('waits for the broker, resumes and loses nothing', async () => {
    v = await deadLetterVhost(broker, 'restart');
    await v.deadLetter(N);
    const job = await startRedrive(
      v.target,
      { queue: ORDERS.dlq, target: { kind: 'original' }, ratePerSecond: 300 },
      { reconnectMs: 120_000 },
    );
    while (job.progress().moved < 400) await new Promise((r) => setTimeout(r, 5));
    const t0 = Date.now();
    const stopping = brokerApp(broker, 'stop_app');
    // the job sees its connections go while the broker stops (4.3 takes a few seconds to close them)
    while (!job.progress().reconnecting && job.isRunning) await new Promise((r) => setTimeout(r, 20));
    const during = job.progress();
    expect(during.status).toBe('running');
    expect(during.reconnecting).toBe(true);
    await stopping;
    console.log(
      `${broker.name}: connections lost ${during.elapsedMs} ms into the job (moved ${during.moved}), stop_app took ${Date.now() - t0} ms`,
    );
    await new Promise((r) => setTimeout(r, 1000));
    await brokerApp(broker, 'start_app');
    const p = await job.done;

    expect(p.status, p.error).toBe('done');
    expect(p.reconnects).toBeGreaterThanOrEqual(2);
    expect(p.moved).toBe(N);
    const moved = await drainBodies(broker, v.vhost, ORDERS.work);
    const left = await drainBodies(broker, v.vhost, ORDERS.dlq);
    expect(left).toHaveLength(0);
    const { counts, duplicated } = bodyCounts([...moved, ...left]);
    expect(counts.size).toBe(N);
    expect(moved.length).toBe(N + duplicated);
    expect(duplicated).toBeLessThanOrEqual(p.duplicatesPossible);
  }, 240_000);
});
