/**
 * Design validation (topology + consumers + publishers + layout) and `parseDesign`, the one
 * entry point for untrusted design JSON: structure, migration, then validation.
 */
import type { Design } from './design.js';
import { DESIGN_FORMAT } from './design.js';
import { MAX_TTL_MS, checkDelay, checkExpirationString } from './arguments.js';
import { isForbiddenKey, pathIndex, pathKey } from './names.js';
import { migrateDesign } from './migrate.js';
import { checkDanglingReferences } from './danglingReferences.js';
import { DEATH_REASONS, isDeathReason } from './xDeath.js';
import { isNodeId, parseNodeId } from './nodeIds.js';
import { checkPolicyKeysForProfile } from './validatePolicies.js';
import { IssueSink, isPlainObject, type ValidationIssue, type ValidationResult } from './validateResult.js';
import { streamConsumerIssues } from './streamConsumer.js';
import { checkSources } from './source.js';
import { checkTable, validateTopologyInto, type TopologyValidationOptions } from './validateTopology.js';

const COUNTER_KINDS = ['attempt', 'header', 'deathCount', 'deliveryCount', 'held'];

interface Ctx {
  readonly sink: IssueSink;
  readonly exchanges: ReadonlySet<string>;
  readonly queues: ReadonlySet<string>;
  /** queues declared with x-queue-type stream */
  readonly streams: ReadonlySet<string>;
}

function checkCounter(ctx: Ctx, path: string, c: unknown): void {
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

function isNonNegInt(v: unknown, max = Number.MAX_SAFE_INTEGER): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;
}

/** A ValueExpr used as an expiration / delay: literal ints in range, or a computed value. */
function checkValueExpr(ctx: Ctx, path: string, v: unknown, as: 'ms' | 'any'): void {
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

function checkCondition(ctx: Ctx, path: string, c: unknown): void {
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

function checkExchangeRef(ctx: Ctx, path: string, name: unknown): void {
  if (typeof name !== 'string')
    return ctx.sink.error(path, 'field-type', 'exchange must be a name ("" for the default exchange)');
  if (name !== '' && !ctx.exchanges.has(name) && !name.startsWith('amq.'))
    ctx.sink.error(path, 'missing-exchange', `exchange "${name}" is not declared in the topology`);
}

function checkAction(ctx: Ctx, path: string, a: unknown, depth = 0): void {
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
        `action kind must be ack, reject, requeue, hold, republish or retryInProcess; got ${JSON.stringify(a.kind)}`,
      );
  }
}

