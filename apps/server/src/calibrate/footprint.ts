/**
 * RAM and disk per message for one queue kind: a fresh queue filled with `messages` persistent
 * messages of one body size in two halves, the node read before and after each. The queue's own
 * RAM is its process's memory (the management API's statistics for that queue), the change in the
 * message-store index and, for a classic queue, the binaries (bodies kept in RAM); a quorum queue's bodies sit in the write-ahead log's memtables
 * (quorum_ets + binaries) until the log rolls over, counted apart as node-wide RAM. Disk is the
 * change in the data directory (or the free disk).
 */
import type { FootprintRow, QueueStorage } from '@retry-studio/topology-core/calibration';
import { ConfirmedPublisher, MESSAGE_MEMORY_CATEGORIES, type ManagedConnection } from '../broker/index.js';
import { body, figureOf, inVhost, queueArguments, type CalibrationRun } from './calibrationRun.js';
import { delta, readNode, sleep, type NodeReading } from './nodeReadings.js';

const QUEUE = 'calibrate';
/**
 * At most this many bytes of bodies a fill: a quorum queue's write-ahead log rolls over at 512 MiB
 * by default and flushes its memtables, which a measurement across it would read as a drop
 * (20,000 16 KiB messages were 320 MiB a fill); this way a roll spoils at most one run in several.
 */
const MAX_FILL_BYTES = 64 * 1024 * 1024;

/** the messages of one fill: `--messages`, fewer for big bodies */
export const fillCount = (run: CalibrationRun, bytes: number): number =>
  Math.max(1000, Math.min(run.messages, Math.floor(MAX_FILL_BYTES / Math.max(1, bytes))));

/**
 * publish `n` persistent messages of `bytes` to `queue` with confirms (at most `perSecond`, paced in
 * 10 ms steps, when given); resolves when all are confirmed
 */
export async function fill(
  conn: ManagedConnection,
  queue: string,
  n: number,
  bytes: number,
  perSecond?: number,
): Promise<void> {
  const ch = await conn.createConfirmChannel();
  try {
    const pub = new ConfirmedPublisher(ch, { maxInFlight: 500, timeoutMs: 60_000 });
    const content = body(bytes);
    const t0 = Date.now();
    for (let i = 0; i < n; i++) {
      const early = perSecond ? t0 + (i * 1000) / perSecond - Date.now() : 0;
      if (early > 10) await sleep(early);
      await pub.publish('', queue, content, { persistent: true });
    }
    await pub.flush();
  } finally {
    await ch.close().catch(() => undefined);
  }
}

/** wait until `queue` holds `n` messages (a passive declare: the count at once, not the statistics') */
export async function untilDepth(conn: ManagedConnection, queue: string, n: number, timeoutMs = 60_000): Promise<void> {
  const ch = await conn.createChannel();
  try {
    const end = Date.now() + timeoutMs;
    while ((await ch.checkQueue(queue)).messageCount < n) {
      if (Date.now() > end) throw new Error(`${queue} did not reach ${n} messages within ${timeoutMs / 1000} s`);
      await sleep(100);
    }
  } finally {
    await ch.close().catch(() => undefined);
  }
}

interface OneRun {
  /** the queue process's memory per message (its heap: live data and garbage, never less than live) */
  readonly own: number;
  /** the node categories' part of the queue's RAM per message (index, bodies): noisy either way */
  readonly shared: number;
  readonly wal: number;
  readonly churn: number;
  readonly disk: number;
}

/**
 * `n` messages through a queue whose consumer acks them at once: what they leave behind once
 * consumed (a quorum queue's write-ahead log memtables until the log rolls over; a 3.x classic
 * queue's index journal, with small bodies, until it is flushed).
 */
async function leftByConsumed(
  run: CalibrationRun,
  conn: ManagedConnection,
  storage: QueueStorage,
  ttl: boolean,
  bytes: number,
): Promise<number> {
  const ch = await conn.createChannel();
  try {
    await ch.assertQueue('churn', { durable: true, arguments: queueArguments(storage, ttl) });
    await ch.prefetch(500);
    let got = 0;
    await ch.consume('churn', (m) => {
      if (!m) return;
      ch.ack(m);
      got++;
    });
    await sleep(500);
    const before = await readNode(run.target.management, run.node, run.dataDir);
    const n = fillCount(run, bytes);
    await fill(conn, 'churn', n, bytes);
    const end = Date.now() + 120_000;
    while (got < n && Date.now() < end) await sleep(100);
    await sleep(2000);
    const after = await readNode(run.target.management, run.node, run.dataDir);
    return Math.max(0, delta(before, after, MESSAGE_MEMORY_CATEGORIES) / n);
  } finally {
    await ch.close().catch(() => undefined);
  }
}

