/**
 * `pnpm bench:sim`: how fast the simulator runs retry topologies, and how that compares with the
 * live broker on the same workload. Prints one `name: value` per line.
 *
 * A hop is one message arriving somewhere: at an exchange (each exchange visited: the one
 * published to, exchange-to-exchange and alternate-exchange hops, a dead-letter exchange) or at
 * a queue (each enqueue). The simulator counts them as it runs (`stats.hops`); the broker figure
 * uses the same per-message hop count, taken from a simulation of the exact broker workload.
 *
 * Workloads:
 * - nanit option 2 (../shared/conformance/scenarios/nanit-2-dlx-wait-queue.json): each message
 *   is rejected 3 times (-> DLX -> wait queue with TTL -> back), then acked; 100,000 messages.
 * - chained TTL tiers (chained-ttl-tiers.json): rejected in work.0/1/2, parked; 100,000 messages.
 * - memory: 100,000 messages published at once and parked in the wait queue; heap growth after GC
 *   divided by the messages in flight.
 * - ledger: the events of 10,000 nanit option-2 messages (a big live trace's worth) read back into
 *   every message's fate: the copy ledger's fold alone (events/s), and the core's outcomes from
 *   events over it (the timeline's lanes, a live trace's outcomes; messages/s).
 * - broker: the nanit option-2 topology with the wait queue's TTL set to 0 (no waiting), on the
 *   real broker through the server's broker layer, in a throwaway vhost; the simulator runs the
 *   same TTL-0 workload for the ratio.
 *
 * Before/after in one run: BENCH_BASELINE=/path/to/an/older/topology-core/src/index.ts (e.g. a
 * `git worktree` or a copy of packages/topology-core/src at another commit) runs every speed
 * workload with that copy too, interleaved with the current one (same process, same load), and
 * prints `<name>_baseline_hops_per_s` lines next to the current ones.
 *
 * Profiling: `cd apps/server && BENCH_SECTIONS=speed node --cpu-prof --cpu-prof-dir=/tmp/prof
 * --import tsx src/bench/benchSim.ts` writes a .cpuprofile (open it in Chrome DevTools); add
 * `--heap-prof` for allocations.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';
import { type ConsumerSpec, type Design, type Topology } from '@retry-studio/topology-core/model';
import { type Scenario } from '@retry-studio/topology-core/scenario';
import {
  CopyLedger,
  outcomesOfEvents,
  Simulator,
  simulate,
  type SimStep,
  type SimulationInput,
} from '@retry-studio/topology-core/sim';
import type { Channel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import { openConnection, resolveBrokerUrl, resolveManagement, waitForDrain, withVhost } from '../broker/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../../..');
const sharedDir = process.env.CONFORMANCE_SHARED_DIR ?? resolve(repoRoot, '../shared');
const N = Number(process.env.BENCH_MESSAGES ?? 100_000);
const BROKER_N = Number(process.env.BENCH_BROKER_MESSAGES ?? 5_000);
/** BENCH_SECTIONS=speed,memory,ledger,broker (default all) */
const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? 'speed,memory,ledger,broker').split(','));
const LEDGER_N = 10_000;

function scenario(name: string): Scenario {
  return JSON.parse(readFileSync(join(sharedDir, 'conformance', 'scenarios', `${name}.json`), 'utf8')) as Scenario;
}

/** n publishes: all at t=0 (burst), or one every `gapMs` virtual ms (steady) */
function publishes(n: number, exchange: string, routingKey: string, gapMs = 0): SimStep[] {
  const steps: SimStep[] = [];
  for (let i = 0; i < n; i++) {
    steps.push({
      kind: 'publish',
      exchange,
      routingKey,
      body: `m-${i + 1}`,
      msgId: `m-${i + 1}`,
    });
    if (gapMs > 0) steps.push({ kind: 'wait', ms: gapMs });
  }
  return steps;
}

const rejectThenAck = (id: string, queue: string, retries: number): ConsumerSpec => ({
  id,
  queue,
  prefetch: 1,
  behaviour: {
    kind: 'worker',
    failure: { kind: 'failFirst', n: retries },
    onFailure: [{ then: { kind: 'reject' } }],
  },
});
const always = (id: string, queue: string, action: 'ack' | 'reject'): ConsumerSpec => ({
  id,
  queue,
  behaviour: { kind: 'router', rules: [{ then: { kind: action } }] },
});