function checkRules(ctx: Ctx, path: string, rules: unknown): void {
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

function checkFailure(ctx: Ctx, path: string, f: unknown): void {
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

function checkBehaviour(ctx: Ctx, path: string, b: unknown): void {
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

export type DesignValidationOptions = TopologyValidationOptions;

export function validateDesign(d: Design, opts: DesignValidationOptions = {}): ValidationResult {
  const sink = new IssueSink();
  validateDesignInto(sink, d as unknown, opts);
  return sink.result();
}

function validateDesignInto(sink: IssueSink, d: unknown, opts: DesignValidationOptions): void {
  if (!isPlainObject(d)) return sink.error('', 'design-type', 'a design must be a JSON object');
  if (d.format !== DESIGN_FORMAT) sink.error('format', 'design-format', `format must be "${DESIGN_FORMAT}"`);
  if (typeof d.name !== 'string') sink.error('name', 'field-type', 'name must be a string');
  if (d.description !== undefined && typeof d.description !== 'string')
    sink.error('description', 'field-type', 'description must be a string');
  if (d.vhost !== undefined && (typeof d.vhost !== 'string' || d.vhost === '' || /[\r\n]/.test(d.vhost)))
    sink.error('vhost', 'vhost-name', 'vhost must be a non-empty name without line breaks');
  if (d.profile !== undefined && d.profile !== '3.10' && d.profile !== '4.x' && d.profile !== '4.3')
    sink.error('profile', 'field-type', 'profile must be "3.10", "4.x" or "4.3"');
  if (d.topology === undefined) sink.error('topology', 'field-missing', 'a design needs a topology');
  else validateTopologyInto(sink, d.topology, 'topology', opts);
  const topo = isPlainObject(d.topology) ? d.topology : {};
  checkPolicyKeysForProfile(
    sink,
    topo.policies,
    d.profile === '4.x' || d.profile === '4.3' ? d.profile : '3.10',
    (p) => `topology.${p}`,
  );
  const names = (k: string): Set<string> =>
    new Set(
      Array.isArray(topo[k])
        ? (topo[k] as unknown[]).flatMap((x) => (isPlainObject(x) && typeof x.name === 'string' ? [x.name] : []))
        : [],
    );
  const streams = new Set(
    Array.isArray(topo.queues)
      ? (topo.queues as unknown[]).flatMap((q) =>
          isPlainObject(q) &&
          typeof q.name === 'string' &&
          isPlainObject(q.arguments) &&
          q.arguments['x-queue-type'] === 'stream'
            ? [q.name]
            : [],
        )
      : [],
  );
  const ctx: Ctx = { sink, exchanges: names('exchanges'), queues: names('queues'), streams };

  const consumers = Array.isArray(d.consumers) ? d.consumers : [];
  if (!Array.isArray(d.consumers)) sink.error('consumers', 'field-type', 'consumers must be an array');
  const ids = new Set<string>();
  consumers.forEach((c, i) => {
    const p = pathIndex('consumers', i);
    if (!isPlainObject(c)) return sink.error(p, 'field-type', 'consumer must be an object');
    if (typeof c.id !== 'string' || c.id === '') sink.error(`${p}.id`, 'field-type', 'consumer needs a non-empty id');
    else if (ids.has(`c:${c.id}`)) sink.error(`${p}.id`, 'duplicate-id', `consumer id "${c.id}" is used twice`);
    else ids.add(`c:${c.id}`);
    if (typeof c.queue !== 'string') sink.error(`${p}.queue`, 'field-type', 'queue must be a queue name');
    else if (!ctx.queues.has(c.queue))
      sink.error(`${p}.queue`, 'missing-queue', `consumer reads queue "${c.queue}", which is not declared`);
    if (c.label !== undefined && typeof c.label !== 'string')
      sink.error(`${p}.label`, 'field-type', 'label must be a string');
    if (c.prefetch !== undefined && !isNonNegInt(c.prefetch, 65535))
      sink.error(
        `${p}.prefetch`,
        'prefetch-range',
        `prefetch must be an integer 0..65535, got ${JSON.stringify(c.prefetch)}`,
      );
    checkBehaviour(ctx, `${p}.behaviour`, c.behaviour);
    if (typeof c.queue === 'string' && ctx.streams.has(c.queue))
      for (const is of streamConsumerIssues(c, p)) sink.error(is.path, is.code, is.message);
    else if (c.streamOffset !== undefined)
      sink.warn(`${p}.streamOffset`, 'stream-offset-ignored', 'streamOffset only applies to a consumer of a stream');
  });

  const publishers = Array.isArray(d.publishers) ? d.publishers : [];
  if (!Array.isArray(d.publishers)) sink.error('publishers', 'field-type', 'publishers must be an array');
  publishers.forEach((pub, i) => {
    const p = pathIndex('publishers', i);
    if (!isPlainObject(pub)) return sink.error(p, 'field-type', 'publisher must be an object');
    if (typeof pub.id !== 'string' || pub.id === '')
      sink.error(`${p}.id`, 'field-type', 'publisher needs a non-empty id');
    else if (ids.has(`p:${pub.id}`)) sink.error(`${p}.id`, 'duplicate-id', `publisher id "${pub.id}" is used twice`);
    else ids.add(`p:${pub.id}`);
    checkExchangeRef(ctx, `${p}.exchange`, pub.exchange);
    if (typeof pub.routingKey !== 'string') sink.error(`${p}.routingKey`, 'field-type', 'routingKey must be a string');
    else if (pub.exchange === '' && !ctx.queues.has(pub.routingKey))
      sink.warn(
        `${p}.routingKey`,
        'unroutable-publish',
        `the default exchange routes by queue name and there is no queue "${pub.routingKey}"`,
      );
    if (pub.mandatory !== undefined && typeof pub.mandatory !== 'boolean')
      sink.error(`${p}.mandatory`, 'field-type', 'mandatory must be true or false');
    if (pub.bodyPrefix !== undefined && typeof pub.bodyPrefix !== 'string')
      sink.error(`${p}.bodyPrefix`, 'field-type', 'bodyPrefix must be a string');
    if (pub.properties !== undefined) {
      const pp = `${p}.properties`;
      if (!isPlainObject(pub.properties)) sink.error(pp, 'field-type', 'properties must be an object');
      else {
        const props = pub.properties;
        if (props.expiration !== undefined) {
          const m = checkExpirationString(props.expiration);
          if (m) sink.error(`${pp}.expiration`, 'expiration-format', `expiration ${m}`);
        }
        if (props.priority !== undefined && !isNonNegInt(props.priority, 255))
          sink.error(`${pp}.priority`, 'field-type', 'priority must be an integer 0..255');
        if (props.message_id !== undefined && typeof props.message_id !== 'string')
          sink.error(`${pp}.message_id`, 'field-type', 'message_id must be a string');
        if (
          checkTable(sink, `${pp}.headers`, props.headers) &&
          isPlainObject(props.headers) &&
          'x-delay' in props.headers
        ) {
          const m = checkDelay(props.headers['x-delay']);
          if (m) sink.warn(`${pp}.headers.x-delay`, 'delay-range', m);
        }
      }
    }
  });

  if (d.layout !== undefined) {
    if (!isPlainObject(d.layout)) sink.error('layout', 'field-type', 'layout must be an object keyed by node id');
    else
      for (const [k, pos] of Object.entries(d.layout)) {
        const lp = pathKey('layout', k);
        if (isForbiddenKey(k)) {
          sink.error(lp, 'forbidden-key', `the key "${k}" is not allowed`);
          continue;
        }
        if (!isNodeId(k))
          sink.warn(
            lp,
            'layout-node-id',
            `"${k}" is not a node id (exchange:NAME, queue:NAME, consumer:ID, publisher:ID)`,
          );
        else {
          const n = parseNodeId(k)!;
          const known =
            n.kind === 'exchange'
              ? ctx.exchanges.has(n.name) || n.name === ''
              : n.kind === 'queue'
                ? ctx.queues.has(n.name)
                : ids.has(`${n.kind[0]}:${n.name}`);
          if (!known) sink.warn(lp, 'layout-unknown-node', `layout names ${k}, which is not in the design`);
        }
        if (
          !isPlainObject(pos) ||
          typeof pos.x !== 'number' ||
          typeof pos.y !== 'number' ||
          !Number.isFinite(pos.x) ||
          !Number.isFinite(pos.y)
        )
          sink.error(lp, 'field-type', 'a position must be {x: number, y: number}');
      }
  }
  if (d.origin !== undefined) {
    if (!isPlainObject(d.origin) || typeof d.origin.template !== 'string' || !isPlainObject(d.origin.params))
      sink.error('origin', 'field-type', 'origin must be {template, params}');
    else checkTable(sink, 'origin.params', d.origin.params, 'params');
  }
  checkSources(sink, d.sources);
  checkDanglingReferences(sink, d);
}

export type ParseDesignResult =
  | {
      readonly ok: true;
      readonly design: Design;
      readonly errors: readonly [];
      readonly warnings: readonly ValidationIssue[];
      readonly migratedFrom?: number;
    }
  | {
      readonly ok: false;
      readonly design?: undefined;
      readonly errors: readonly ValidationIssue[];
      readonly warnings: readonly ValidationIssue[];
    };

/** Untrusted JSON -> a valid current-version Design, or field-level errors. */
export function parseDesign(input: unknown, opts: DesignValidationOptions = {}): ParseDesignResult {
  const m = migrateDesign(input);
  if (!m.ok) return { ok: false, errors: [{ path: m.path, message: m.message, code: m.code }], warnings: [] };
  const sink = new IssueSink();
  validateDesignInto(sink, m.doc, opts);
  const r = sink.result();
  if (!r.ok) return { ok: false, errors: r.errors, warnings: r.warnings };
  return {
    ok: true,
    design: m.doc as unknown as Design,
    errors: [],
    warnings: r.warnings,
    ...(m.applied.length > 0 ? { migratedFrom: m.from } : {}),
  };
}

/** A failure model given on its own (a trace request's `failure`): the issues, paths under `path`. */
export function validateFailureModel(f: unknown, path = 'failure'): readonly ValidationIssue[] {
  const sink = new IssueSink();
  if (f === undefined) sink.error(path, 'field-type', 'failure must be an object');
  else checkFailure({ sink, exchanges: new Set(), queues: new Set(), streams: new Set() }, path, f);
  return sink.errors;
}
