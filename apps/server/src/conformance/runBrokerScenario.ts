/**
 * The broker target: runs one retry-scenario/1 on a live broker, in a fresh vhost (or, without
 * the management API, under a unique name prefix), exactly as the format README says, and
 * returns the normalised observation. Everything goes through the broker layer (src/broker).
 */
import { randomBytes } from 'node:crypto';
import type { Channel, ChannelModel, ConfirmChannel, ConsumeMessage, Message, Options } from 'amqplib';
import type { AmqpValue } from '@retry-studio/topology-core/model';
import type {
  Observed,
  ObservedDelivery,
  ObservedMessage,
  Scenario,
  ScenarioAction,
  ScenarioConsumer,
} from '@retry-studio/topology-core/scenario';
import { BUILTIN_EXCHANGE_TYPES } from '@retry-studio/topology-core/model';
import { DEFAULT_SETTLE_MS, scenarioAction } from '@retry-studio/topology-core/scenario';
import { type AmqpUrl, withVhost } from '../broker/amqpUrl.js';
import { BrokerConnectError, openConnection } from '../broker/connection.js';
import { publishConfirmed } from '../broker/confirmPublish.js';
import { isSettlement, republishThenAck, settleDelivery } from '../broker/settleDelivery.js';
import { ManagementError, type ManagementClient } from '../broker/management.js';
import type { BrokerProbe } from '../broker/probe.js';
import { bodyOf, observeDelivery, observeMessage } from './observeAmqpMessage.js';
import { declarePolicy, declareTopology } from '../deploy/declareTopology.js';
import { prefixScenario, unprefixObserved } from './namePrefix.js';
import { DEFAULT_MAX_RUN_MS, ScenarioUnsettledError } from './unsettled.js';

export type BrokerRunResult =
  | { readonly kind: 'observed'; readonly observed: Observed; readonly isolation: 'vhost' | 'prefix' }
  | { readonly kind: 'unsupported'; readonly reason: string };

export interface BrokerRunOptions {
  readonly url: AmqpUrl;
  readonly probe: BrokerProbe;
  readonly management?: ManagementClient;
  /** no scenario runs longer than this (steps + settle): one that never settles ends with ScenarioUnsettledError */
  readonly maxRunMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Exchange types and features the scenario needs that this broker lacks, or undefined. */
export function missingFeatures(s: Scenario, probe: BrokerProbe): string | undefined {
  const needed = new Set<string>(s.requires ?? []);
  for (const e of s.topology.exchanges) {
    if (!(BUILTIN_EXCHANGE_TYPES as readonly string[]).includes(e.type)) needed.add(e.type);
    const delayedType = e.arguments?.['x-delayed-type'];
    if (typeof delayedType === 'string' && !(BUILTIN_EXCHANGE_TYPES as readonly string[]).includes(delayedType))
      needed.add(delayedType);
  }
  const missing = [...needed].filter((t) => !probe.exchangeTypes.includes(t));
  const quorum = s.topology.queues.some((q) => q.arguments?.['x-queue-type'] === 'quorum');
  const reasons: string[] = [];
  if (missing.length > 0)
    reasons.push(`the broker (${probe.product} ${probe.version}) lacks exchange type(s) ${missing.join(', ')}`);
  if (quorum && !probe.quorum) reasons.push('the broker does not support quorum queues');
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}

/**
 * Headers for a republished copy: the delivered headers as amqplib decoded them, with x-death
 * counts re-typed as AMQP longs (as the broker wrote them), merged with the action's headers.
 */
function republishHeaders(m: Message, extra: { readonly [k: string]: AmqpValue } | undefined): Record<string, unknown> {
  const h: Record<string, unknown> = { ...((m.properties.headers as Record<string, unknown> | undefined) ?? {}) };
  const xd = h['x-death'];
  if (Array.isArray(xd)) {
    h['x-death'] = xd.map((e: Record<string, unknown>) =>
      typeof e.count === 'number' ? { ...e, count: { '!': 'long', value: e.count } } : e,
    );
  }
  return { ...h, ...(extra ?? {}) };
}

interface Activity {
  last: number;
  inFlight: number;
  errors: string[];
  /** bodies whose publish the broker nacked, a step's or a consumer's republish, in the order seen (as the simulator lists them) */
  nacked: string[];
}

class ScenarioConsumerRun {
  private readonly seen = new Map<string, number>();
  private chain: Promise<void> = Promise.resolve();
  private ch: Channel | undefined;
  private pub: ConfirmChannel | undefined;
  private tag: string | undefined;

  constructor(
    private readonly spec: ScenarioConsumer,
    private readonly conn: ChannelModel,
    private readonly deliveries: ObservedDelivery[],
    private readonly activity: Activity,
  ) {}