export function nanit2Input(topology: Topology, n: number, gapMs = 0): SimulationInput {
  return {
    topology,
    consumers: [
      rejectThenAck('mailman', 'mailman.users.created', 3),
      always('subscriptions', 'subscriptions.users.created', 'ack'),
    ],
    steps: publishes(n, 'nanit.users', 'created', gapMs),
    retainEvents: false,
    maxEvents: Number.POSITIVE_INFINITY,
    maxTimeMs: Number.POSITIVE_INFINITY,
  };
}

function chainedInput(topology: Topology, n: number, gapMs = 0): SimulationInput {
  return {
    topology,
    consumers: ['work.0', 'work.1', 'work.2'].map((q) => always(q, q, 'reject')),
    steps: publishes(n, 'work', 'task', gapMs),
    retainEvents: false,
    maxEvents: Number.POSITIVE_INFINITY,
    maxTimeMs: Number.POSITIVE_INFINITY,
  };
}

/** the same topology with every x-message-ttl set to 0: the same hops, no waiting */
export function withoutWaits(t: Topology): Topology {
  return {
    ...t,
    queues: t.queues.map((q) =>
      q.arguments?.['x-message-ttl'] !== undefined ? { ...q, arguments: { ...q.arguments, 'x-message-ttl': 0 } } : q,
    ),
  };
}

interface Speed {
  /** wall clock: median and best of 3 */
  readonly median: number;
  readonly best: number;
  /** per second of this process's CPU time (user + system), median of 3: robust to other load */
  readonly cpuMedian: number;
  readonly hops: number;
}

const median3 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[1] as number;

type SimulateFn = typeof simulate;
/** BENCH_BASELINE: another copy of topology-core to compare with (see the header) */
const baselineSimulate: SimulateFn | undefined = process.env.BENCH_BASELINE
  ? ((await import(pathToFileURL(resolve(process.env.BENCH_BASELINE)).href)) as { simulate: SimulateFn }).simulate
  : undefined;

/**
 * one full-size warm-up run (JIT) per simulator, then 3 timed runs each; with a baseline the
 * runs alternate (baseline, current, baseline, ...) so both see the same machine load
 */
function hopsPerSecondVs(make: () => SimulationInput): { current: Speed; baseline?: Speed } {
  const sims: SimulateFn[] = baselineSimulate ? [simulate, baselineSimulate] : [simulate];
  for (const sim of sims) sim(make());
  const wall = sims.map((): number[] => []);
  const cpu = sims.map((): number[] => []);
  let hops = 0;
  for (let i = 0; i < 3; i++)
    for (let k = sims.length - 1; k >= 0; k--) {
      const input = make();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = (sims[k] as SimulateFn)(input);
      const ms = performance.now() - t0;
      const c = process.cpuUsage(c0);
      if (r.truncated) throw new Error('benchmark run was truncated');
      hops = r.stats.hops;
      (wall[k] as number[]).push(r.stats.hops / (ms / 1000));
      (cpu[k] as number[]).push(r.stats.hops / ((c.user + c.system) / 1e6));
    }
  const speed = (k: number): Speed => ({
    median: median3(wall[k] as number[]),
    best: Math.max(...(wall[k] as number[])),
    cpuMedian: median3(cpu[k] as number[]),
    hops,
  });
  return sims.length > 1 ? { current: speed(0), baseline: speed(1) } : { current: speed(0) };
}

function hopsPerSecond(make: () => SimulationInput): Speed {
  return hopsPerSecondVs(make).current;
}

function bytesPerInFlight(topology: Topology, n: number): number {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const input = nanit2Input(topology, n);
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const sim = new Simulator(input);
  // every message has been rejected once and waits in the TTL queue (TTL 200 ms)
  sim.runUntil(100);
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  const inFlight = sim.inFlight;
  if (inFlight < n) throw new Error(`expected ${n} messages in flight, found ${inFlight}`);
  const per = (after - before) / inFlight;
  // keep the simulator alive until measured
  if (sim.now < 0) console.log(sim.depths());
  return per;
}

/**
 * The nanit option-2 workload on the live broker (through the server's broker layer), in a
 * throwaway vhost: publish n messages with confirms, the mailman consumer rejects a message
 * until its x-death shows 3 rejections from mailman, then acks; subscriptions acks. Timed from
 * the first publish until every message is acked in both queues. Consumers use prefetch 100 (the
 * broker's best case; prefetch 1 would make the broker several times slower).
 */
