/**
 * Validation of consumer behaviours and failure models inside a design: counters, value
 * expressions, conditions, actions and rules, each with the path of the field it checks.
 */
import { MAX_TTL_MS, checkDelay, checkExpirationString } from './arguments.js';
import { isForbiddenKey, pathIndex, pathKey } from './names.js';
import { DEATH_REASONS, isDeathReason } from './xDeath.js';
import { isPlainObject, type IssueSink } from './validateResult.js';
import { checkTable } from './validateTopology.js';

const COUNTER_KINDS = ['attempt', 'header', 'deathCount', 'deliveryCount', 'held'];

export interface BehaviourCheckContext {
  readonly sink: IssueSink;
  readonly exchanges: ReadonlySet<string>;
  readonly queues: ReadonlySet<string>;
  /** queues declared with x-queue-type stream */
  readonly streams: ReadonlySet<string>;
}

function checkCounter(ctx: BehaviourCheckContext, path: string, c: unknown): void {
  if (!isPlainObject(c) || !COUNTER_KINDS.includes(c.kind as string))
    return ctx.sink.error(
      path,
      'counter-kind',
      `counter must be one of ${COUNTER_KINDS.map((k) => `{kind:'${k}'}`).join(', ')}`,
    );
  if (c.kind === 'header' && (typeof c.name !== 'string' || c.name === ''))
    ctx.sink.error(`${path}.name`, 'field-type', 'header counter needs a header name');
  if (c.kind === 'header' && typeof c.name === 'string' && isForbiddenKey(c.name))
    ctx.sink.error(`${path}.name`, 'forbidden-key', `the key "${c.name}" is not allowed`);
  if (c.kind === 'deathCount') {
    if (c.queue !== undefined && typeof c.queue !== 'string')
      ctx.sink.error(`${path}.queue`, 'field-type', 'queue must be a string');
    if (c.reason !== undefined && !isDeathReason(c.reason))
      ctx.sink.error(`${path}.reason`, 'field-type', `reason must be one of ${DEATH_REASONS.join(', ')}`);
  }
}

export function isNonNegInt(v: unknown, max = Number.MAX_SAFE_INTEGER): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
}

/** A ValueExpr used as an expiration / delay: literal ints in range, or a computed value. */
function checkValueExpr(ctx: BehaviourCheckContext, path: string, v: unknown, as: 'ms' | 'any'): void {
  if (typeof v === 'number') {
    if (as === 'ms' && !isNonNegInt(v, MAX_TTL_MS))
      ctx.sink.error(path, 'ttl-range', `must be an integer between 0 and ${MAX_TTL_MS} ms, got ${v}`);
    return;
  }
  if (typeof v === 'string') {
    if (as === 'ms') {
      const m = checkExpirationString(v);
      if (m) ctx.sink.error(path, 'expiration-format', `expiration ${m}`);
    }
    return;
  }
  if (!isPlainObject(v))
    return ctx.sink.error(
      path,
      'value-expr',
      'must be a number, a string or a value expression {kind: curve|exponential|counter|fromHeader}',
    );
  switch (v.kind) {
    case 'curve':
      if (!Array.isArray(v.values) || v.values.length === 0)
        ctx.sink.error(`${path}.values`, 'field-type', 'curve needs a non-empty array of values');
      else if (as === 'ms')
        v.values.forEach((x, i) => {
          if (!isNonNegInt(x, MAX_TTL_MS))
            ctx.sink.error(
              pathIndex(`${path}.values`, i),
              'ttl-range',
              `must be an integer between 0 and ${MAX_TTL_MS} ms`,
            );
        });
      checkCounter(ctx, `${path}.by`, v.by);
      return;
    case 'exponential':
      for (const k of ['initialMs', 'maxMs'] as const)
        if (!isNonNegInt(v[k], MAX_TTL_MS))
          ctx.sink.error(`${path}.${k}`, 'ttl-range', `${k} must be an integer between 0 and ${MAX_TTL_MS}`);
      if (typeof v.multiplier !== 'number' || !(v.multiplier >= 1) || !Number.isFinite(v.multiplier))
        ctx.sink.error(`${path}.multiplier`, 'field-type', 'multiplier must be a number >= 1');
      checkCounter(ctx, `${path}.by`, v.by);
      return;
    case 'counter':
      checkCounter(ctx, `${path}.by`, v.by);
      if (v.add !== undefined && !(typeof v.add === 'number' && Number.isInteger(v.add)))
        ctx.sink.error(`${path}.add`, 'field-type', 'add must be an integer');
      return;
    case 'fromHeader':
      if (typeof v.name !== 'string') ctx.sink.error(`${path}.name`, 'field-type', 'fromHeader needs a header name');
      return;
    default:
      ctx.sink.error(`${path}.kind`, 'value-expr', `unknown value expression kind ${JSON.stringify(v.kind)}`);
  }
}

