/**
 * The consumer part of a migration (a design's declarative consumers; a definitions file has none):
 * - 4.3: basic.nack requeue on a quorum queue with a delivery limit becomes basic.reject requeue
 *   (only a reject counts toward the limit on 4.3);
 * - 3.x -> 4.x: a retry count read from x-death after a client republish is read from a header
 *   of the consumer's own (x-retries), which the republish increments (4.x ignores a client x-death);
 * - 4.3: a worker that republishes to an x-delayed-message exchange routing back to its own queue
 *   requeues with basic.reject on that queue made a quorum queue with delayed retry, its retry
 *   count read from x-delivery-count; the exchange goes when nothing else uses it.
 */
import type { BrokerProfileId } from '../model/design.js';
import type { Condition, ConsumerAction, ConsumerSpec, Counter, Rule, ValueExpr } from '../model/consumer.js';
import type { AmqpTable, Topology } from '../model/definitions.js';
import { queueTypeOf } from '../model/arguments.js';
import { queueConfig } from '../sim/queueConfig.js';
import { profileFor } from '../sim/profiles.js';
import { possibleNumbers } from '../lint/ruleHelpers.js';
import { toQuorum, type MigrationLog } from './migrateTopology.js';

type Republish = Extract<ConsumerAction, { kind: 'republish' }>;

function mapRules(c: ConsumerSpec, f: (r: Rule) => Rule): ConsumerSpec {
  const b = c.behaviour;
  if (b.kind === 'worker') return { ...c, behaviour: { ...b, onFailure: b.onFailure.map(f) } };
  if (b.kind === 'router') return { ...c, behaviour: { ...b, rules: b.rules.map(f) } };
  return c;
}

function mapAction(a: ConsumerAction, f: (a: ConsumerAction) => ConsumerAction): ConsumerAction {
  const m = f(a);
  return m.kind === 'retryInProcess' ? { ...m, recover: mapAction(m.recover, f) } : m;
}

function mapCondition(c: Condition | undefined, f: (k: Counter) => Counter, shift: number): Condition | undefined {
  if (!c || (c.kind !== 'lt' && c.kind !== 'gte')) return c;
  const next = f(c.counter);
  return next === c.counter ? c : { ...c, counter: next, value: c.value + shift };
}

function nackToReject(consumers: ConsumerSpec[], t: Topology, to: BrokerProfileId, log: MigrationLog): ConsumerSpec[] {
  if (!profileFor(to).onlyRejectsCountTowardLimit) return consumers;
  return consumers.map((c) => {
    const q = t.queues.find((x) => x.name === c.queue);
    if (
      !q ||
      queueTypeOf(q.arguments) !== 'quorum' ||
      queueConfig(q, t.policies, profileFor(to)).deliveryLimit === undefined
    )
      return c;
    let changed = false;
    const next = mapRules(c, (r) => ({
      ...r,
      then: mapAction(r.then, (a) => {
        if (a.kind !== 'requeue' || a.via === 'reject') return a;
        changed = true;
        if (a.multiple)
          log.notKept.push(
            `consumer ${c.id}: a nack multiple becomes one basic.reject per message (reject has no multiple)`,
          );
        return { kind: 'requeue', via: 'reject' };
      }),
    }));
    if (changed)
      log.changes.push(
        `consumer ${c.id}: basic.nack requeue -> basic.reject requeue (4.3 counts only rejects toward ${q.name}'s delivery limit)`,
      );
    return next;
  });
}

const RETRIES = 'x-retries';

function xDeathToHeader(
  consumers: ConsumerSpec[],
  from: BrokerProfileId,
  to: BrokerProfileId,
  log: MigrationLog,
): ConsumerSpec[] {
  if (from !== '3.10' || to === '3.10') return consumers;
  return consumers.map((c) => {
    if (!JSON.stringify(c.behaviour).includes('"deathCount"') || !JSON.stringify(c.behaviour).includes('"republish"'))
      return c;
    const retries: Counter = { kind: 'header', name: RETRIES };
    const swap = (k: Counter): Counter => (k.kind === 'deathCount' ? retries : k);
    let curve = false;
    const next = mapRules(c, (r) => {
      const when = mapCondition(r.when, swap, -1);
      const then = mapAction(r.then, (a) => {
        if (a.kind !== 'republish' || a.copyHeaders === false) return a;
        if (
          JSON.stringify(a.headers ?? {}).includes('"deathCount"') ||
          JSON.stringify(a.expiration ?? '').includes('"deathCount"')
        )
          curve = true;
        const inc: ValueExpr = { kind: 'counter', by: retries, add: 1 };
        return { ...a, headers: { ...(a.headers ?? {}), [RETRIES]: inc } } satisfies Republish;
      });
      return { ...r, ...(when ? { when } : {}), then };
    });
    log.changes.push(
      `consumer ${c.id}: counts retries in ${RETRIES} (incremented on each republish) instead of x-death, which 4.x resets for a client-published message`,
    );
    if (curve)
      log.notKept.push(
        `consumer ${c.id}: a delay or header computed from x-death still reads x-death (count 1 on 4.x); rewrite it over ${RETRIES} by hand`,
      );
    return next;
  });
}