async function runBrokerWorkload(topology: Topology, n: number, retries: number): Promise<{ ms: number }> {
  const url = resolveBrokerUrl();
  // this broker's own management API (RETRY_STUDIO_MANAGEMENT_URL or discovered), or none
  const found = await resolveManagement(url);
  const mgmt = found.kind === 'verified' ? found.client : undefined;
  const vhost = `bench-sim-${process.pid}-${Date.now()}`;
  // a throwaway vhost when the management API answers; otherwise uniquely prefixed names in the URL's vhost
  let prefix = '';
  let ownVhost = true;
  try {
    if (!mgmt) throw new Error('no management API');
    await mgmt.createVhost(vhost);
  } catch {
    ownVhost = false;
    prefix = `${vhost}.`;
  }
  const conn = await openConnection(ownVhost ? withVhost(url, vhost) : url, { purpose: 'bench' });
  const p = (name: string): string => (name === '' ? '' : prefix + name);
  const t: Topology = {
    exchanges: topology.exchanges.map((x) => ({ ...x, name: p(x.name) })),
    queues: topology.queues.map((q) => {
      const a = { ...(q.arguments ?? {}) };
      if (typeof a['x-dead-letter-exchange'] === 'string') a['x-dead-letter-exchange'] = p(a['x-dead-letter-exchange']);
      if (typeof a['x-dead-letter-routing-key'] === 'string')
        a['x-dead-letter-routing-key'] = p(a['x-dead-letter-routing-key']);
      return { ...q, name: p(q.name), arguments: a };
    }),
    bindings: topology.bindings.map((b) => ({
      ...b,
      source: p(b.source),
      destination: p(b.destination),
      routing_key: b.routing_key === '#' ? '#' : p(b.routing_key),
    })),
  };
  const cleanup = async (): Promise<void> => {
    if (ownVhost) {
      await conn.close().catch(() => undefined);
      await mgmt?.deleteVhost(vhost).catch(() => undefined);
      return;
    }
    const ch = await conn.createChannel();
    for (const q of t.queues) await ch.deleteQueue(q.name).catch(() => undefined);
    for (const x of t.exchanges) await ch.deleteExchange(x.name).catch(() => undefined);
    await conn.close().catch(() => undefined);
  };
  try {
    const ch: ConfirmChannel = await conn.createConfirmChannel();
    for (const x of t.exchanges)
      await ch.assertExchange(x.name, x.type, {
        durable: x.durable ?? true,
        autoDelete: x.auto_delete ?? false,
        arguments: x.arguments ?? {},
      });
    for (const q of t.queues)
      await ch.assertQueue(q.name, {
        durable: q.durable ?? true,
        autoDelete: q.auto_delete ?? false,
        arguments: q.arguments ?? {},
      });
    for (const b of t.bindings) {
      if (b.destination_type === 'queue') await ch.bindQueue(b.destination, b.source, b.routing_key, b.arguments ?? {});
      else await ch.bindExchange(b.destination, b.source, b.routing_key, b.arguments ?? {});
    }
    const mailman = p('mailman.users.created');
    const subs = p('subscriptions.users.created');
    let doneMail = 0;
    let doneSubs = 0;
    let finish: () => void = () => {};
    const allDone = new Promise<void>((res) => (finish = res));
    const check = (): void => {
      if (doneMail === n && doneSubs === n) finish();
    };
    const cm: Channel = await conn.createChannel();
    await cm.prefetch(100);
    await cm.consume(mailman, (m: ConsumeMessage | null) => {
      if (!m) return;
      const deaths = (m.properties.headers?.['x-death'] ?? []) as {
        queue: string;
        reason: string;
        count: number;
      }[];
      const rejected = deaths.find((d) => d.queue === mailman && d.reason === 'rejected')?.count ?? 0;
      if (rejected < retries) cm.nack(m, false, false);
      else {
        cm.ack(m);
        doneMail++;
        check();
      }
    });
    const cs: Channel = await conn.createChannel();
    await cs.prefetch(100);
    await cs.consume(subs, (m: ConsumeMessage | null) => {
      if (!m) return;
      cs.ack(m);
      doneSubs++;
      check();
    });
    const t0 = performance.now();
    for (let i = 1; i <= n; i++) {
      if (!ch.publish(p('nanit.users'), p('created'), Buffer.from(`m-${i}`))) await waitForDrain(ch);
    }
    await ch.waitForConfirms();
    const timeout = new Promise<never>((_, rej) =>
      setTimeout(
        () => rej(new Error(`broker workload did not finish in 120 s (${doneMail}/${n} acked)`)),
        120_000,
      ).unref(),
    );
    await Promise.race([allDone, timeout]);
    return { ms: performance.now() - t0 };
  } finally {
    await cleanup();
  }
}