function checkCondition(ctx: BehaviourCheckContext, path: string, c: unknown): void {
  if (!isPlainObject(c)) return ctx.sink.error(path, 'condition-kind', 'condition must be an object');
  switch (c.kind) {
    case 'lt':
    case 'gte':
      checkCounter(ctx, `${path}.counter`, c.counter);
      if (typeof c.value !== 'number' || !Number.isFinite(c.value))
        ctx.sink.error(`${path}.value`, 'field-type', 'value must be a number');
      return;
    case 'redelivered':
      if (typeof c.is !== 'boolean') ctx.sink.error(`${path}.is`, 'field-type', 'is must be true or false');
      return;
    case 'hasHeader':
      if (typeof c.name !== 'string') ctx.sink.error(`${path}.name`, 'field-type', 'hasHeader needs a header name');
      if (typeof c.is !== 'boolean') ctx.sink.error(`${path}.is`, 'field-type', 'is must be true or false');
      return;
    default:
      ctx.sink.error(
        `${path}.kind`,
        'condition-kind',
        `condition kind must be lt, gte, redelivered or hasHeader; got ${JSON.stringify(c.kind)}`,
      );
  }
}

export function checkExchangeRef(ctx: BehaviourCheckContext, path: string, name: unknown): void {
  if (typeof name !== 'string')
    return ctx.sink.error(path, 'field-type', 'exchange must be a name ("" for the default exchange)');
  if (name !== '' && !ctx.exchanges.has(name) && !name.startsWith('amq.'))
    ctx.sink.error(path, 'missing-exchange', `exchange "${name}" is not declared in the topology`);
}