  async start(): Promise<void> {
    const ch = await this.conn.createChannel();
    ch.on('error', (err: Error) => this.activity.errors.push(`consumer on '${this.spec.queue}': ${err.message}`));
    this.ch = ch;
    this.pub = await this.conn.createConfirmChannel();
    this.pub.on('error', (err: Error) =>
      this.activity.errors.push(`republish from '${this.spec.queue}': ${err.message}`),
    );
    await ch.prefetch(this.spec.prefetch ?? 1);
    const offset = this.spec.offset;
    const ok = await ch.consume(this.spec.queue, (m) => this.onMessage(m), {
      noAck: false,
      ...(offset !== undefined ? { arguments: { 'x-stream-offset': offset } } : {}),
    });
    this.tag = ok.consumerTag;
    this.activity.last = Date.now();
  }

  private onMessage(m: ConsumeMessage | null): void {
    if (!m) {
      this.activity.errors.push(`consumer on '${this.spec.queue}' was cancelled by the broker`);
      return;
    }
    this.activity.last = Date.now();
    this.activity.inFlight += 1;
    this.deliveries.push(observeDelivery(m));
    const body = bodyOf(m);
    const i = this.seen.get(body) ?? 0;
    this.seen.set(body, i + 1);
    const actions = this.spec.actions;
    const action = actions[Math.min(i, actions.length - 1)]!;
    this.chain = this.chain
      .then(() => this.act(m, action))
      .catch((err: unknown) => {
        this.activity.errors.push(`consumer on '${this.spec.queue}': ${(err as Error).message}`);
      })
      .finally(() => {
        this.activity.inFlight -= 1;
        this.activity.last = Date.now();
      });
  }

  private async act(m: ConsumeMessage, action: ScenarioAction): Promise<void> {
    const ch = this.ch!;
    const settling = scenarioAction(action);
    if (isSettlement(settling)) return settleDelivery(ch, m, settling);
    // held deliveries stay unacked on this channel until a multiple settles them (or stop() closes it)
    if (typeof action === 'string') return;
    const r = action.republish;
    const delivered = (m.properties.headers ?? {}) as Record<string, unknown>;
    let routingKey = m.fields.routingKey;
    if (r.routing_key !== undefined) routingKey = r.routing_key;
    else if (r.routing_key_from_header !== undefined && delivered[r.routing_key_from_header] !== undefined) {
      const v = delivered[r.routing_key_from_header];
      routingKey = Buffer.isBuffer(v) ? v.toString('utf8') : String(v);
    }
    // as the reference recorder does: every header copied, persistent, confirm awaited, then the ack
    // (the original stays unacked until the copy is written: 4.3 shows it, rabbitmq-4.3.md)
    const props: Options.Publish = { headers: republishHeaders(m, r.headers), persistent: true };
    if (r.expiration !== undefined) props.expiration = String(r.expiration);
    this.activity.last = Date.now();
    const { outcome } = await republishThenAck(this.pub!, ch, m, {
      exchange: r.exchange,
      routingKey,
      properties: props,
    });
    if (outcome === 'nacked') this.activity.nacked.push(bodyOf(m));
    this.activity.last = Date.now();
  }