/** The delayed-message exchange replaced by quorum delayed retry, where the republish loops back to the consumer's own queue. */
function delayedExchangeToDelayedRetry(
  consumers: ConsumerSpec[],
  topology: Topology,
  to: BrokerProfileId,
  log: MigrationLog,
): { consumers: ConsumerSpec[]; topology: Topology } {
  if (to !== '4.3') return { consumers, topology };
  let t = topology;
  let cs = consumers;
  for (const x of topology.exchanges.filter((e) => e.type === 'x-delayed-message')) {
    const targets = t.bindings.filter((b) => b.source === x.name).map((b) => b.destination);
    const users = cs.filter((c) => JSON.stringify(c.behaviour).includes(`"exchange":${JSON.stringify(x.name)}`));
    const loops = users.filter((c) => targets.length === 1 && targets[0] === c.queue);
    if (users.length === 0 || loops.length !== users.length) {
      const why =
        users.length === 0
          ? 'no consumer in the design republishes through it'
          : "its republish does not come back to the republishing consumer's own queue";
      log.notKept.push(
        `exchange ${x.name}: x-delayed-message is unknown on 4.3 and ${why}: no automatic rewrite (use quorum delayed retry or TTL wait queues by hand)`,
      );
      continue;
    }
    for (const c of loops) {
      const delays: number[] = [];
      let counterHeader: string | undefined;
      const next = mapRules(c, (r) => {
        const then = mapAction(r.then, (a) => {
          if (a.kind !== 'republish' || a.exchange !== x.name) return a;
          delays.push(...possibleNumbers(a.headers?.['x-delay'] as ValueExpr | undefined));
          for (const [h, v] of Object.entries(a.headers ?? {}))
            if (typeof v === 'object' && v !== null && (v as ValueExpr & object).kind === 'counter') counterHeader = h;
          return { kind: 'requeue', via: 'reject' };
        });
        return { ...r, then };
      });
      const swap = (k: Counter): Counter =>
        k.kind === 'header' && k.name === counterHeader ? { kind: 'deliveryCount' } : k;
      const counted = mapRules(next, (r) => {
        const when = mapCondition(r.when, swap, 0);
        return { ...r, ...(when ? { when } : {}) };
      });
      const min = Math.min(...delays.filter((d) => d > 0));
      const max = Math.max(...delays);
      const q = t.queues.find((y) => y.name === c.queue)!;
      const quorum =
        queueTypeOf(q.arguments) === 'quorum' ? q : toQuorum(q, log, `quorum delayed retry replaces ${x.name}`);
      // no delay above 0: no delayed retry (4.3 runs x-delayed-retry-min 0 as disabled anyway: model/delayedRetry.ts)
      const retry: AmqpTable = Number.isFinite(min)
        ? { 'x-delayed-retry-type': 'failed', 'x-delayed-retry-min': min, 'x-delayed-retry-max': max }
        : {};
      const args = { ...(quorum.arguments ?? {}), ...retry, 'x-delivery-limit': -1 };
      t = { ...t, queues: t.queues.map((y) => (y.name === q.name ? { ...quorum, arguments: args } : y)) };
      cs = cs.map((y) => (y.id === c.id ? counted : y));
      log.changes.push(
        `consumer ${c.id}: republish to ${x.name} -> basic.reject requeue on ${q.name} ${Number.isFinite(min) ? ` with quorum delayed retry (min ${min} ms, max ${max} ms)` : ' (no delay: every old x-delay was 0)'}${counterHeader ? `; ${counterHeader} read as x-delivery-count` : ''}`,
      );
      log.notKept.push(
        `queue ${q.name}: quorum delayed retry waits x-delayed-retry-min times the failed deliveries so far (${Number.isFinite(min) ? min : 0} ms, then twice, three times that), capped at ${max} ms; the old delays (${Number.isFinite(min) ? min : 0} to ${max} ms, by the republish's x-delay) are only approximated`,
      );
    }
    t = {
      ...t,
      exchanges: t.exchanges.filter((e) => e.name !== x.name),
      bindings: t.bindings.filter((b) => b.source !== x.name && b.destination !== x.name),
    };
    log.changes.push(`exchange ${x.name}: deleted (x-delayed-message is unknown on 4.3)`);
  }
  return { consumers: cs, topology: t };
}

export function migrateConsumers(
  consumers: readonly ConsumerSpec[],
  topology: Topology,
  from: BrokerProfileId,
  to: BrokerProfileId,
  log: MigrationLog,
): { consumers: ConsumerSpec[]; topology: Topology } {
  const delayed = delayedExchangeToDelayedRetry([...consumers], topology, to, log);
  const rejected = nackToReject(delayed.consumers, delayed.topology, to, log);
  return { consumers: xDeathToHeader(rejected, from, to, log), topology: delayed.topology };
}