function checkAction(ctx: BehaviourCheckContext, path: string, a: unknown, depth = 0): void {
  if (!isPlainObject(a)) return ctx.sink.error(path, 'action-kind', 'action must be an object with a kind');
  switch (a.kind) {
    case 'ack':
    case 'reject':
    case 'requeue':
      if (a.multiple !== undefined && typeof a.multiple !== 'boolean')
        ctx.sink.error(`${path}.multiple`, 'field-type', 'multiple must be true or false');
      // multiple goes out as basic.ack / basic.nack: basic.reject settles one delivery only
      else if (a.multiple === true && a.kind === 'requeue' && a.via === 'reject')
        ctx.sink.error(
          `${path}.multiple`,
          'action-multiple',
          "basic.reject has no multiple flag: use via 'nack' (the default) to requeue several deliveries",
        );
      if (a.multiple === true && depth > 0)
        ctx.sink.error(`${path}.multiple`, 'action-multiple', 'a recoverer settles its own delivery only');
      return;
    case 'discard':
      return;
    case 'defer':
      if (typeof a.ms !== 'number' || !Number.isFinite(a.ms) || a.ms < 0)
        ctx.sink.error(`${path}.ms`, 'field-type', 'ms must be a number of milliseconds >= 0');
      if (isPlainObject(a.then) && (a.then.kind === 'hold' || a.then.kind === 'retryInProcess'))
        ctx.sink.error(
          `${path}.then.kind`,
          'action-kind',
          'a deferred action settles its delivery: not hold or retryInProcess',
        );
      checkAction(ctx, `${path}.then`, a.then, depth + 1);
      return;
    case 'hold':
      if (depth > 0) ctx.sink.error(`${path}.kind`, 'action-kind', 'a recoverer cannot hold its delivery');
      return;
    case 'republish': {
      checkExchangeRef(ctx, `${path}.exchange`, a.exchange);
      if (a.routingKey !== undefined && typeof a.routingKey !== 'string')
        ctx.sink.error(`${path}.routingKey`, 'field-type', 'routingKey must be a string');
      if (a.routingKeyFromHeader !== undefined && typeof a.routingKeyFromHeader !== 'string')
        ctx.sink.error(`${path}.routingKeyFromHeader`, 'field-type', 'routingKeyFromHeader must be a header name');
      if (a.expiration !== undefined) checkValueExpr(ctx, `${path}.expiration`, a.expiration, 'ms');
      if (a.headers !== undefined) {
        if (!isPlainObject(a.headers)) ctx.sink.error(`${path}.headers`, 'table-type', 'headers must be an object');
        else
          for (const [k, v] of Object.entries(a.headers)) {
            const hp = pathKey(`${path}.headers`, k);
            if (isForbiddenKey(k)) {
              ctx.sink.error(hp, 'forbidden-key', `the key "${k}" is not allowed (prototype pollution)`);
              continue;
            }
            if (
              isPlainObject(v) &&
              typeof v.kind === 'string' &&
              ['curve', 'exponential', 'counter', 'fromHeader'].includes(v.kind)
            )
              checkValueExpr(ctx, hp, v, k === 'x-delay' ? 'ms' : 'any');
            else {
              if (isPlainObject(v)) checkTable(ctx.sink, hp, v, 'a nested table');
              if (k === 'x-delay') {
                const m = checkDelay(v);
                if (m) ctx.sink.warn(hp, 'delay-range', m);
              }
            }
          }
      }
      for (const k of ['copyHeaders', 'exceptionHeaders'] as const)
        if (a[k] !== undefined && typeof a[k] !== 'boolean')
          ctx.sink.error(`${path}.${k}`, 'field-type', `${k} must be true or false`);
      return;
    }
    case 'retryInProcess': {
      if (!isNonNegInt(a.maxAttempts) || (a.maxAttempts as number) < 1)
        ctx.sink.error(`${path}.maxAttempts`, 'field-type', 'maxAttempts must be an integer >= 1');
      if (!isPlainObject(a.backoff))
        ctx.sink.error(`${path}.backoff`, 'field-type', 'backoff must be {initialMs, multiplier, maxMs}');
      else {
        for (const k of ['initialMs', 'maxMs'] as const)
          if (!isNonNegInt(a.backoff[k], MAX_TTL_MS))
            ctx.sink.error(`${path}.backoff.${k}`, 'field-type', `${k} must be a non-negative integer (ms)`);
        if (typeof a.backoff.multiplier !== 'number' || !(a.backoff.multiplier >= 1))
          ctx.sink.error(`${path}.backoff.multiplier`, 'field-type', 'multiplier must be >= 1');
        const delays = a.backoff.delaysMs;
        if (
          delays !== undefined &&
          !(Array.isArray(delays) && delays.length > 0 && delays.every((x) => isNonNegInt(x, MAX_TTL_MS)))
        )
          ctx.sink.error(
            `${path}.backoff.delaysMs`,
            'field-type',
            'delaysMs must be a non-empty array of non-negative integers (ms)',
          );
      }
      if (depth > 0) ctx.sink.error(path, 'action-nesting', 'retryInProcess cannot be nested');
      else if (isPlainObject(a.recover) && a.recover.kind === 'retryInProcess')
        ctx.sink.error(`${path}.recover`, 'action-nesting', 'the recoverer cannot itself retry');
      else checkAction(ctx, `${path}.recover`, a.recover, depth + 1);
      return;
    }
    default:
      ctx.sink.error(
        `${path}.kind`,
        'action-kind',
        `action kind must be ack, discard, reject, requeue, hold, defer, republish or retryInProcess; got ${JSON.stringify(a.kind)}`,
      );
  }
}