/** readings of a queue's memory statistic, one statistics interval apart: the least is the one with the least garbage */
const MEMORY_READINGS = 3;
const STATS_INTERVAL_MS = 5500;

/**
 * The queue's own memory from the management API's statistics (its process alone, not the node's
 * category, which holds every other user's queues too), once they count every message (they lag by
 * the statistics interval, and more for a quorum queue); the least of a few readings an interval
 * apart, as a process's heap holds garbage until it is collected.
 */
async function queueMemory(run: CalibrationRun, vhost: string, n: number): Promise<number> {
  const end = Date.now() + 60_000;
  const readings: number[] = [];
  for (;;) {
    const q = await run.target.management.queue(vhost, QUEUE);
    if (q?.messages === n && typeof q.memory === 'number') {
      readings.push(q.memory);
      if (readings.length >= MEMORY_READINGS) return Math.min(...readings);
      await sleep(STATS_INTERVAL_MS);
      continue;
    }
    if (Date.now() > end) throw new Error(`the statistics of ${QUEUE} did not show ${n} messages within 60 s`);
    await sleep(1000);
  }
}

async function oneRun(run: CalibrationRun, storage: QueueStorage, ttl: boolean, bytes: number): Promise<OneRun> {
  return inVhost(run, `fp-${storage}${ttl ? '-ttl' : ''}-${bytes}`, async (conn, vhost) => {
    const ch = await conn.createChannel();
    await ch.assertQueue(QUEUE, { durable: true, arguments: queueArguments(storage, ttl) });
    await ch.close();
    await sleep(500);
    const before: NodeReading = await readNode(run.target.management, run.node, run.dataDir);
    // filled in two halves: binaries and disk by the second half (a fixed cost, like the message
    // store's write cache, cancels out), the message-store index over the whole fill (tables grow in steps)
    const half = Math.floor(fillCount(run, bytes) / 2);
    const n = 2 * half;
    await fill(conn, QUEUE, half, bytes);
    await untilDepth(conn, QUEUE, half);
    await sleep(2000);
    const mid = await readNode(run.target.management, run.node, run.dataDir);
    await fill(conn, QUEUE, half, bytes);
    await untilDepth(conn, QUEUE, n);
    const own = await queueMemory(run, vhost, n);
    const end = await readNode(run.target.management, run.node, run.dataDir);
    const quorum = storage === 'quorum';
    const binary = delta(mid, end, ['binary']) / half;
    return {
      own: own / n,
      shared: delta(before, end, ['msg_index']) / n + (quorum ? 0 : binary),
      wal: quorum ? Math.max(0, delta(before, end, ['quorum_ets']) / n + binary) : 0,
      churn: await leftByConsumed(run, conn, storage, ttl, bytes),
      disk: Math.max(0, (end.diskBytes - mid.diskBytes) / half),
    };
  });
}

export async function queueFootprint(
  run: CalibrationRun,
  storage: QueueStorage,
  ttl: boolean,
  bytes: number,
): Promise<FootprintRow> {
  const runs: OneRun[] = [];
  for (let i = 0; i < run.runs; i++) runs.push(await oneRun(run, storage, ttl, bytes));
  const row: FootprintRow = {
    storage,
    ttl,
    bodyBytes: bytes,
    messages: fillCount(run, bytes),
    // a heap only reads more than its live data: the least one seen over the runs stands for every run
    ramBytesPerMessage: figureOf(runs.map((r) => Math.max(0, Math.min(...runs.map((x) => x.own)) + r.shared))),
    ...(storage === 'quorum' ? { walRamBytesPerMessage: figureOf(runs.map((r) => r.wal)) } : {}),
    consumedBytesPerMessage: figureOf(runs.map((r) => r.churn)),
    diskBytesPerMessage: figureOf(runs.map((r) => r.disk)),
  };
  run.log(
    `  ${storage}${ttl ? ' + TTL' : ''}, ${bytes} B bodies: RAM ${row.ramBytesPerMessage.value} B/msg (${row.ramBytesPerMessage.min}-${row.ramBytesPerMessage.max})` +
      `${row.walRamBytesPerMessage ? `, WAL RAM ${row.walRamBytesPerMessage.value} B/msg` : ''}, ${row.consumedBytesPerMessage?.value ?? '-'} B/msg left once consumed, disk ${row.diskBytesPerMessage.value} B/msg (${row.diskBytesPerMessage.min}-${row.diskBytesPerMessage.max})`,
  );
  return row;
}
