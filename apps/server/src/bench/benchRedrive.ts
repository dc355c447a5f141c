/**
 * `pnpm bench:redrive`: re-drive 100,000 messages of 1 KB (persistent, durable classic queues)
 * from one queue to another on the local broker, side by side with dynamic shovels
 * (rabbitmq_shovel, `ack-mode: on-confirm`, `src-delete-after: queue-length`) moving as many
 * between other queues: one on the broker's in-process (direct) connection (`amqp:///vhost`, how
 * a local shovel is usually declared: no TCP, no frame encoding), one over TCP to the same
 * broker's AMQP port (how a shovel reaches another broker, and how any client, the re-drive
 * included, talks to it).
 * In rounds: each round fills every source side by side, then times the three one after another,
 * in an order that rotates each round, letting the broker settle before each (it is still writing
 * what the fill, or the contender before, moved). Whoever ran first right after the fill used to
 * pay for the broker's catching up, and whoever ran next for the one before it.
 * Prints each round's rates, each contender's median and the ratios of the medians. Then the
 * time to browse the first 100 of a queue of 1,000,000 tiny messages (8-byte bodies, transient,
 * filled with confirms in windows of 20,000). Prints one `name: value` per line; the vhost and
 * everything in it is deleted afterwards.
 * `--url AMQP_URL --management-url URL --messages N` (default 100000) `--rounds N` (default 3)
 * `--settle-ms N` (default 3000) `--browse-messages N` (default 1000000, 0 skips) `--window N`
 * (the re-drive's prefetch) `--broker-pid PID` (the broker's beam.smp, Linux; found by its AMQP
 * port when the broker is local and readable: prints the broker's CPU per message for each
 * contender, and this process's for the re-drive; on a machine with fewer cores than the two
 * sides could use, CPU per message is what decides the rate). `--pin-broker CPUS` (Linux, with
 * the broker's pid: its threads on those CPUs, this process on the others, for the whole run and
 * undone after: the re-drive then competes for the broker's CPU only, as when it runs on another
 * host, which is where a shovel inside the broker stands anyway).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { ChannelModel, ConfirmChannel } from 'amqplib';
import {
  ManagementClient,
  ManagementError,
  openConnection,
  requireManagement,
  resolveBrokerUrl,
  resolveManagement,
  withVhost,
  waitForDrain,
} from '../broker/index.js';
import { browseQueue } from '../operate/browse.js';
import { exactDepth, operateTarget } from '../operate/operateTarget.js';
import { startRedrive } from '../operate/redrive.js';
import { pinApart } from './cpuAffinity.js';
import { listeningPid } from './listeningPid.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const print = (name: string, value: number | string): void =>
  console.log(`${name}: ${typeof value === 'number' ? (Number.isInteger(value) ? value : value.toFixed(1)) : value}`);

/** n publishes with confirms, at most `window` unconfirmed at a time */
async function fill(
  ch: ConfirmChannel,
  queue: string,
  n: number,
  body: Buffer,
  persistent: boolean,
  window: number,
): Promise<void> {
  for (let i = 0; i < n; i += window) {
    const end = Math.min(n, i + window);
    for (let j = i; j < end; j++) if (!ch.sendToQueue(queue, body, { persistent })) await waitForDrain(ch, 60_000);
    await ch.waitForConfirms();
  }
}

type Contender = {
  readonly name: string;
  readonly label: string;
  readonly run: (src: string, dst: string) => Promise<void>;
};

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

let brokerPid: string | undefined;
/** undoes --pin-broker */
let unpin: (() => void) | undefined;

