/**
 * The trace's routing side: turns what the broker shows (observed copies at the mirrors,
 * mandatory returns) and what it is certain to do unseen (hops through the default exchange,
 * dead letters routed nowhere, expiries where nothing can observe them) into events, with the
 * broker's own topology (`readBrokerTopology`), not the design.
 *
 * Lanes: each observation queue is one ordered stream (`obs:<queue>`); a worker's calls carry its lane.
 * A message's copies through one exchange may come from different queues (the mirror's shards):
 * the accounting orders them by cause (a pass needs the death or publish before it).
 */
import type { ConsumeMessage } from 'amqplib';
import { type AmqpTable, type BrokerProfileId, type XDeathEntry } from '@retry-studio/topology-core/model';
import { compileExchanges, route, type ExchangeIndex } from '@retry-studio/topology-core/routing';
import {
  profileFor,
  streamDropsDeadLetter,
  queueConfig,
  type PublishOrigin,
  type QueueConfig,
} from '@retry-studio/topology-core/sim';
import type { CopyStart, Lane } from './accounting.js';
import type { BrokerTopology } from './brokerTopology.js';
import { headersForDisplay, xDeathOf } from '../broker/index.js';
import { MSG_HEADER, TRACE_HEADER, type ObservedCopy } from './observer.js';
import { InferredPasses } from './inferredPasses.js';
import { RecentKeys } from './recentKeys.js';
import type { EventInput } from './traceContext.js';

export interface HopSink {
  readonly traceId: string;
  back(name: string): string;
  now(): number;
  emit(lane: Lane, e: EventInput, opts?: { rxAt?: number; start?: CopyStart }): void;
}

export interface ReturnedMessage {
  readonly fields: { exchange: string; routingKey: string };
  readonly properties: { headers?: Record<string, unknown> };
  readonly content: Buffer;
}

const ROUTE_OPTS = { strictHeaders: false, delayDone: true } as const;

export class HopReporter {
  private readonly index: ExchangeIndex;
  private readonly queues = new Map<string, QueueConfig>();
  private readonly profile: ReturnType<typeof profileFor>;
  private readonly republishMarks = new Map<string, number>();
  /** per mark, oldest first: the BCC keys of each client publish (the broker strips BCC from the copies, so no mirror sees them) */
  private readonly bccOf = new Map<string, (readonly string[])[]>();
  private readonly expiryTimers = new Set<NodeJS.Timeout>();
  /** copies handled, to skip one redelivered after a reconnect (its ack was lost) or a dead letter sent twice; bounded */
  private readonly copiesSeen = new RecentKeys();
  /** passes reported from a delivery, their copies not yet come */
  private readonly inferred = new InferredPasses();
  /** the depth each queue had at the last sample (for `enqueued.depth`) */
  readonly depths = new Map<string, number>();

  constructor(
    /** the broker's topology (real names) */
    readonly topology: BrokerTopology,
    profile: BrokerProfileId | undefined,
    /** exchanges with an observation mirror (real names) */
    private readonly mirrored: ReadonlySet<string>,
    /** queues a worker consumes (real names) */
    private readonly consumed: ReadonlySet<string>,
    private readonly sink: HopSink,
  ) {
    this.index = compileExchanges(topology, []);
    const p = (this.profile = profileFor(profile));
    for (const q of topology.queues)
      this.queues.set(q.name, queueConfig(q, topology.policies, p, topology.operatorPolicies, topology.policyPins));
  }

  /** the queue's effective TTL (arguments and policy), real name */
  ttlOf(realQueue: string): number | undefined {
    return this.queues.get(realQueue)?.ttl;
  }

  private back = (n: string): string => this.sink.back(n);

  // ---------------------------------------------------------------- client publishes

  /** Before a client publish: hops through the default exchange are not observable; a mirrored exchange's copy is a publish, not a death. */
  beforePublish(
    lane: Lane,
    msgId: string,
    body: string,
    realExchange: string,
    routingKey: string,
    expiration?: string,
    headers?: Readonly<Record<string, unknown>>,
  ): void {
    this.markPublish(msgId, realExchange, headers);
    this.publishSent(lane, msgId, body, realExchange, routingKey, expiration);
  }

