/**
 * Messages held by a delayed-message exchange (the rabbitmq_delayed_message_exchange plugin):
 * where the broker lists the exchange type, `messages` persistent messages with an hour's
 * x-delay, the node read before and after (the plugin keeps them in a Mnesia table: RAM and disk).
 * Where it does not, the reason is written instead and the cost model estimates.
 */
import type { DelayedExchangeFootprint } from '@retry-studio/topology-core/calibration';
import { ConfirmedPublisher } from '../broker/index.js';
import { body, figureOf, inVhost, type CalibrationRun } from './calibrationRun.js';
import { readNode, sleep } from './nodeReadings.js';

const BODIES = [100, 1024, 16384];
const HELD_RAM = ['mnesia', 'binary', 'other_ets'];

async function oneRun(run: CalibrationRun, bytes: number): Promise<{ ram: number; disk: number }> {
  return inVhost(run, `held-${bytes}`, async (conn) => {
    const ch = await conn.createConfirmChannel();
    try {
      await ch.assertExchange('held', 'x-delayed-message', {
        durable: true,
        arguments: { 'x-delayed-type': 'direct' },
      });
      await ch.assertQueue('after', { durable: true });
      await ch.bindQueue('after', 'held', 'k');
      await sleep(500);
      const before = await readNode(run.target.management, run.node, run.dataDir);
      const pub = new ConfirmedPublisher(ch, { maxInFlight: 500, timeoutMs: 60_000 });
      const content = body(bytes);
      for (let i = 0; i < run.messages; i++)
        await pub.publish('held', 'k', content, { persistent: true, headers: { 'x-delay': 3_600_000 } });
      await pub.flush();
      await sleep(2000);
      const after = await readNode(run.target.management, run.node, run.dataDir);
      let ram = 0;
      for (const c of HELD_RAM) ram += (after.memory[c] ?? 0) - (before.memory[c] ?? 0);
      return {
        ram: Math.max(0, ram / run.messages),
        disk: Math.max(0, (after.diskBytes - before.diskBytes) / run.messages),
      };
    } finally {
      await ch.close().catch(() => undefined);
    }
  });
}

export async function delayedExchangeFootprint(run: CalibrationRun): Promise<DelayedExchangeFootprint> {
  const ov = await run.target.management.overview();
  if (!ov.exchange_types.some((t) => t.name === 'x-delayed-message'))
    return {
      measured: false,
      reason: `RabbitMQ ${run.target.version} here lists no x-delayed-message exchange type: the rabbitmq_delayed_message_exchange plugin is not enabled${run.target.profile === '4.3' ? ' (it cannot run on 4.3, which removed Mnesia)' : ''}`,
    };
  const rows = [];
  for (const bytes of BODIES) {
    const runs = [];
    for (let i = 0; i < run.runs; i++) runs.push(await oneRun(run, bytes));
    rows.push({
      bodyBytes: bytes,
      messages: run.messages,
      ramBytesPerMessage: figureOf(runs.map((r) => r.ram)),
      diskBytesPerMessage: figureOf(runs.map((r) => r.disk)),
    });
    run.log(`  delayed-message exchange, ${bytes} B bodies: RAM ${rows.at(-1)!.ramBytesPerMessage.value} B/msg`);
  }
  return { measured: true, rows };
}