/** the broker's CPU time so far (ms), with `--broker-pid PID` (or a local broker found by its port) on Linux; undefined otherwise */
function brokerCpuMs(): number | undefined {
  const pid = brokerPid;
  if (!pid) return undefined;
  try {
    // utime and stime, in clock ticks (100 a second on Linux)
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * A contender that moves `src` into `dst` with a dynamic shovel reaching the broker at `uri`,
 * timed until `dst` holds all n messages (a shovel says nothing when it is done).
 */
function shovelContender(management: ManagementClient, vhost: string, conn: ChannelModel, n: number) {
  let shovels = 0;
  return (uri: string) =>
    async (src: string, dst: string): Promise<void> => {
      // a name of its own each time: a shovel re-declared under the name of one that just finished
      // (and deletes itself, src-delete-after) was sometimes never started, and the bench waited forever
      const name = `${src}.${++shovels}`;
      await management.putShovel(vhost, name, {
        'src-protocol': 'amqp091',
        'src-uri': uri,
        'src-queue': src,
        'dest-protocol': 'amqp091',
        'dest-uri': uri,
        'dest-queue': dst,
        'ack-mode': 'on-confirm',
        'src-delete-after': 'queue-length',
      });
      let last = -1;
      let movedAt = performance.now();
      for (let depth = 0; depth < n; depth = await exactDepth(conn, dst)) {
        if (depth !== last) [last, movedAt] = [depth, performance.now()];
        else if (performance.now() - movedAt > 30_000)
          throw new Error(`shovel '${name}' moved nothing for 30 s (${depth} of ${n} in ${dst})`);
        await new Promise((r) => setTimeout(r, 20));
      }
      await management.deleteShovel(vhost, name).catch(() => undefined); // it may have deleted itself already
    };
}

/** `--pin-broker CPUS`: the broker's threads on those CPUs, this process on the others, undone on exit. */
function pinBrokerIfAsked(): void {
  const pinCpus = arg('pin-broker');
  if (pinCpus === undefined) return;
  if (!brokerPid)
    throw new Error('--pin-broker needs the broker process: pass --broker-pid PID (it was not found by its port)');
  const pinned = pinApart(brokerPid, pinCpus);
  unpin = pinned.restore;
  // an interrupted bench must not leave the broker on one CPU
  for (const [sig, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    process.once(sig, () => {
      unpin?.();
      process.exit(code);
    });
  print(
    'pinned',
    `broker on CPU ${pinCpus}, this process on CPU ${pinned.self} (as if the re-drive ran on another host)`,
  );
}

/**
 * Each contender's median rate and the ratios of the medians; with the broker's pid, the CPU per
 * message too (the broker's cores, or one machine's, are what decide the rate).
 */
function printSummary(
  contenders: readonly Contender[],
  rates: ReadonlyMap<string, number[]>,
  brokerCpu: ReadonlyMap<string, number[]>,
  nodeCpu: readonly number[],
): void {
  for (const c of contenders) {
    const r = rates.get(c.name)!;
    if (r.length === 0) continue;
    print(`${c.name}.connection`, c.label);
    print(`${c.name}.msg_per_s (median of ${r.length})`, median(r));
  }
  const mine = median(rates.get('redrive')!);
  for (const c of contenders.slice(1)) {
    const r = rates.get(c.name)!;
    if (r.length > 0) print(`redrive_vs_${c.name}.ratio (medians)`, (mine / median(r)).toFixed(2));
  }
  // Where the rate comes from: a shovel runs inside the broker, the re-drive is a client on two TCP
  // connections. When the broker's cores are the limit (the re-drive on another host), compare the
  // broker's CPU per message; when one machine's cores serve both, compare the totals.
  const redriveBroker = brokerCpu.get('redrive')!;
  if (redriveBroker.length > 0) {
    const totals = redriveBroker.map((b, i) => b + (nodeCpu[i] ?? 0));
    for (const c of contenders) {
      const b = brokerCpu.get(c.name)!;
      if (b.length > 0) print(`${c.name}.broker_cpu_us_per_msg (median)`, median(b));
    }
    print('redrive.node_cpu_us_per_msg (median)', median(nodeCpu));
    print('redrive.total_cpu_us_per_msg (median, broker + node)', median(totals));
    for (const c of contenders.slice(1)) {
      const b = brokerCpu.get(c.name)!;
      if (b.length === 0) continue;
      // above 1: the re-drive costs the broker less per message than this shovel does
      print(
        `redrive_vs_${c.name}.broker_cpu_ratio (medians, theirs / ours)`,
        (median(b) / median(redriveBroker)).toFixed(2),
      );
      print(`redrive_vs_${c.name}.total_cpu_ratio (medians, theirs / ours)`, (median(b) / median(totals)).toFixed(2));
    }
  }
}

async function main(): Promise<void> {
  const n = Number(arg('messages') ?? 100_000);
  const rounds = Number(arg('rounds') ?? 3);
  const settleMs = Number(arg('settle-ms') ?? 3000);
  const browseN = Number(arg('browse-messages') ?? 1_000_000);
  const window = arg('window') !== undefined ? Number(arg('window')) : undefined;
  const url = resolveBrokerUrl(arg('url'));
  brokerPid =
    arg('broker-pid') ??
    (['127.0.0.1', 'localhost', '::1'].includes(url.hostname) ? listeningPid(url.port) : undefined);
  const mgmtUrl = arg('management-url');
  const management = new ManagementClient(url, {
    baseUrl: requireManagement(await resolveManagement(url, mgmtUrl ? { managementUrl: mgmtUrl } : {})).baseUrl,
    timeoutMs: 60_000,
  });
  const vhost = `rs-bench-redrive-${process.pid}-${Date.now().toString(36)}`;
  await management.createVhost(vhost);
  const vurl = withVhost(url, vhost);
  const conn = await openConnection(vurl, { purpose: 'bench', label: 'redrive' });
  try {
    const target = await operateTarget(url, { vhost, management });
    const shovel = shovelContender(management, vhost, conn, n);
    const contenders: Contender[] = [
      {
        name: 'redrive',
        label: 'this re-drive (two TCP connections, confirms, marker headers)',
        run: async (src, dst) => {
          const job = await startRedrive(
            target,
            { queue: src, target: { kind: 'exchange', exchange: '', routingKey: dst } },
            window !== undefined ? { window } : {},
          );
          const p = await job.done;
          if (p.status !== 'done' || p.moved !== n)
            throw new Error(`re-drive ended ${p.status}, moved ${p.moved} of ${n}${p.error ? ': ' + p.error : ''}`);
        },
      },
      {
        name: 'shovel',
        label: 'dynamic shovel, in-process direct connection (amqp:///vhost)',
        run: shovel(`amqp:///${encodeURIComponent(vhost)}`),
      },
      {
        name: 'shovel_tcp',
        label: 'dynamic shovel over TCP to the same broker',
        run: shovel(
          `amqp://${encodeURIComponent(url.username)}:${encodeURIComponent(url.password)}@${url.hostname.includes(':') ? `[${url.hostname}]` : url.hostname}:${url.port}/${encodeURIComponent(vhost)}`,
        ),
      },
    ];
    const setup = await conn.createConfirmChannel();
    for (const c of contenders)
      for (const q of [`${c.name}.src`, `${c.name}.dst`]) await setup.assertQueue(q, { durable: true });
    await setup.assertQueue('big', { durable: true });
    await setup.close();
    print('broker', `RabbitMQ ${(await management.overview()).rabbitmq_version}`);
    print('messages', n);
    print(
      'broker_pid',
      brokerPid
        ? `${brokerPid}${arg('broker-pid') ? '' : ' (found by its AMQP port)'}`
        : 'unknown: no CPU figures (--broker-pid PID)',
    );
    pinBrokerIfAsked();
    print('rounds', rounds);
    const body = Buffer.alloc(1024, 'x');
    const rates = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
    // CPU per message by round (with --broker-pid): the broker's for each contender, this process's for the re-drive
    const brokerCpu = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
    const nodeCpu: number[] = [];
    let shovelsMissing = false;
    for (let round = 0; round < rounds; round++) {
      let t = performance.now();
      // every source fills side by side, each on its own channel; the broker settles (writes what it
      // buffered) before each contender is timed, and the order rotates each round so no contender always runs first
      await Promise.all(
        contenders.map(async (c) => fill(await conn.createConfirmChannel(), `${c.name}.src`, n, body, true, 5000)),
      );
      print(`round_${round + 1}.fill_ms (${contenders.length} queues of 1 KB persistent)`, performance.now() - t);
      const order = contenders.map((_, i) => contenders[(i + round) % contenders.length]!);
      for (const c of order) {
        if (shovelsMissing && c.name !== 'redrive') continue;
        await new Promise((r) => setTimeout(r, settleMs));
        const cpu0 = [brokerCpuMs(), process.cpuUsage()] as const;
        t = performance.now();
        try {
          await c.run(`${c.name}.src`, `${c.name}.dst`);
        } catch (err) {
          if (!(err instanceof ManagementError && (err.status === 404 || err.status === 400))) throw err;
          print(
            'shovel',
            'unavailable: the rabbitmq_shovel plugin is not enabled on this broker (rabbitmq-plugins enable rabbitmq_shovel)',
          );
          shovelsMissing = true;
          continue;
        }
        const rate = (n * 1000) / (performance.now() - t);
        rates.get(c.name)!.push(rate);
        print(`round_${round + 1}.${c.name}.msg_per_s`, rate);
        const [broker0, node0] = cpu0;
        const broker1 = brokerCpuMs();
        if (broker0 !== undefined && broker1 !== undefined) {
          const perMsg = ((broker1 - broker0) * 1000) / n;
          brokerCpu.get(c.name)!.push(perMsg);
          print(`round_${round + 1}.${c.name}.broker_cpu_us_per_msg`, perMsg);
        }
        // the shovels run in the broker: what this process spends meanwhile is polling the depth
        const node = process.cpuUsage(node0);
        if (c.name === 'redrive') {
          const perMsg = (node.user + node.system) / n;
          nodeCpu.push(perMsg);
          print(`round_${round + 1}.${c.name}.node_cpu_us_per_msg`, perMsg);
        }
      }
      const mine = rates.get('redrive')![round];
      for (const c of contenders.slice(1)) {
        const theirs = rates.get(c.name)![round];
        if (mine !== undefined && theirs !== undefined)
          print(`round_${round + 1}.redrive_vs_${c.name}.ratio`, (mine / theirs).toFixed(2));
      }
      // the next round starts from empty queues
      const ch = await conn.createChannel();
      for (const c of contenders) for (const q of [`${c.name}.src`, `${c.name}.dst`]) await ch.purgeQueue(q);
      await ch.close();
    }
    printSummary(contenders, rates, brokerCpu, nodeCpu);

    if (browseN > 0) {
      let t = performance.now();
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
    unpin?.();
    await conn.close().catch(() => undefined);
    await management.deleteVhost(vhost);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  main().catch((err: unknown) => {
    console.error(`bench:redrive failed: ${(err as Error).message}`);
    process.exitCode = 1;
  });
