/**
 * The connection killed in the middle of a re-drive (as a broker restart does to clients, 320
 * CONNECTION_FORCED) loses nothing, on both brokers: afterwards every body is there, and a body
 * exists twice only within the reported bound (copies unconfirmed, or confirmed with their
 * original's ack not yet processed by the broker, at the kill).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openConnection, parseAmqpUrl, withVhost } from '../broker/index.js';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { deadLetterVhost, ORDERS, type DeadLetterVhost } from './testing.js';
import { startRedrive } from './redrive.js';

const N = 2000;

describe.each(TEST_BROKERS)('re-drive under a killed connection on RabbitMQ $name', (broker) => {
  let v: DeadLetterVhost | undefined;
  afterEach(async () => {
    await v?.cleanup();
    v = undefined;
  });

  it('moves part, loses none, reports the copies that may be duplicated', async () => {
    v = await deadLetterVhost(broker, 'fault');
    await v.deadLetter(N);
    const label = `fault-${Date.now()}`;
    const conn = await openConnection(withVhost(parseAmqpUrl(broker.amqpUrl), v.vhost), { purpose: 'operate', label });
    // find the job's connection in the management API (it lists connections after a stats tick)
    let name: string | undefined;
    for (let i = 0; i < 100 && !name; i++) {
      name = (await v.target.management.listConnections()).find((c) => c.client_properties?.connection_name === `retry-studio:operate:${label}`)?.name;
      if (!name) await new Promise((r) => setTimeout(r, 100));
    }
    expect(name).toBeDefined();
    const job = await startRedrive(v.target, conn, { queue: ORDERS.dlq, target: { kind: 'original' }, ratePerSecond: 500 });
    // kill it once a few hundred moved
    while (job.progress().moved < 200) await new Promise((r) => setTimeout(r, 5));
    await v.target.management.closeConnection(name!);
    const p = await job.done;
    expect(p.status).toBe('failed');
    expect(p.error).toMatch(/went back to/);
    expect(p.moved).toBeGreaterThanOrEqual(200);
    expect(p.moved).toBeLessThan(N);

    const moved = await v.drain(ORDERS.work);
    const left = await v.drain(ORDERS.dlq);
    const counts = new Map<string, number>();
    for (const m of [...moved, ...left]) counts.set(m.body, (counts.get(m.body) ?? 0) + 1);
    // every body at least once
    expect(counts.size).toBe(N);
    const duplicated = [...counts.values()].filter((c) => c > 1).length;
    expect(duplicated).toBeLessThanOrEqual(p.duplicatesPossible);
    expect(moved.length + left.length).toBe(N + duplicated);
    // what the job acked is what moved
    expect(moved.length).toBeGreaterThanOrEqual(p.moved);
  });
});
