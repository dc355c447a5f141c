/**
 * Design validation (topology + consumers + publishers + layout) and `parseDesign`, the one
 * entry point for untrusted design JSON: structure, migration, then validation.
 */
import type { Design } from './design.js';
import { DESIGN_FORMAT } from './design.js';
import { checkDelay, checkExpirationString } from './arguments.js';
import { isForbiddenKey, pathIndex, pathKey } from './names.js';
import { migrateDesign } from './migrate.js';
import { checkDanglingReferences } from './danglingReferences.js';
import { isNodeId, parseNodeId } from './nodeIds.js';
import { checkPolicyKeysForProfile } from './validatePolicies.js';
import { IssueSink, isPlainObject, type ValidationIssue, type ValidationResult } from './validateResult.js';
import { streamConsumerIssues } from './streamConsumer.js';
import { checkSources } from './source.js';
import { checkTable, validateTopologyInto, type TopologyValidationOptions } from './validateTopology.js';
import {
  checkBehaviour,
  checkExchangeRef,
  checkFailure,
  isNonNegInt,
  type BehaviourCheckContext,
} from './validateBehaviour.js';

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
  const ctx: BehaviourCheckContext = { sink, exchanges: names('exchanges'), queues: names('queues'), streams };

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
    if (pub.properties !== undefined) checkPublishProperties(sink, `${p}.properties`, pub.properties);
  });

  if (d.layout !== undefined) checkLayout(sink, d.layout, ctx, ids);
  if (d.origin !== undefined) {
    if (!isPlainObject(d.origin) || typeof d.origin.template !== 'string' || !isPlainObject(d.origin.params))
      sink.error('origin', 'field-type', 'origin must be {template, params}');
    else checkTable(sink, 'origin.params', d.origin.params, 'params');
  }
  checkSources(sink, d.sources);
  checkDanglingReferences(sink, d);
}

/** A publisher's message properties: the broker rejects a bad expiration or priority at publish time. */
function checkPublishProperties(sink: IssueSink, pp: string, props: unknown): void {
  if (!isPlainObject(props)) return sink.error(pp, 'field-type', 'properties must be an object');
  if (props.expiration !== undefined) {
    const m = checkExpirationString(props.expiration);
    if (m) sink.error(`${pp}.expiration`, 'expiration-format', `expiration ${m}`);
  }
  if (props.priority !== undefined && !isNonNegInt(props.priority, 255))
    sink.error(`${pp}.priority`, 'field-type', 'priority must be an integer 0..255');
  if (props.message_id !== undefined && typeof props.message_id !== 'string')
    sink.error(`${pp}.message_id`, 'field-type', 'message_id must be a string');
  if (checkTable(sink, `${pp}.headers`, props.headers) && isPlainObject(props.headers) && 'x-delay' in props.headers) {
    const m = checkDelay(props.headers['x-delay']);
    if (m) sink.warn(`${pp}.headers.x-delay`, 'delay-range', m);
  }
}

/**
 * The canvas layout: keyed by node id, each a finite position. A key naming no node is only warned
 * about (a stale position is harmless); `ids` holds the consumer and publisher ids as `c:ID` / `p:ID`.
 */
function checkLayout(sink: IssueSink, layout: unknown, ctx: BehaviourCheckContext, ids: Set<string>): void {
  if (!isPlainObject(layout)) return sink.error('layout', 'field-type', 'layout must be an object keyed by node id');
  for (const [k, pos] of Object.entries(layout)) {
    const lp = pathKey('layout', k);
    if (isForbiddenKey(k)) {
      sink.error(lp, 'forbidden-key', `the key "${k}" is not allowed`);
      continue;
    }
    if (!isNodeId(k))
      sink.warn(lp, 'layout-node-id', `"${k}" is not a node id (exchange:NAME, queue:NAME, consumer:ID, publisher:ID)`);
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