  /** Before a client publish through a mirrored exchange: its copy is a publish, not a dead letter again. */
  markPublish(msgId: string, realExchange: string, headers?: Readonly<Record<string, unknown>>): void {
    if (realExchange === '' || !this.mirrored.has(realExchange)) return;
    const mark = `${msgId}|${realExchange}`;
    this.republishMarks.set(mark, (this.republishMarks.get(mark) ?? 0) + 1);
    const bcc = headers?.BCC;
    const list = this.bccOf.get(mark);
    const keys = Array.isArray(bcc) ? bcc.map(String) : [];
    if (list) list.push(keys);
    else this.bccOf.set(mark, [keys]);
  }

  /**
   * A client publish the broker has (a worker's republish once confirmed: one whose confirm went
   * with its channel may never have reached the broker): a hop through the default exchange, which
   * no mirror sees, is reported as the broker routes it.
   */
  publishSent(
    lane: Lane,
    msgId: string,
    body: string,
    realExchange: string,
    routingKey: string,
    expiration?: string,
  ): void {
    if (realExchange === '') this.defaultExchangeHop(lane, msgId, body, routingKey, expiration, 'publish');
  }

  /** A mandatory return: no exchange on the way matched, so no mirror saw it. */
  onReturn(lane: Lane, msg: ReturnedMessage, origin: PublishOrigin, mandatoryWanted: boolean): void {
    const headers = headersForDisplay(msg.properties.headers);
    if (headers[TRACE_HEADER] !== this.sink.traceId) return;
    const msgId = String(headers[MSG_HEADER] ?? '');
    const body = msg.content.toString('utf8', 0, 1024);
    const exchange = this.back(msg.fields.exchange);
    const hops = route(
      this.index,
      msg.fields.exchange,
      { routingKeys: [msg.fields.routingKey], headers, xDeath: undefined },
      ROUTE_OPTS,
    ).hops;
    let first = true;
    for (const h of hops.length ? hops : [{ exchange: msg.fields.exchange, queues: [], exchanges: [] as string[] }]) {
      this.sink.emit(
        lane,
        {
          kind: 'routed',
          msgId,
          body,
          exchange: this.back(h.exchange),
          routingKeys: [msg.fields.routingKey],
          queues: [],
          exchanges: h.exchanges.map(this.back),
          ...('alternateOf' in h && h.alternateOf !== undefined ? { alternateOf: this.back(h.alternateOf) } : {}),
        },
        first ? { start: 'publish' } : {},
      );
      first = false;
    }
    this.sink.emit(lane, { kind: 'unroutable', msgId, body, exchange, routingKeys: [msg.fields.routingKey] });
    if (origin.kind === 'publisher' && mandatoryWanted)
      this.sink.emit(lane, {
        kind: 'returned',
        msgId,
        body,
        exchange,
        routingKey: msg.fields.exchange === '' ? this.back(msg.fields.routingKey) : msg.fields.routingKey,
        replyCode: 312,
      });
    this.sink.emit(lane, { kind: 'dropped', msgId, body, why: 'no-route', exchange });
  }

  // ---------------------------------------------------------------- dead letters

  /** After basic.reject (no requeue): report the death when nothing can observe it. */
  afterReject(lane: Lane, msgId: string, body: string, realQueue: string, routingKeys: readonly string[]): void {
    this.unobservedDeath(lane, msgId, body, realQueue, 'rejected', routingKeys, undefined);
  }