  async stop(): Promise<void> {
    await this.chain;
    if (this.ch && this.tag) await this.ch.cancel(this.tag).catch(() => undefined);
    await this.chain;
    await this.ch?.close().catch(() => undefined);
    await this.pub?.close().catch(() => undefined);
  }
}

/** How long a stream reader waits for the first message, and then for the next one, before it has caught up. */
const STREAM_FIRST_WAIT_MS = 1500;
const STREAM_IDLE_MS = 400;
const STREAM_PREFETCH = 100;

/**
 * A stream refuses basic.get (540 NOT_IMPLEMENTED) and reports no message count in
 * queue.declare-ok: it is read with a consumer from offset `first` (prefetch 100, each delivery
 * acked, which removes nothing) until no delivery comes for STREAM_IDLE_MS (the first within
 * STREAM_FIRST_WAIT_MS). Every run's steps are confirmed and settled first, so the log is complete.
 */
async function readStream(conn: ChannelModel, queue: string): Promise<ObservedMessage[]> {
  const ch = await conn.createChannel();
  const out: ObservedMessage[] = [];
  let failed: Error | undefined;
  ch.on('error', (err: Error) => (failed = err));
  try {
    await ch.prefetch(STREAM_PREFETCH);
    await new Promise<void>((resolve, reject) => {
      let idle = setTimeout(resolve, STREAM_FIRST_WAIT_MS);
      ch.once('close', () => (failed ? reject(failed) : resolve()));
      ch.consume(
        queue,
        (m) => {
          if (!m) return resolve();
          out.push(observeMessage(m));
          ch.ack(m);
          clearTimeout(idle);
          idle = setTimeout(resolve, STREAM_IDLE_MS);
        },
        { noAck: false, arguments: { 'x-stream-offset': 'first' } },
      ).catch(reject);
    });
  } finally {
    await ch.close().catch(() => undefined);
  }
  return out;
}

/**
 * basic.get every queue until empty; repeat passes while a pass found something (TTL expiry
 * during the drain moves messages). A queue that is gone (x-expires, auto-delete) closes the
 * channel with 404: it is skipped on a fresh channel.
 */
async function drainAll(conn: ChannelModel, queues: readonly string[]): Promise<Record<string, ObservedMessage[]>> {
  const final: Record<string, ObservedMessage[]> = {};
  const gone = new Set<string>();
  const open = async (): Promise<Channel> => {
    const c = await conn.createChannel();
    c.on('error', () => undefined);
    return c;
  };
  let ch = await open();
  try {
    for (let pass = 0; pass < 5; pass++) {
      let found = 0;
      for (const q of queues) {
        if (gone.has(q)) continue;
        for (;;) {
          let m: Message | false;
          try {
            m = await ch.get(q, { noAck: true });
          } catch {
            gone.add(q);
            ch = await open();
            break;
          }
          if (m === false) break;
          found += 1;
          (final[q] ??= []).push(observeMessage(m));
        }
      }
      if (found === 0) break;
      await sleep(50);
    }
  } finally {
    await ch.close().catch(() => undefined);
  }
  return final;
}

/**
 * A vhost just created over HTTP can take a moment before it accepts connections, and a broker
 * that was probed a moment ago may be restarting: retry briefly (the probe has already failed
 * fast when the broker was never there).
 */
async function openForRun(url: AmqpUrl): Promise<ChannelModel> {
  const until = Date.now() + 30_000;
  for (let attempt = 1; ; attempt++) {
    try {
      return await openConnection(url, { purpose: 'conformance' });
    } catch (err) {
      const retriable =
        err instanceof BrokerConnectError &&
        (err.kind === 'vhost' ? attempt < 10 : err.kind === 'unreachable' && Date.now() < until);
      if (!retriable) throw err;
      await sleep(Math.min(1000, 100 * attempt));
    }
  }
}

/** declares the scenario's policies (our extension: the runner sets them over the management API, before the queues) */
type PolicySetter = (s: Scenario) => Promise<void>;

async function runIn(url: AmqpUrl, s: Scenario, maxRunMs: number, setPolicies?: PolicySetter): Promise<Observed> {
  const conn = await openForRun(url);
  const activity: Activity = { last: Date.now(), inFlight: 0, errors: [], nacked: [] };
  let connectionError: string | undefined;
  conn.on('close', (err?: Error) => {
    if (err) connectionError = err.message;
  });
  const consumers: ScenarioConsumerRun[] = [];
  try {
    // a queue takes the policies in force when it is declared: they go first
    await setPolicies?.(s);
    await declareTopology(conn, s.topology);
    const deliveries: Record<string, ObservedDelivery[]> = {};
    for (const c of s.consumers) {
      const list = (deliveries[c.queue] ??= []);
      consumers.push(new ScenarioConsumerRun(c, conn, list, activity));
    }
    const startConsumers = async (): Promise<void> => {
      for (const c of consumers) await c.start();
    };
    if ((s.start_consumers ?? 'before') === 'before') await startConsumers();

    const publisher = await conn.createConfirmChannel();
    publisher.on('error', (err: Error) => activity.errors.push(`publisher: ${err.message}`));
    const returned: string[] = [];
    const nacked = activity.nacked;
    publisher.on('return', (m: Message) => returned.push(bodyOf(m)));
    const deadline = Date.now() + maxRunMs;
    for (const st of s.steps) {
      if ('wait_ms' in st) {
        await sleep(st.wait_ms);
        continue;
      }
      const p = st.publish;
      const props: Options.Publish = {};
      if (p.properties?.headers) props.headers = { ...p.properties.headers };
      if (p.properties?.expiration !== undefined) props.expiration = String(p.properties.expiration);
      if (p.mandatory) props.mandatory = true;
      activity.last = Date.now();
      const outcome = await publishConfirmed(publisher, p.exchange, p.routing_key, Buffer.from(p.body, 'utf8'), props);
      if (outcome === 'nacked') nacked.push(p.body);
      activity.last = Date.now();
    }
    if (s.start_consumers === 'after') await startConsumers();

    const settle = s.settle_ms ?? DEFAULT_SETTLE_MS;
    for (;;) {
      if (connectionError) throw new Error(`the broker closed the connection: ${connectionError}`);
      const quiet = Date.now() - activity.last;
      if (activity.inFlight === 0 && quiet >= settle) break;
      if (Date.now() > deadline) {
        const n = Object.values(deliveries).reduce((k, list) => k + list.length, 0);
        throw new ScenarioUnsettledError(maxRunMs, `${n} deliveries, still delivering`);
      }
      await sleep(Math.max(10, Math.min(50, settle - quiet)));
    }
    for (const c of consumers) await c.stop();
    await publisher.close().catch(() => undefined);
    if (activity.errors.length > 0) throw new Error(activity.errors.join('; '));

    const isStream = (q: Scenario['topology']['queues'][number]): boolean => q.arguments?.['x-queue-type'] === 'stream';
    const final = await drainAll(
      conn,
      s.topology.queues.filter((q) => !isStream(q)).map((q) => q.name),
    );
    for (const q of s.topology.queues.filter(isStream)) {
      const kept = await readStream(conn, q.name);
      if (kept.length > 0) final[q.name] = kept;
    }
    const observed: { -readonly [K in keyof Observed]: Observed[K] } = { deliveries, final };
    if (nacked.length > 0) observed.publish_nacked = nacked;
    if (returned.length > 0) observed.returned = returned;
    return observed;
  } finally {
    await conn.close().catch(() => undefined);
  }
}

/** Creates the run's vhost; while the management API is unreachable (a restart), retries for up to 30 s. */
async function createVhostPatiently(mgmt: ManagementClient, vhost: string): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      return await mgmt.createVhost(vhost);
    } catch (err) {
      if (!(err instanceof ManagementError && err.status === undefined && Date.now() < until)) throw err;
      await sleep(500);
    }
  }
}

