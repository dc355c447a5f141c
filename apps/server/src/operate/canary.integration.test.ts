/**
 * Canary re-drive on both brokers, with a consumer on the destination that keeps failing one
 * group (rejects it: it dies again into the DLQ) and takes the other: the failing group stops
 * after its first batch (the rest untouched, nothing lost, the returned copies listed with their
 * new death), the succeeding group moves whole, each message consumed once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseRedriveFilter, type RedriveFilter } from '@retry-studio/topology-core/operate';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { startCanaryRedrive } from './canaryRedrive.js';
import { OperateError } from './operateTarget.js';
import { deadLetterVhost, ORDERS, type DeadLetterVhost } from './testing.js';

const filter = (s: string): RedriveFilter => {
  const f = parseRedriveFilter(s);
  if (!f.ok) throw new Error(f.message);
  return f.filter;
};

/** takes `good`, rejects `bad` (no requeue: it dead-letters), counting every body it took */
async function pickyConsumer(v: DeadLetterVhost): Promise<{ taken: Map<string, number>; stop: () => Promise<void> }> {
  const ch = await v.conn.createChannel();
  const taken = new Map<string, number>();
  await ch.prefetch(50);
  const { consumerTag } = await ch.consume(ORDERS.work, (m) => {
    if (!m) return;
    if ((m.properties.headers as Record<string, unknown> | undefined)?.kind === 'bad') ch.reject(m, false);
    else {
      taken.set(m.content.toString(), (taken.get(m.content.toString()) ?? 0) + 1);
      ch.ack(m);
    }
  });
  return {
    taken,
    stop: async () => {
      await ch.cancel(consumerTag);
      await ch.close();
    },
  };
}

describe.each(TEST_BROKERS)('canary re-drive on RabbitMQ $name', (broker) => {
  let v: DeadLetterVhost | undefined;
  afterEach(async () => {
    await v?.cleanup();
    v = undefined;
  });

  it('stops after the first batch of a failing group, moves the whole succeeding group', async () => {
    v = await deadLetterVhost(broker, 'canary');
    await v.deadLetter(30, { bodyPrefix: 'bad', headers: { kind: 'bad' } });
    await v.deadLetter(300, { bodyPrefix: 'good', headers: { kind: 'good' } });
    const consumer = await pickyConsumer(v);

    // bad input first: each error names its option, nothing moves
    const base = { queue: ORDERS.dlq, target: { kind: 'original' } as const, filter: filter('header=kind=bad') };
    for (const [canary, option] of [
      [{ size: 0, waitMs: 100, maxRefail: { kind: 'count', count: 0 } }, 'canary'],
      [{ size: 31, waitMs: 100, maxRefail: { kind: 'count', count: 0 } }, 'canary'],
      [{ size: 3, waitMs: -1, maxRefail: { kind: 'count', count: 0 } }, 'canary-wait-ms'],
      [{ size: 3, waitMs: 100, maxRefail: { kind: 'count', count: 4 } }, 'max-refail'],
    ] as const) {
      const err = await startCanaryRedrive(v.target, v.conn, base, canary).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OperateError);
      expect((err as OperateError).field).toBe(option);
    }
    expect(await v.depth(ORDERS.dlq)).toBe(330);

    const bad = await startCanaryRedrive(v.target, v.conn, base, {
      size: 3,
      waitMs: 1500,
      maxRefail: { kind: 'count', count: 0 },
    });
    const pb = await bad.done;
    expect(pb.status, pb.error).toBe('stopped');
    expect(pb.batches).toHaveLength(1);
    expect(pb.batches[0]).toMatchObject({
      size: 3,
      moved: 3,
      back: 3,
      verdict: { kind: 'stop', basis: 'returns-seen' },
    });
    expect(pb.returned).toHaveLength(3);
    for (const r of pb.returned)
      expect(r).toMatchObject({ batch: 1, queue: ORDERS.work, reason: 'rejected', redriveCount: 1 });
    expect(pb.stopReason).toContain('came back');
    // nothing lost: the 27 untouched and the 3 returned bad ones, and every good one, are in the DLQ
    expect(await v.depth(ORDERS.dlq)).toBe(330);

    const good = await startCanaryRedrive(
      v.target,
      v.conn,
      { ...base, filter: filter('header=kind=good') },
      { size: 10, waitMs: 500, maxRefail: { kind: 'count', count: 0 } },
    );
    const pg = await good.done;
    expect(pg.status, pg.error ?? pg.stopReason).toBe('done');
    expect(pg.moved).toBe(300);
    expect(pg.back).toBe(0);
    expect(pg.batches.map((b) => b.size)).toEqual([10, 20, 40, 80, 150]);
    for (const b of pg.batches) expect(b.verdict).toMatchObject({ kind: 'continue', basis: 'timeout' });
    await consumer.stop();
    expect(consumer.taken.size).toBe(300);
    expect([...consumer.taken.values()].every((n) => n === 1)).toBe(true);
    const left = await v.drain(ORDERS.dlq);
    expect(left).toHaveLength(30);
    expect(new Set(left.map((m) => m.body)).size).toBe(30);
    expect(left.every((m) => m.body.startsWith('bad-'))).toBe(true);

    const first = pg.batches[0]!;
    const after = pg.moved - first.moved;
    const afterMs = pg.elapsedMs - (first.verdictMs ?? 0);
    console.log(
      `${broker.name}: failing group stopped ${pb.batches[0]!.verdictMs} ms after its first copy (3 back); succeeding group: first verdict after ${first.verdictMs} ms, then ${after} messages in ${afterMs} ms (${Math.round((after / afterMs) * 1000)} msg/s with a ${500} ms wait per batch)`,
    );
  }, 120_000);

  it('the watch connection killed mid-canary: the canary comes back to it and still judges right, nothing lost', async () => {
    v = await deadLetterVhost(broker, 'canarykill');
    await v.deadLetter(20, { bodyPrefix: 'bad', headers: { kind: 'bad' } });
    // no consumer yet: the canary's copies wait in orders.work while its watch is killed
    const job = await startCanaryRedrive(
      v.target,
      v.conn,
      { queue: ORDERS.dlq, target: { kind: 'original' } },
      { size: 4, waitMs: 30_000, maxRefail: { kind: 'count', count: 0 } },
    );
    const name = `retry-studio:operate:canary-${job.id}-watch`;
    let killed = false;
    for (const end = Date.now() + 15_000; !killed && Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
      const c = (await v.target.management.listConnections()).find(
        (x) => x.client_properties?.connection_name === name,
      );
      if (c) {
        await v.target.management.closeConnection(c.name);
        killed = true;
      }
    }
    expect(killed).toBe(true);
    const consumer = await pickyConsumer(v);
    const p = await job.done;
    await consumer.stop();
    expect(p.status, p.error).toBe('stopped');
    expect(p.batches).toHaveLength(1);
    expect(p.back).toBe(4);
    expect(await v.depth(ORDERS.dlq)).toBe(20);
  }, 60_000);
});