  /**
   * A death whose dead-letter copy no mirror will see: no DLX, a missing DLX, the default
   * exchange, or a DLX that routes it nowhere on the broker. Returns false when a mirror will.
   */
  private unobservedDeath(
    lane: Lane,
    msgId: string,
    body: string,
    realQueue: string,
    reason: 'rejected' | 'expired',
    routingKeys: readonly string[],
    expiration: string | undefined,
  ): boolean {
    const cfg = this.queues.get(realQueue);
    const queue = this.back(realQueue);
    const dlx = cfg?.dlx;
    const keys = cfg?.dlrk !== undefined ? [cfg.dlrk] : [...routingKeys];
    if (dlx === undefined) {
      if (reason === 'expired') this.sink.emit(lane, { kind: 'expired', msgId, body, queue });
      this.sink.emit(lane, { kind: 'dropped', msgId, body, why: 'no-dlx', queue });
      return true;
    }
    if (dlx !== '' && !this.index.exchanges.has(dlx)) {
      if (reason === 'expired') this.sink.emit(lane, { kind: 'expired', msgId, body, queue });
      this.sink.emit(lane, { kind: 'dropped', msgId, body, why: 'missing-dlx', queue, exchange: this.back(dlx) });
      return true;
    }
    if (dlx !== '') {
      const r = route(this.index, dlx, { routingKeys: keys, headers: {}, xDeath: undefined }, ROUTE_OPTS);
      if (r.hops.some((h) => h.queues.length > 0 || h.exchanges.length > 0)) return false;
    }
    if (reason === 'expired') this.sink.emit(lane, { kind: 'expired', msgId, body, queue });
    this.sink.emit(lane, {
      kind: 'dead-lettered',
      msgId,
      body,
      queue,
      reason,
      exchange: this.back(dlx),
      routingKeys: keys.map((k) => (dlx === '' ? this.back(k) : k)),
    });
    if (dlx === '') this.defaultExchangeHop(lane, msgId, body, keys[0] ?? '', expiration, 'dead-letter');
    else {
      this.sink.emit(
        lane,
        { kind: 'routed', msgId, body, exchange: this.back(dlx), routingKeys: keys, queues: [], exchanges: [] },
        { start: 'dead-letter' },
      );
      this.sink.emit(lane, { kind: 'unroutable', msgId, body, exchange: this.back(dlx), routingKeys: keys });
      this.sink.emit(lane, { kind: 'dropped', msgId, body, why: 'no-route', exchange: this.back(dlx) });
    }
    return true;
  }

  private reportObservedDeath(
    lane: Lane,
    msgId: string,
    body: string,
    d: XDeathEntry,
    dlx: string,
    routingKey: string,
    rxAt: number,
  ): void {
    const queue = this.back(d.queue);
    if (d.reason === 'expired') this.sink.emit(lane, { kind: 'expired', msgId, body, queue }, { rxAt });
    this.sink.emit(
      lane,
      {
        kind: 'dead-lettered',
        msgId,
        body,
        queue,
        reason: d.reason,
        exchange: this.back(dlx),
        routingKeys: [routingKey],
      },
      { rxAt },
    );
  }

  // ---------------------------------------------------------------- observation

  private defaultExchangeHop(
    lane: Lane,
    msgId: string,
    body: string,
    routingKey: string,
    expiration: string | undefined,
    start: CopyStart,
  ): void {
    const exists = this.index.queues.has(routingKey);
    const q = this.back(routingKey);
    this.sink.emit(
      lane,
      { kind: 'routed', msgId, body, exchange: '', routingKeys: [q], queues: exists ? [q] : [], exchanges: [] },
      { start },
    );
    if (exists) this.enqueue(lane, msgId, body, routingKey, expiration, [routingKey]);
    else {
      this.sink.emit(lane, { kind: 'unroutable', msgId, body, exchange: '', routingKeys: [q] });
      this.sink.emit(lane, { kind: 'dropped', msgId, body, why: 'no-route', exchange: '' });
    }
  }

