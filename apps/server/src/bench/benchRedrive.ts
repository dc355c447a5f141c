/**
 * `pnpm bench:redrive`: re-drive 100,000 messages of 1 KB from one queue to another on the local
 * broker, side by side with a dynamic shovel moving the same number between two other queues
 * (rabbitmq_shovel; reported as unavailable when the plugin is not enabled), and the time to
 * browse the first 100 of the full queue. Prints one `name: value` per line; the vhost is
 * deleted afterwards. `--url AMQP_URL --management-url URL --messages N` (default 100000).
 */
import { pathToFileURL } from 'node:url';
import { ConfirmedPublisher, ManagementClient, ManagementError, openConnection, requireManagement, resolveBrokerUrl, resolveManagement, withVhost } from '../broker/index.js';
import { browseQueue } from '../operate/browse.js';
import { exactDepth, operateTarget } from '../operate/operateTarget.js';
import { startRedrive } from '../operate/redrive.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const print = (name: string, value: number | string): void => console.log(`${name}: ${typeof value === 'number' ? (Number.isInteger(value) ? value : value.toFixed(1)) : value}`);

async function main(): Promise<void> {
  const n = Number(arg('messages') ?? 100_000);
  const url = resolveBrokerUrl(arg('url'));
  const mgmtUrl = arg('management-url');
  const management = new ManagementClient(url, { baseUrl: requireManagement(await resolveManagement(url, mgmtUrl ? { managementUrl: mgmtUrl } : {})).baseUrl, timeoutMs: 60_000 });
  const vhost = `rs-bench-redrive-${process.pid}-${Date.now().toString(36)}`;
  await management.createVhost(vhost);
  const vurl = withVhost(url, vhost);
  const conn = await openConnection(vurl, { purpose: 'bench', label: 'redrive' });
  try {
    const ch = await conn.createConfirmChannel();
    ch.setMaxListeners(0); // one close listener per unconfirmed publish
    for (const q of ['dlq', 'target', 'shovel.src', 'shovel.dst']) await ch.assertQueue(q, { durable: true });
    const body = Buffer.alloc(1024, 'x');
    const fill = async (queue: string): Promise<void> => {
      const p = new ConfirmedPublisher(ch, { maxInFlight: 2000, timeoutMs: 60_000 });
      for (let i = 0; i < n; i++) await p.publish('', queue, body, { persistent: true, headers: { n: i } });
      await p.flush();
    };
    let t = performance.now();
    await fill('dlq');
    await fill('shovel.src');
    print('setup.fill_ms (2 queues)', performance.now() - t);
    print('broker', `RabbitMQ ${(await management.overview()).rabbitmq_version}`);
    print('messages', n);

    const target = await operateTarget(url, { vhost, management });
    t = performance.now();
    const b = await browseQueue(target, conn, { queue: 'dlq', limit: 100 });
    print(`browse.first_100_of_${b.depth}_ms`, performance.now() - t);

    t = performance.now();
    const job = await startRedrive(target, { queue: 'dlq', target: { kind: 'exchange', exchange: '', routingKey: 'target' } });
    const p = await job.done;
    const redriveMs = performance.now() - t;
    if (p.status !== 'done' || p.moved !== n) throw new Error(`re-drive ended ${p.status}, moved ${p.moved} of ${n}${p.error ? ': ' + p.error : ''}`);
    const redriveRate = (n * 1000) / redriveMs;
    print('redrive.ms', redriveMs);
    print('redrive.msg_per_s', redriveRate);
    print('redrive.target_depth', await exactDepth(conn, 'target'));

    const uri = `amqp:///${encodeURIComponent(vhost)}`;
    t = performance.now();
    try {
      await management.putShovel(vhost, 'bench', { 'src-protocol': 'amqp091', 'src-uri': uri, 'src-queue': 'shovel.src', 'dest-protocol': 'amqp091', 'dest-uri': uri, 'dest-queue': 'shovel.dst', 'ack-mode': 'on-confirm', 'src-delete-after': 'queue-length' });
    } catch (err) {
      if (err instanceof ManagementError && (err.status === 404 || err.status === 400)) {
        print('shovel', 'unavailable: the rabbitmq_shovel plugin is not enabled on this broker (rabbitmq-plugins enable rabbitmq_shovel)');
        return;
      }
      throw err;
    }
    while ((await exactDepth(conn, 'shovel.dst')) < n) await new Promise((r) => setTimeout(r, 20));
    const shovelMs = performance.now() - t;
    await management.deleteShovel(vhost, 'bench');
    const shovelRate = (n * 1000) / shovelMs;
    print('shovel.ms', shovelMs);
    print('shovel.msg_per_s', shovelRate);
    print('redrive_vs_shovel.ratio', redriveRate / shovelRate);
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