function checkRules(ctx: BehaviourCheckContext, path: string, rules: unknown): void {
  if (!Array.isArray(rules)) return ctx.sink.error(path, 'field-type', 'rules must be an array of {when?, then}');
  rules.forEach((r, i) => {
    const rp = pathIndex(path, i);
    if (!isPlainObject(r)) return ctx.sink.error(rp, 'field-type', 'rule must be {when?, then}');
    if (r.when !== undefined) checkCondition(ctx, `${rp}.when`, r.when);
    checkAction(ctx, `${rp}.then`, r.then);
  });
  if (rules.length > 0 && rules.every((r) => isPlainObject(r) && r.when !== undefined))
    ctx.sink.warn(path, 'rules-no-fallback', 'every rule has a condition: a delivery that matches none stays unacked');
}

export function checkFailure(ctx: BehaviourCheckContext, path: string, f: unknown): void {
  if (f === undefined) return;
  if (!isPlainObject(f)) return ctx.sink.error(path, 'field-type', 'failure must be an object');
  switch (f.kind) {
    case 'never':
    case 'always':
      return;
    case 'failFirst':
      if (!isNonNegInt(f.n)) ctx.sink.error(`${path}.n`, 'field-type', 'n must be a non-negative integer');
      return;
    case 'percent':
      if (typeof f.percent !== 'number' || f.percent < 0 || f.percent > 100)
        ctx.sink.error(`${path}.percent`, 'field-type', 'percent must be 0..100');
      return;
    case 'poison':
      if (f.every !== undefined && (!isNonNegInt(f.every) || f.every < 1))
        ctx.sink.error(`${path}.every`, 'field-type', 'every must be an integer >= 1');
      if (f.bodies !== undefined && !(Array.isArray(f.bodies) && f.bodies.every((b) => typeof b === 'string')))
        ctx.sink.error(`${path}.bodies`, 'field-type', 'bodies must be an array of strings');
      return;
    default:
      ctx.sink.error(
        `${path}.kind`,
        'field-type',
        `failure kind must be never, always, failFirst, percent or poison; got ${JSON.stringify(f.kind)}`,
      );
  }
}

export function checkBehaviour(ctx: BehaviourCheckContext, path: string, b: unknown): void {
  if (!isPlainObject(b))
    return ctx.sink.error(path, 'behaviour-kind', 'behaviour must be an object with a kind (script, worker or router)');
  switch (b.kind) {
    case 'script':
      if (!Array.isArray(b.actions) || b.actions.length === 0)
        ctx.sink.error(`${path}.actions`, 'field-type', 'a script needs at least one action');
      else b.actions.forEach((a, i) => checkAction(ctx, pathIndex(`${path}.actions`, i), a));
      return;
    case 'worker':
      checkFailure(ctx, `${path}.failure`, b.failure);
      if (b.onSuccess !== undefined) checkAction(ctx, `${path}.onSuccess`, b.onSuccess);
      checkRules(ctx, `${path}.onFailure`, b.onFailure);
      if (b.processingMs !== undefined && !isNonNegInt(b.processingMs))
        ctx.sink.error(`${path}.processingMs`, 'field-type', 'processingMs must be a non-negative integer');
      return;
    case 'router':
      checkRules(ctx, `${path}.rules`, b.rules);
      return;
    default:
      ctx.sink.error(
        `${path}.kind`,
        'behaviour-kind',
        `behaviour kind must be script, worker or router; got ${JSON.stringify(b.kind)}`,
      );
  }
}