  private enqueue(
    lane: Lane,
    msgId: string,
    body: string,
    realQueue: string,
    expiration: string | undefined,
    routingKeys: readonly string[],
    rxAt?: number,
  ): void {
    let ttl = this.ttlOf(realQueue);
    // a stream expires nothing: a message's own expiration is kept, not applied
    if (expiration !== undefined && /^\d+$/.test(expiration) && !this.queues.get(realQueue)?.stream)
      ttl = ttl === undefined ? Number(expiration) : Math.min(ttl, Number(expiration));
    const depth = this.depths.get(realQueue) ?? 0;
    this.sink.emit(
      lane,
      {
        kind: 'enqueued',
        msgId,
        body,
        queue: this.back(realQueue),
        depth: depth + 1,
        ...(ttl !== undefined ? { expiresAt: this.sink.now() + ttl } : {}),
      },
      rxAt !== undefined ? { rxAt } : {},
    );
    // nobody consumes it and its expiry will not pass a mirror: report it when it happens
    if (ttl !== undefined && !this.consumed.has(realQueue) && this.willExpireUnseen(realQueue, routingKeys)) {
      const timer = setTimeout(() => {
        this.expiryTimers.delete(timer);
        this.unobservedDeath(`expiry:${realQueue}`, msgId, body, realQueue, 'expired', routingKeys, undefined);
      }, ttl);
      this.expiryTimers.add(timer);
    }
  }

  private willExpireUnseen(realQueue: string, routingKeys: readonly string[]): boolean {
    const cfg = this.queues.get(realQueue);
    if (cfg?.dlx === undefined || cfg.dlx === '' || !this.index.exchanges.has(cfg.dlx)) return true;
    const keys = cfg.dlrk !== undefined ? [cfg.dlrk] : [...routingKeys];
    return !route(this.index, cfg.dlx, { routingKeys: keys, headers: {}, xDeath: undefined }, ROUTE_OPTS).hops.some(
      (h) => h.queues.length > 0 || h.exchanges.length > 0,
    );
  }

  /** A copy observed at the mirror of `c.exchange`. */
  onCopy(c: ObservedCopy): void {
    this.pass(c, undefined);
  }

  /**
   * A worker's delivery from `realQueue` whose pass through its entry exchange (`c.exchange`, a
   * mirrored exchange whose shard `c.mirror` will see the copy) was not observed yet: the pass is
   * reported now, from the delivery (same exchange, routing key and headers as the copy), when that
   * exchange routed it straight to the queue; its copy, when it comes, is let go (inferredPasses.ts).
   * False (nothing reported) when the exchange did not route it there itself.
   */
  passBeforeCopy(c: ObservedCopy, realQueue: string): boolean {
    return this.pass(c, realQueue);
  }

  private routesStraightTo(exchange: string, keys: string[], headers: AmqpTable, realQueue: string): boolean {
    const { 'x-death': _xd, ...plain } = headers;
    const hop = route(this.index, exchange, { routingKeys: keys, headers: plain, xDeath: undefined }, ROUTE_OPTS)
      .hops[0];
    return hop !== undefined && hop.exchange === exchange && hop.queues.includes(realQueue);
  }

