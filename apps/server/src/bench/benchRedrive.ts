/**
 * `pnpm bench:redrive`: re-drive 100,000 messages of 1 KB (persistent, durable classic queues)
 * from one queue to another on the local broker, side by side with dynamic shovels
 * (rabbitmq_shovel, `ack-mode: on-confirm`, `src-delete-after: queue-length`) moving as many
 * between other queues: one on the broker's in-process (direct) connection (`amqp:///vhost`, how
 * a local shovel is usually declared: no TCP, no frame encoding), one over TCP to the same
 * broker's AMQP port (how a shovel reaches another broker, and how any client, the re-drive
 * included, talks to it). Then the time to browse the first 100 of a queue of 1,000,000 tiny
 * messages (8-byte bodies, transient, filled with confirms in windows of 20,000). Prints one
 * `name: value` per line; the vhost and everything in it is deleted afterwards.
 * `--url AMQP_URL --management-url URL --messages N` (default 100000) `--browse-messages N`
 * (default 1000000, 0 skips) `--window N` (the re-drive's prefetch).
 */
import { pathToFileURL } from 'node:url';
import type { ConfirmChannel } from 'amqplib';
import { ManagementClient, ManagementError, openConnection, requireManagement, resolveBrokerUrl, resolveManagement, withVhost, waitForDrain } from '../broker/index.js';
import { browseQueue } from '../operate/browse.js';
import { exactDepth, operateTarget } from '../operate/operateTarget.js';
import { startRedrive } from '../operate/redrive.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const print = (name: string, value: number | string): void => console.log(`${name}: ${typeof value === 'number' ? (Number.isInteger(value) ? value : value.toFixed(1)) : value}`);

/** n publishes with confirms, at most `window` unconfirmed at a time */
async function fill(ch: ConfirmChannel, queue: string, n: number, body: Buffer, persistent: boolean, window: number): Promise<void> {
  for (let i = 0; i < n; i += window) {
    const end = Math.min(n, i + window);
    for (let j = i; j < end; j++) if (!ch.sendToQueue(queue, body, { persistent })) await waitForDrain(ch, 60_000);
    await ch.waitForConfirms();
  }
}

async function main(): Promise<void> {
  const n = Number(arg('messages') ?? 100_000);
  const browseN = Number(arg('browse-messages') ?? 1_000_000);
  const window = arg('window') !== undefined ? Number(arg('window')) : undefined;
  const url = resolveBrokerUrl(arg('url'));
  const mgmtUrl = arg('management-url');
  const management = new ManagementClient(url, { baseUrl: requireManagement(await resolveManagement(url, mgmtUrl ? { managementUrl: mgmtUrl } : {})).baseUrl, timeoutMs: 60_000 });
  const vhost = `rs-bench-redrive-${process.pid}-${Date.now().toString(36)}`;
  await management.createVhost(vhost);
  const vurl = withVhost(url, vhost);
  const conn = await openConnection(vurl, { purpose: 'bench', label: 'redrive' });
  try {
    const setup = await conn.createConfirmChannel();
    const SHOVELS = [
      { name: 'shovel', label: 'direct', uri: `amqp:///${encodeURIComponent(vhost)}` },
      { name: 'shovel_tcp', label: 'tcp', uri: `amqp://${encodeURIComponent(url.username)}:${encodeURIComponent(url.password)}@${url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname}:${url.port}/${encodeURIComponent(vhost)}` },
    ];
    const queues = ['dlq', 'target', 'big', ...SHOVELS.flatMap((x) => [`${x.name}.src`, `${x.name}.dst`])];
    for (const q of queues) await setup.assertQueue(q, { durable: true });
    await setup.close();
    const body = Buffer.alloc(1024, 'x');
    let t = performance.now();
    // the 1 KB queues fill side by side, each on its own channel
    await Promise.all(['dlq', ...SHOVELS.map((x) => `${x.name}.src`)].map(async (q) => fill(await conn.createConfirmChannel(), q, n, body, true, 5000)));
    print(`setup.fill_ms (${1 + SHOVELS.length} queues of 1 KB persistent)`, performance.now() - t);
    print('broker', `RabbitMQ ${(await management.overview()).rabbitmq_version}`);
    print('messages', n);

    const target = await operateTarget(url, { vhost, management });
    t = performance.now();
    const job = await startRedrive(target, { queue: 'dlq', target: { kind: 'exchange', exchange: '', routingKey: 'target' } }, window !== undefined ? { window } : {});
    const p = await job.done;
    const redriveMs = performance.now() - t;
    if (p.status !== 'done' || p.moved !== n) throw new Error(`re-drive ended ${p.status}, moved ${p.moved} of ${n}${p.error ? ': ' + p.error : ''}`);
    const redriveRate = (n * 1000) / redriveMs;
    print('redrive.ms', redriveMs);
    print('redrive.msg_per_s', redriveRate);
    print('redrive.target_depth', await exactDepth(conn, 'target'));

    for (const sh of SHOVELS) {
      t = performance.now();
      try {
        await management.putShovel(vhost, sh.name, { 'src-protocol': 'amqp091', 'src-uri': sh.uri, 'src-queue': `${sh.name}.src`, 'dest-protocol': 'amqp091', 'dest-uri': sh.uri, 'dest-queue': `${sh.name}.dst`, 'ack-mode': 'on-confirm', 'src-delete-after': 'queue-length' });
      } catch (err) {
        if (!(err instanceof ManagementError && (err.status === 404 || err.status === 400))) throw err;
        print('shovel', 'unavailable: the rabbitmq_shovel plugin is not enabled on this broker (rabbitmq-plugins enable rabbitmq_shovel)');
        break;
      }
      while ((await exactDepth(conn, `${sh.name}.dst`)) < n) await new Promise((r) => setTimeout(r, 20));
      const shovelMs = performance.now() - t;
      await management.deleteShovel(vhost, sh.name);
      const shovelRate = (n * 1000) / shovelMs;
      print(`${sh.name}.connection`, sh.label);
      print(`${sh.name}.ms`, shovelMs);
      print(`${sh.name}.msg_per_s`, shovelRate);
      print(`redrive_vs_${sh.name}.ratio`, (redriveRate / shovelRate).toFixed(2));
    }

    if (browseN > 0) {
      t = performance.now();
      const big = await conn.createConfirmChannel();
      await fill(big, 'big', browseN, Buffer.from('m0000000'), false, 20_000);
      await big.close();
      print(`setup.fill_big_ms (${browseN} x 8 B transient)`, performance.now() - t);
      t = performance.now();
      const b = await browseQueue(target, conn, { queue: 'big', limit: 100 });
      print(`browse.first_100_of_${b.depth}_ms`, performance.now() - t);
      if (b.messages.length !== 100) throw new Error(`browse returned ${b.messages.length} messages, not 100`);
    }
  } finally {
    await conn.close().catch(() => undefined);
    await management.deleteVhost(vhost);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  main().catch((err: unknown) => {
    console.error(`bench:redrive failed: ${(err as Error).message}`);
    process.exitCode = 1;
  });
