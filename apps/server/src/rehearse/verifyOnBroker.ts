/**
 * `rehearse --verify-on AMQP_URL`: the same load for real, in a throwaway vhost deleted
 * afterwards whatever happened. The design is declared through the deploy's declarations,
 * workers follow the failure schedule in wall-clock time (loadWorker.ts), the publisher sends
 * the arrivals at their instants, the depths are read from the broker 4 times a second and the
 * node's memory, disk and alarms and each queue's memory twice a second (resourceProbe.ts).
 * SIGINT or SIGTERM delete the vhost before the process exits (inThrowawayVhost).
 * The result has the rehearsal's names (MeasuredRehearsal).
 */
import type { Design } from '@retry-studio/topology-core/model';
import {
  arrivalSegments,
  DelayRecorder,
  resolveLoad,
  type MeasuredNode,
  type MeasuredRehearsal,
  type RehearsalLoad,
  type RehearsalReport,
} from '@retry-studio/topology-core/rehearse';
import { ManagedConnection, parseAmqpUrl, redactUrl, withVhost } from '../broker/index.js';
import { declarePolicy, declareTopology } from '../deploy/declareTopology.js';
import { inThrowawayVhost } from '../broker/throwawayVhost.js';
import { verifyTarget, type VerifyTarget } from '../upgrade/verifyUpgrade.js';
import { DepthProbe, measuredDrainMs } from './depthProbe.js';
import { publishArrivals } from './loadPublisher.js';
import { LoadWorker, type LoadRun } from './loadWorker.js';
import { ResourceProbe } from './resourceProbe.js';

/** the broker cannot be used (unreachable, refused): nothing was declared */
export class VerifyTargetError extends Error {}

/** the broker of --verify-on (its management API, version and profile), or VerifyTargetError before anything is declared */
export async function brokerTarget(url: string, managementUrl?: string): Promise<VerifyTarget> {
  try {
    return await verifyTarget(parseAmqpUrl(url), managementUrl);
  } catch (e) {
    throw new VerifyTargetError(`--verify-on ${redactUrl(url)}: ${(e as Error).message}`);
  }
}