  /** a pass through `c.exchange`: from its copy at the mirror, or (`deliveredFrom`) from a delivery out of that queue */
  private pass(c: ObservedCopy, deliveredFrom: string | undefined): boolean {
    const lane = `obs:${c.mirror}`;
    const msg: ConsumeMessage = c.msg;
    const headers = headersForDisplay(msg.properties.headers);
    const msgId = String(headers[MSG_HEADER] ?? '');
    // one copy: where it passed, and how many deaths it had (a loop passes the same exchange again with more)
    const deathList = xDeathOf(headers);
    const deaths = deathList ? deathList.map((d) => `${d.queue}:${d.reason}:${d.count}`).join(',') : '';
    const seen = `${c.exchange}|${msg.fields.exchange}|${msg.fields.routingKey}|${msgId}|${deaths}`;
    // the copy of a pass a delivery already showed
    if (deliveredFrom === undefined && this.inferred.take(seen)) return false;
    // a dead letter seen before with the same deaths, from a queue that dead-letters at least once, was
    // sent twice by the broker (after a lost confirm); it is one pass: the parking queue's surplus counts
    // it. Elsewhere it is a second message: a test publish sent again after its confirm was lost
    const lastDeath = deathList?.[0];
    const deadLetterAgain =
      lastDeath !== undefined &&
      this.queues.get(lastDeath.queue)?.atLeastOnce === true &&
      !((this.republishMarks.get(`${msgId}|${msg.fields.exchange}`) ?? 0) > 0);
    if ((msg.fields.redelivered || deadLetterAgain) && this.copiesSeen.has(seen)) return false;
    const cc = Array.isArray(headers.CC) ? (headers.CC as unknown[]).map(String) : [];
    if (deliveredFrom !== undefined) {
      if (!this.routesStraightTo(c.exchange, [msg.fields.routingKey, ...cc], headers, deliveredFrom)) return false;
      this.inferred.add(seen);
    }
    this.copiesSeen.add(seen);
    const body = msg.content.toString('utf8', 0, 1024);
    const entry = msg.fields.exchange;
    let start: CopyStart | undefined;
    let bcc: readonly string[] = [];
    /** the queue it died in, when this copy is a dead letter on its way out of it */
    let deadLetterSource: QueueConfig | undefined;
    // a copy whose entry exchange is this one: a client publish (marked before it) or a dead letter
    if (entry === c.exchange) {
      const mark = `${msgId}|${entry}`;
      const n = this.republishMarks.get(mark) ?? 0;
      if (n > 0) {
        this.republishMarks.set(mark, n - 1);
        const list = this.bccOf.get(mark);
        bcc = list?.shift() ?? [];
        if (list?.length === 0) this.bccOf.delete(mark);
        start = 'publish';
      } else {
        const d = lastDeath;
        if (d) {
          this.reportObservedDeath(lane, msgId, body, d, entry, msg.fields.routingKey, c.rxAt);
          start = 'dead-letter';
          deadLetterSource = this.queues.get(d.queue);
        } else start = 'publish';
      }
    }
    const { 'x-death': xd, ...plain } = headers;
    const keys = [msg.fields.routingKey, ...cc, ...bcc];
    const r = route(
      this.index,
      entry,
      { routingKeys: keys, headers: plain, xDeath: xd ? deathList : undefined },
      ROUTE_OPTS,
    );
    let hop = r.hops.find((h) => h.exchange === c.exchange);
    if (!hop)
      hop = route(this.index, c.exchange, { routingKeys: keys, headers: plain, xDeath: undefined }, ROUTE_OPTS).hops[0];
    if (!hop) return false;
    const opts = (s: CopyStart | undefined) => ({ rxAt: c.rxAt, ...(s ? { start: s } : {}) });
    // the exchange it is the alternate of matched nothing, so its mirror saw nothing: report that hop here
    if (hop.alternateOf !== undefined) {
      this.sink.emit(
        lane,
        {
          kind: 'routed',
          msgId,
          body,
          exchange: this.back(hop.alternateOf),
          routingKeys: keys,
          queues: [],
          exchanges: [this.back(c.exchange)],
        },
        opts(start ?? 'publish'),
      );
      start = undefined;
    }
    this.sink.emit(
      lane,
      {
        kind: 'routed',
        msgId,
        body,
        exchange: this.back(c.exchange),
        routingKeys: keys,
        queues: hop.queues.map(this.back),
        exchanges: hop.exchanges.map(this.back),
        ...(hop.alternateOf !== undefined ? { alternateOf: this.back(hop.alternateOf) } : {}),
      },
      opts(start),
    );
    for (const q of hop.queues) {
      const target = this.queues.get(q);
      if (deadLetterSource && target && streamDropsDeadLetter(this.profile, target, deadLetterSource))
        this.sink.emit(
          lane,
          {
            kind: 'dropped',
            msgId,
            body,
            why: 'stream-dead-letter',
            queue: this.back(q),
            exchange: this.back(c.exchange),
          },
          { rxAt: c.rxAt },
        );
      else
        this.enqueue(
          lane,
          msgId,
          body,
          q,
          msg.properties.expiration === undefined ? undefined : String(msg.properties.expiration),
          keys,
          c.rxAt,
        );
    }
    return true;
  }

  /** the trace ended: no more inferred expiries */
  stop(): void {
    for (const t of this.expiryTimers) clearTimeout(t);
    this.expiryTimers.clear();
    this.republishMarks.clear();
    this.bccOf.clear();
    this.copiesSeen.clear();
    this.inferred.clear();
  }
}