/** The copy ledger over a run's events: the fold alone, and every message's outcome from the events (medians of 5). */
function ledgerFold(topology: Topology): void {
  const input = nanit2Input(topology, LEDGER_N);
  const events = simulate({ ...input, retainEvents: true }).events;
  const design = { topology, consumers: input.consumers, publishers: [] } as unknown as Design;
  const median = (f: () => void): number => {
    const ms: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      f();
      ms.push(performance.now() - t0);
    }
    return ms.sort((a, b) => a - b)[2]!;
  };
  const foldMs = median(() => {
    const ledger = new CopyLedger();
    for (const e of events) ledger.apply(e);
  });
  const outcomesMs = median(() => void outcomesOfEvents(design, events, { running: false }));
  console.log(`ledger_messages: ${LEDGER_N}`);
  console.log(`ledger_events: ${events.length}`);
  console.log(`ledger_fold_events_per_s: ${Math.round(events.length / (foldMs / 1000))} (measured, median of 5)`);
  console.log(
    `outcomes_of_events_messages_per_s: ${Math.round(LEDGER_N / (outcomesMs / 1000))} (measured, median of 5)`,
  );
}

async function main(): Promise<void> {
  const nanit = scenario('nanit-2-dlx-wait-queue').topology;
  const chained = scenario('chained-ttl-tiers').topology;
  const fmt = (x: number): string => Math.round(x).toString();

  let nanitBurst = 0;
  const report = (name: string, sp: Speed): void => {
    console.log(`${name}_hops: ${sp.hops}`);
    console.log(`${name}_hops_per_s: ${fmt(sp.median)}`);
    console.log(`${name}_hops_per_s_best: ${fmt(sp.best)}`);
    console.log(`${name}_hops_per_cpu_s: ${fmt(sp.cpuMedian)}`);
  };
  console.log(`messages: ${N}`);
  console.log(`retries_per_message: 3`);
  if (SECTIONS.has('speed')) {
    const both = (name: string, make: () => SimulationInput): Speed => {
      const r = hopsPerSecondVs(make);
      report(name, r.current);
      if (r.baseline) {
        console.log(`${name}_baseline_hops_per_s: ${fmt(r.baseline.median)}`);
        console.log(`${name}_baseline_hops_per_cpu_s: ${fmt(r.baseline.cpuMedian)}`);
      }
      return r.current;
    };
    // burst: every message published at t=0, so all 100,000 are in flight together (worst case for GC)
    nanitBurst = both('sim_nanit2_burst', () => nanit2Input(nanit, N)).median;
    // steady: one publish per virtual ms (a 1,000 msg/s producer); ~200-800 messages in flight
    both('sim_nanit2_steady', () => nanit2Input(nanit, N, 1));
    both('sim_chained_ttl_burst', () => chainedInput(chained, N));
    both('sim_chained_ttl_steady', () => chainedInput(chained, N, 1));
  }
  if (SECTIONS.has('memory')) console.log(`sim_bytes_per_inflight_message: ${fmt(bytesPerInFlight(nanit, N))}`);
  if (SECTIONS.has('ledger')) ledgerFold(nanit);
  if (!SECTIONS.has('broker')) return;

  const noWait = withoutWaits(nanit);
  const c = hopsPerSecond(() => nanit2Input(noWait, N));
  report('sim_nanit2_no_ttl_burst', c);
  const hopsPerMessage = simulate(nanit2Input(noWait, 1)).stats.hops;
  console.log(`hops_per_message_nanit2: ${hopsPerMessage}`);
  try {
    const broker = await runBrokerWorkload(noWait, BROKER_N, 3);
    const brokerHopsPerS = (hopsPerMessage * BROKER_N) / (broker.ms / 1000);
    console.log(`broker_nanit2_no_ttl_messages: ${BROKER_N}`);
    console.log(`broker_nanit2_no_ttl_hops_per_s: ${fmt(brokerHopsPerS)}`);
    console.log(`ratio_sim_vs_broker_same_workload: ${(c.median / brokerHopsPerS).toFixed(1)}`);
    if (nanitBurst > 0) console.log(`ratio_sim_nanit2_burst_vs_broker: ${(nanitBurst / brokerHopsPerS).toFixed(1)}`);
  } catch (err) {
    console.log(`broker_nanit2_no_ttl_hops_per_s: unavailable (${(err as Error).message})`);
  }
}

await main();