export interface VerifyOptions {
  readonly target: VerifyTarget;
  /** the rehearsal of the same load: how long to follow the broker, which queues park */
  readonly predicted: RehearsalReport;
  readonly log?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** the retry queues must stay empty this long before the run is over */
const QUIET_MS = 1500;
/** how long past the predicted end the broker is followed at most */
const GRACE_MS = 15_000;

export async function verifyOnBroker(
  design: Design,
  load: RehearsalLoad,
  o: VerifyOptions,
): Promise<MeasuredRehearsal> {
  const r = resolveLoad(design, load);
  if (!r.ok) throw new VerifyTargetError(r.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  const target = o.target;
  const started = performance.now();
  const resolved = r.resolved;
  const { result, cleanedUp, vhost } = await inThrowawayVhost(
    target.management,
    'run',
    (vh) => runIn(vh, target, design, load, o),
    'rs-rehearse',
  );
  if (!cleanedUp) o.log?.(`could not delete the throwaway vhost ${vhost}: delete it by hand\n`);
  const queues = design.topology.queues.map((q) => {
    const d = result.samples.depth.get(q.name) ?? [];
    let peak = 0;
    let at = 0;
    d.forEach((x, i) => {
      if (x > peak) [peak, at] = [x, result.samples.t[i]!];
    });
    const memory = result.queueMemory.get(q.name);
    return {
      name: q.name,
      peakDepth: peak,
      peakAtMs: at,
      ...(memory !== undefined ? { peakMemoryBytes: memory } : {}),
      series: { t: result.samples.t, depth: d },
    };
  });
  const m = result;
  const dropped = Math.max(0, m.messages - m.acked - m.parked - m.inFlight);
  const starts = resolved.consumerOutages.map((x) => x.startMs);
  const ends = resolved.consumerOutages.map((x) => x.endMs);
  return {
    messages: m.messages,
    outcomes: { acked: m.acked, parked: m.parked, parkedIn: m.parkedIn, dropped, expired: 0, inFlight: m.inFlight },
    deliveries: m.deliveries,
    amplification: m.messages > 0 ? Math.round((m.deliveries / m.messages) * 1000) / 1000 : 0,
    delayMs: m.delays.percentiles(),
    drainMs: ends.length === 0 ? 0 : measuredDrainMs(m.samples, m.retryQueues, Math.min(...starts), Math.max(...ends)),
    queues,
    ...(result.node ? { node: result.node } : {}),
    wallMs: Math.round(performance.now() - started),
    url: redactUrl(target.url),
    brokerVersion: target.version,
  };
}

interface RunResult {
  readonly messages: number;
  readonly acked: number;
  readonly parked: number;
  readonly parkedIn: Record<string, number>;
  readonly inFlight: number;
  readonly deliveries: number;
  readonly delays: DelayRecorder;
  readonly samples: DepthProbe['samples'];
  readonly retryQueues: string[];
  readonly node?: MeasuredNode;
  readonly queueMemory: ReadonlyMap<string, number>;
}

async function runIn(
  vhost: string,
  target: VerifyTarget,
  design: Design,
  load: RehearsalLoad,
  o: VerifyOptions,
): Promise<RunResult> {
  const r = resolveLoad(design, load);
  if (!r.ok) throw new Error('unreachable: the load was checked');
  const resolved = r.resolved;
  const conn = new ManagedConnection(withVhost(target.url, vhost), 'cli', { label: 'rehearse' });
  const workers: LoadWorker[] = [];
  let probe: DepthProbe | undefined;
  // a lost connection (a broker gone silent: two missed heartbeats) ends the run with its reason
  const lost = conn.whenLost();
  let lostError: Error | undefined;
  lost.catch((e: Error) => (lostError = e));
  let resources: ResourceProbe | undefined;
  try {
    await conn.start();
    await declareTopology(conn, design.topology);
    for (const p of design.topology.policies ?? []) await declarePolicy(target.management, vhost, p);
    // a policy takes effect on the queues a moment after it is set
    if ((design.topology.policies ?? []).length > 0) await sleep(1000);
    let t0 = 0;
    const now = (): number => performance.now() - t0;
    const sentAt = new Map<number, number>();
    const delays = new DelayRecorder();
    let acked = 0;
    let deliveries = 0;
    const run: LoadRun = {
      seed: resolved.seed,
      now,
      attempts: new Map(),
      working: new Map(),
      onDelivered: () => void deliveries++,
      onSucceeded: (ordinal, t) => {
        acked++;
        const s = sentAt.get(ordinal);
        if (s !== undefined) delays.add(Math.round(t - s), 1);
      },
      onError: (line) => o.log?.(`${line}\n`),
    };
    for (const c of design.consumers) workers.push(new LoadWorker(c, resolved.consumers.get(c.id), run));
    for (const w of workers) await w.start(conn);
    const names = design.topology.queues.map((q) => q.name);
    const consumed = new Set(design.consumers.map((c) => c.queue));
    const parking = new Set(Object.keys(o.predicted.outcomes.parkedIn));
    const retryQueues = names.filter((q) => !parking.has(q));
    probe = new DepthProbe(names, run.working, now);
    const node = (await target.management.nodes()).find((n) => n.running)?.name;
    t0 = performance.now();
    await probe.start(conn);
    if (node) {
      resources = new ResourceProbe(target.management, node, vhost, now);
      resources.start();
    }
    const pub = await conn.createConfirmChannel();
    o.log?.(
      `rehearsing on ${redactUrl(target.url)} (RabbitMQ ${target.version}), vhost ${vhost}: ${Math.round(load.durationMs / 1000)} s of load\n`,
    );
    const messages = await Promise.race([
      publishArrivals(pub, resolved.publisher, arrivalSegments(load), now, sentAt, resolved.bodyBytes),
      lost,
    ]);
    await pub.close().catch(() => undefined);
    // follow the broker until the retry queues stay empty (or well past the predicted end)
    const deadline = Math.max(load.durationMs, o.predicted.endMs) + GRACE_MS;
    let quietSince: number | undefined;
    let last = new Map<string, number>();
    while (now() < deadline) {
      await sleep(250);
      last = await Promise.race([probe.sample(), lost]);
      if (last.size === 0) continue;
      const busy = retryQueues.some((q) => (last.get(q) ?? 0) > 0);
      if (busy) quietSince = undefined;
      else if (quietSince === undefined) quietSince = now();
      else if (now() - quietSince >= QUIET_MS) break;
    }
    await probe.stop();
    const measuredNode = await resources?.stop();
    for (const w of workers) await w.stop();
    const final = await readDepths(conn, names);
    const parkedIn: Record<string, number> = {};
    let parked = 0;
    let inFlight = 0;
    for (const q of names) {
      const n = final.get(q) ?? 0;
      if (n === 0) continue;
      if (consumed.has(q) || !parking.has(q)) inFlight += n;
      else {
        parkedIn[q] = n;
        parked += n;
      }
    }
    return {
      messages,
      acked,
      parked,
      parkedIn,
      inFlight,
      deliveries,
      delays,
      samples: probe.samples,
      retryQueues,
      ...(measuredNode ? { node: measuredNode } : {}),
      queueMemory: resources?.queuePeaks ?? new Map(),
    };
  } catch (e) {
    // a channel's "Channel ended" comes before the connection's loss is told: say the loss
    await new Promise((r) => setImmediate(r));
    throw lostError ?? e;
  } finally {
    await probe?.stop().catch(() => undefined);
    await resources?.stop().catch(() => undefined);
    for (const w of workers) await w.stop().catch(() => undefined);
    await conn.close().catch(() => undefined);
  }
}

/** the ready count of each queue once the workers are gone (their unacked deliveries returned) */
async function readDepths(conn: ManagedConnection, names: readonly string[]): Promise<Map<string, number>> {
  const ch = await conn.createChannel();
  try {
    const out = new Map<string, number>();
    for (const q of names) out.set(q, (await ch.checkQueue(q)).messageCount);
    return out;
  } finally {
    await ch.close().catch(() => undefined);
  }
}