function isolationName(s: Scenario): string {
  const slug = s.name.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(0, 60);
  return `retry-studio-conformance-${slug}-${randomBytes(4).toString('hex')}`;
}

/** Runs one scenario on the broker. Throws (with a clear message) when the run itself fails. */
export async function runBrokerScenario(s: Scenario, o: BrokerRunOptions): Promise<BrokerRunResult> {
  const missing = missingFeatures(s, o.probe);
  if (missing) return { kind: 'unsupported', reason: missing };
  const mgmt = o.management;
  const maxRunMs = o.maxRunMs ?? DEFAULT_MAX_RUN_MS;
  let vhost: string | undefined;
  if (o.probe.management.available && mgmt) {
    vhost = isolationName(s);
    try {
      await createVhostPatiently(mgmt, vhost);
    } catch (err) {
      // a user without the administrator tag may not create vhosts: isolate by prefix instead
      if (!(err instanceof ManagementError && (err.status === 401 || err.status === 403))) throw err;
      vhost = undefined;
    }
  }
  const policies = s.topology.policies ?? [];
  if (vhost !== undefined) {
    const setPolicies = async (): Promise<void> => {
      for (const p of policies)
        await declarePolicy(mgmt!, vhost!, p).catch((err: Error) =>
          Promise.reject(new Error(`declaring policy '${p.name}' failed: ${err.message}`)),
        );
    };
    try {
      return {
        kind: 'observed',
        observed: await runIn(withVhost(o.url, vhost), s, maxRunMs, setPolicies),
        isolation: 'vhost',
      };
    } finally {
      await mgmt?.deleteVhost(vhost).catch(() => undefined);
    }
  }
  // no management API: a unique name prefix in the URL's own vhost, deleted afterwards
  if (policies.length > 0)
    return {
      kind: 'unsupported',
      reason: 'the scenario has policies: they need the management API (a throwaway vhost)',
    };
  const prefix = `${isolationName(s)}.`;
  const prefixed = prefixScenario(s, prefix);
  try {
    const observed = await runIn(o.url, prefixed, maxRunMs);
    return { kind: 'observed', observed: unprefixObserved(observed, prefix), isolation: 'prefix' };
  } finally {
    await deletePrefixed(o.url, prefixed).catch(() => undefined);
  }
}

async function deletePrefixed(url: AmqpUrl, s: Scenario): Promise<void> {
  const conn = await openConnection(url, { purpose: 'conformance' });
  try {
    for (const q of s.topology.queues) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      await ch.deleteQueue(q.name).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
    for (const e of s.topology.exchanges) {
      const ch = await conn.createChannel();
      ch.on('error', () => undefined);
      await ch.deleteExchange(e.name).catch(() => undefined);
      await ch.close().catch(() => undefined);
    }
  } finally {
    await conn.close().catch(() => undefined);
  }
}
