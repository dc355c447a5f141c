/**
 * The most one queue of a kind does per second, 1 KiB persistent messages, one channel each:
 * - publish: `n` messages published with confirms (500 unconfirmed at most), until the last confirm;
 * - deliver+ack: the same `n` consumed (prefetch 250) and acked one by one;
 * - dead-letter: `n` messages in a queue with a dead-letter exchange, all expiring at one instant:
 *   from then until the target queue holds them all;
 * - requeue: a consumer that nacks every delivery back (requeue) for 3 s: deliveries per second,
 *   the rate of a hot nack loop.
 * The client shares the machine with the broker: the figures are what both did together.
 */
import type { CeilingRow, QueueStorage } from '@retry-studio/topology-core/calibration';
import { ConfirmedPublisher, type ManagedConnection } from '../broker/index.js';
import { body, figureOf, inVhost, queueArguments, type CalibrationRun } from './calibrationRun.js';
import { fill, untilDepth } from './footprint.js';
import { sleep } from './nodeReadings.js';

const BODY = 1024;
const REQUEUE_MS = 3000;

async function publishRate(conn: ManagedConnection, queue: string, n: number): Promise<number> {
  const t0 = performance.now();
  await fill(conn, queue, n, BODY);
  return n / ((performance.now() - t0) / 1000);
}

async function deliverAckRate(conn: ManagedConnection, queue: string, n: number): Promise<number> {
  const ch = await conn.createChannel();
  try {
    await ch.prefetch(250);
    let got = 0;
    let t0 = 0;
    const done = new Promise<void>((resolve) => {
      void ch.consume(queue, (m) => {
        if (!m) return;
        if (got === 0) t0 = performance.now();
        ch.ack(m);
        if (++got === n) resolve();
      });
    });
    await done;
    return n / ((performance.now() - t0) / 1000);
  } finally {
    await ch.close().catch(() => undefined);
  }
}

/**
 * Every message gets an expiration that ends at one instant T (after the fill, by the publish rate
 * just measured), so at T the queue dead-letters all of them at once: a queue stamps a message's
 * expiry when it is enqueued, so a TTL policy set afterwards would not expire what is there.
 */
async function deadLetterRate(
  conn: ManagedConnection,
  storage: QueueStorage,
  n: number,
  publishPerSec: number,
): Promise<number> {
  const ch = await conn.createConfirmChannel();
  try {
    await ch.assertQueue('dead', { durable: true, arguments: queueArguments(storage, false) });
    await ch.assertQueue('source', {
      durable: true,
      arguments: {
        ...queueArguments(storage, false),
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': 'dead',
      },
    });
    const at = performance.now() + 2000 + (2 * n * 1000) / publishPerSec;
    const pub = new ConfirmedPublisher(ch, { maxInFlight: 500, timeoutMs: 60_000 });
    const content = body(BODY);
    for (let i = 0; i < n; i++)
      await pub.publish('', 'source', content, {
        persistent: true,
        expiration: String(Math.max(0, Math.round(at - performance.now()))),
      });
    await pub.flush();
    const from = Math.max(at, performance.now());
    await untilDepth(conn, 'dead', n, 120_000);
    return n / ((performance.now() - from) / 1000);
  } finally {
    await ch.close().catch(() => undefined);
  }
}

async function requeueRate(conn: ManagedConnection, queue: string): Promise<number> {
  const ch = await conn.createChannel();
  try {
    await ch.prefetch(100);
    let deliveries = 0;
    let t0 = 0;
    const { consumerTag } = await ch.consume(queue, (m) => {
      if (!m) return;
      if (deliveries === 0) t0 = performance.now();
      deliveries++;
      ch.nack(m, false, true);
    });
    while (deliveries === 0) await sleep(10);
    await sleep(REQUEUE_MS);
    const rate = deliveries / ((performance.now() - t0) / 1000);
    await ch.cancel(consumerTag);
    return rate;
  } finally {
    await ch.close().catch(() => undefined);
  }
}

interface OneRun {
  readonly publish: number;
  readonly deliverAck: number;
  readonly deadLetter: number;
  readonly requeue: number;
}

async function oneRun(run: CalibrationRun, storage: QueueStorage): Promise<OneRun> {
  const n = run.ceilingMessages;
  return inVhost(run, `ceil-${storage}`, async (conn) => {
    const ch = await conn.createChannel();
    await ch.assertQueue('work', { durable: true, arguments: queueArguments(storage, false) });
    await ch.assertQueue('loop', { durable: true, arguments: queueArguments(storage, false) });
    await ch.close();
    const publish = await publishRate(conn, 'work', n);
    await untilDepth(conn, 'work', n);
    const deliverAck = await deliverAckRate(conn, 'work', n);
    const deadLetter = await deadLetterRate(conn, storage, n, publish);
    await fill(conn, 'loop', 100, BODY);
    await untilDepth(conn, 'loop', 100);
    const requeue = await requeueRate(conn, 'loop');
    return { publish, deliverAck, deadLetter, requeue };
  });
}

export async function queueCeilings(run: CalibrationRun, storage: QueueStorage): Promise<CeilingRow> {
  const runs: OneRun[] = [];
  for (let i = 0; i < run.runs; i++) runs.push(await oneRun(run, storage));
  const row: CeilingRow = {
    storage,
    publishPerSec: figureOf(runs.map((r) => r.publish)),
    deliverAckPerSec: figureOf(runs.map((r) => r.deliverAck)),
    deadLetterPerSec: figureOf(runs.map((r) => r.deadLetter)),
    requeuePerSec: figureOf(runs.map((r) => r.requeue)),
  };
  run.log(
    `  ${storage} ceilings per second: publish ${row.publishPerSec.value}, deliver+ack ${row.deliverAckPerSec.value}, dead-letter ${row.deadLetterPerSec.value}, requeue ${row.requeuePerSec.value}`,
  );
  return row;
}
