/**
 * RAM per held message while messages flow: a consumer rejects every message of `flow.in`, which
 * dead-letters it into `flow.held`, where it stays; messages are published at a steady rate and the
 * node's message memory is read several times a second. The peak over the messages held is what a
 * broker under load really holds per message: queue processes and binaries carry garbage until
 * they are collected (a settled fill, `footprint.ts`, reads the least of its heap), and the
 * rejecting queue's heap grows with what passes through it though it holds nothing.
 */
import type { FlowRow, QueueStorage } from '@retry-studio/topology-core/calibration';
import { messageMemoryBytes } from '../broker/index.js';
import { figureOf, inVhost, queueArguments, type CalibrationRun } from './calibrationRun.js';
import { fill, untilDepth } from './footprint.js';
import { sleep } from './nodeReadings.js';

/** the rate of the flow: what a production retry loop carries, and what a broker here takes from one publisher */
export const FLOW_RATE_PER_SECOND = 1000;
const FLOW_BODY_BYTES = 1024;
const SAMPLE_EVERY_MS = 250;

async function oneRun(run: CalibrationRun, storage: QueueStorage, n: number): Promise<number> {
  return inVhost(run, `flow-${storage}`, async (conn) => {
    const ch = await conn.createChannel();
    const args = queueArguments(storage, false);
    await ch.assertQueue('flow.held', { durable: true, arguments: args });
    await ch.assertQueue('flow.in', {
      durable: true,
      arguments: { ...args, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'flow.held' },
    });
    await ch.prefetch(100);
    await ch.consume('flow.in', (m) => void (m && ch.nack(m, false, false)));
    await sleep(1000);
    const mgmt = run.target.management;
    const before = messageMemoryBytes(await mgmt.nodeMemory(run.node));
    let peak = before;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, messageMemoryBytes(await mgmt.nodeMemory(run.node)));
        await sleep(SAMPLE_EVERY_MS);
      }
    })();
    try {
      await fill(conn, 'flow.in', n, FLOW_BODY_BYTES, FLOW_RATE_PER_SECOND);
      await untilDepth(conn, 'flow.held', n);
      await sleep(2000);
    } finally {
      sampling = false;
      await sampler;
      await ch.close().catch(() => undefined);
    }
    return Math.max(0, peak - before) / n;
  });
}

export async function flowFootprint(run: CalibrationRun, storage: QueueStorage): Promise<FlowRow> {
  const n = run.messages;
  const runs: number[] = [];
  for (let i = 0; i < run.runs; i++) runs.push(await oneRun(run, storage, n));
  const row: FlowRow = {
    storage,
    bodyBytes: FLOW_BODY_BYTES,
    ratePerSecond: FLOW_RATE_PER_SECOND,
    messages: n,
    ramBytesPerMessage: figureOf(runs),
  };
  run.log(
    `  ${storage} under a flow of ${FLOW_RATE_PER_SECOND} msg/s: RAM ${row.ramBytesPerMessage.value} B/msg held (${row.ramBytesPerMessage.min}-${row.ramBytesPerMessage.max})`,
  );
  return row;
}
