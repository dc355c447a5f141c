/**
 * Topology validation with RabbitMQ's own rules, so that nothing the broker would refuse
 * (or silently misread) reaches it. Defensive: accepts anything shaped like a Topology
 * (parsed JSON included) and reports field paths.
 */
import { BUILTIN_EXCHANGE_TYPES, PLUGIN_EXCHANGE_TYPES, type AmqpValue, type Topology } from './definitions.js';
import {
  EXCHANGE_ARGUMENTS,
  QUEUE_ARGUMENTS,
  X_MATCH_VALUES,
  argumentAllowed,
  queueTypeOf,
  whyStreamRefuses,
} from './arguments.js';
import { delayedRetryArgumentNotes } from './delayedRetry.js';
import { MAX_NAME_BYTES, checkEntityName, isForbiddenKey, pathIndex, pathKey, utf8ByteLength } from './names.js';
import { checkTable } from './checkTable.js';
import { checkPolicies } from './validatePolicies.js';
import { IssueSink, isPlainObject, type ValidationResult } from './validateResult.js';

export { checkTable };

const EXCHANGE_TYPES: readonly string[] = [...BUILTIN_EXCHANGE_TYPES, ...PLUGIN_EXCHANGE_TYPES];

/** Queue arguments of RabbitMQ 2.x that later brokers accept and ignore: a file still carrying them expects what no broker does any more. */
const OBSOLETE_QUEUE_ARGUMENTS: Readonly<Record<string, string>> = {
  'x-ha-policy':
    'is RabbitMQ 2.x mirroring (replaced by ha-mode policies in 3.0, mirroring removed in 4.0): the queue is not mirrored',
  'x-ha-nodes': 'is RabbitMQ 2.x mirroring (replaced by ha-params policies in 3.0): the queue is not mirrored',
};

export interface TopologyValidationOptions {
  /** exchange types the target broker offers (from /api/overview); default: all known */
  readonly exchangeTypes?: readonly string[];
}

function checkBool(sink: IssueSink, path: string, v: unknown): void {
  if (v !== undefined && typeof v !== 'boolean') sink.error(path, 'field-type', 'must be true or false');
}

export function validateTopology(t: Topology, opts: TopologyValidationOptions = {}): ValidationResult {
  const sink = new IssueSink();
  validateTopologyInto(sink, t, '', opts);
  return sink.result();
}

/** Adds the topology's issues to `sink`, paths prefixed with `base` (e.g. `topology`). */
export function validateTopologyInto(
  sink: IssueSink,
  t: unknown,
  base: string,
  opts: TopologyValidationOptions = {},
): void {
  const at = (p: string): string => (base === '' ? p : `${base}.${p}`);
  if (!isPlainObject(t)) {
    sink.error(base, 'topology-type', 'topology must be an object with exchanges, queues and bindings');
    return;
  }
  const list = (key: 'exchanges' | 'queues' | 'bindings' | 'policies', optional: boolean): readonly unknown[] => {
    const v = t[key];
    if (v === undefined && optional) return [];
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      sink.error(at(key), 'field-type', `${key} must be an array`);
      return [];
    }
    return v;
  };
  const exchanges = list('exchanges', true);
  const queues = list('queues', true);
  const bindings = list('bindings', true);
  const policies = list('policies', true);
  const types = opts.exchangeTypes ?? EXCHANGE_TYPES;

  // ---- exchanges
  const exchangeTypes = new Map<string, string>();
  exchanges.forEach((x, i) => checkExchange(sink, x, at(pathIndex('exchanges', i)), types, exchangeTypes));
  exchanges.forEach((x, i) => {
    if (!isPlainObject(x) || !isPlainObject(x.arguments)) return;
    const ae = x.arguments['alternate-exchange'];
    if (typeof ae === 'string' && !exchangeTypes.has(ae))
      sink.warn(
        at(`${pathIndex('exchanges', i)}.arguments.alternate-exchange`),
        'missing-exchange',
        `alternate exchange "${ae}" is not declared: unroutable messages are dropped`,
      );
  });

  // ---- queues
  const queueNames = new Set<string>();
  queues.forEach((q, i) => checkQueue(sink, q, at(pathIndex('queues', i)), exchangeTypes, queueNames));

  // ---- bindings
  const seen = new Set<string>();
  bindings.forEach((b, i) => checkBinding(sink, b, at(pathIndex('bindings', i)), exchangeTypes, queueNames, seen));

  // ---- policies (definitions JSON)
  checkPolicies(sink, policies, queues, at);
}

/** One exchange: name, type (known, and offered by the broker), flags and arguments; records its name and type in `exchangeTypes`. */
function checkExchange(
  sink: IssueSink,
  x: unknown,
  p: string,
  types: readonly string[],
  exchangeTypes: Map<string, string>,
): void {
  if (!isPlainObject(x)) return sink.error(p, 'field-type', 'exchange must be an object');
  const problem = checkEntityName(x.name, 'exchange');
  if (problem) sink.error(`${p}.name`, problem.code, problem.message);
  if (typeof x.name === 'string') {
    if (exchangeTypes.has(x.name)) sink.error(`${p}.name`, 'duplicate-name', `exchange "${x.name}" is declared twice`);
    exchangeTypes.set(x.name, typeof x.type === 'string' ? x.type : '');
  }
  if (typeof x.type !== 'string' || !EXCHANGE_TYPES.includes(x.type))
    sink.error(
      `${p}.type`,
      'unknown-exchange-type',
      `exchange type must be one of ${EXCHANGE_TYPES.join(', ')}; got ${JSON.stringify(x.type)}`,
    );
  else if (!types.includes(x.type))
    sink.error(
      `${p}.type`,
      'exchange-type-unavailable',
      `the broker does not offer the exchange type "${x.type}" (plugin not enabled)`,
    );
  checkBool(sink, `${p}.durable`, x.durable);
  checkBool(sink, `${p}.auto_delete`, x.auto_delete);
  checkBool(sink, `${p}.internal`, x.internal);
  const ap = `${p}.arguments`;
  if (checkTable(sink, ap, x.arguments) || isPlainObject(x.arguments)) {
    const args = x.arguments as Record<string, AmqpValue>;
    for (const [k, v] of Object.entries(args)) {
      if (isForbiddenKey(k)) continue;
      const spec = EXCHANGE_ARGUMENTS[k];
      if (spec) {
        const m = spec.check(v);
        if (m) sink.error(pathKey(ap, k), 'argument-value', `${k} ${m}`);
      } else if (x.type !== 'radlx') {
        sink.warn(
          pathKey(ap, k),
          'unknown-argument',
          `unknown exchange argument "${k}" (not compared by the broker on redeclare)`,
        );
      }
    }
    if (x.type !== 'x-delayed-message' && 'x-delayed-type' in args)
      sink.warn(
        pathKey(ap, 'x-delayed-type'),
        'argument-ignored',
        'x-delayed-type only applies to x-delayed-message exchanges',
      );
  }
  if (x.type === 'x-delayed-message') {
    const dt = isPlainObject(x.arguments) ? x.arguments['x-delayed-type'] : undefined;
    if (dt === undefined)
      sink.error(
        pathKey(ap, 'x-delayed-type'),
        'delayed-type-missing',
        'an x-delayed-message exchange needs x-delayed-type (direct, fanout, topic or headers)',
      );
  }
}

/**
 * One queue: name, flags, and each argument against its queue type (what the broker refuses is an
 * error, what it ignores a warning); records its name in `queueNames`.
 */
function checkQueue(
  sink: IssueSink,
  q: unknown,
  p: string,
  exchangeTypes: ReadonlyMap<string, string>,
  queueNames: Set<string>,
): void {
  if (!isPlainObject(q)) return sink.error(p, 'field-type', 'queue must be an object');
  const problem = checkEntityName(q.name, 'queue');
  if (problem) sink.error(`${p}.name`, problem.code, problem.message);
  if (typeof q.name === 'string') {
    if (queueNames.has(q.name)) sink.error(`${p}.name`, 'duplicate-name', `queue "${q.name}" is declared twice`);
    queueNames.add(q.name);
  }
  checkBool(sink, `${p}.durable`, q.durable);
  checkBool(sink, `${p}.auto_delete`, q.auto_delete);
  const ap = `${p}.arguments`;
  checkTable(sink, ap, q.arguments);
  const args = (isPlainObject(q.arguments) ? q.arguments : {}) as Record<string, AmqpValue>;
  const qtype = queueTypeOf(args);
  for (const [k, v] of Object.entries(args)) {
    if (isForbiddenKey(k)) continue;
    const kp = pathKey(ap, k);
    const spec = QUEUE_ARGUMENTS[k];
    if (!spec) {
      const obsolete = OBSOLETE_QUEUE_ARGUMENTS[k];
      if (obsolete)
        sink.warn(
          kp,
          'argument-obsolete',
          `queue argument "${k}" ${obsolete}: 3.10.8 and 4.3.6 accept the queue and ignore it (measured)`,
        );
      else
        sink.warn(
          kp,
          'unknown-argument',
          `unknown queue argument "${k}" (the broker ignores it and does not compare it on redeclare)${policyKeyAsArgument(k)}`,
        );
      continue;
    }
    const m = spec.check(v);
    if (m) sink.error(kp, k === 'x-message-ttl' ? 'ttl-range' : 'argument-value', `${k} ${m}`);
    if (argumentAllowed(spec, qtype)) continue;
    if (qtype === 'stream')
      sink.error(
        kp,
        'argument-queue-type',
        `${k} is not supported by streams: ${whyStreamRefuses(k)} (the broker refuses it: "invalid arg ... of queue type rabbit_stream_queue")`,
      );
    else
      sink.error(
        kp,
        'argument-queue-type',
        `${k} is only valid for ${spec.only} queues; this queue is ${qtype} ("invalid arg for queue type")`,
      );
  }
  if (qtype === 'stream') {
    // streams are replicated logs: the broker refuses "invalid property 'non-durable'" / "'auto-delete'"
    if (q.durable === false)
      sink.error(
        `${p}.durable`,
        'stream-not-durable',
        'a stream must be durable (the broker refuses a non-durable stream)',
      );
    if (q.auto_delete === true)
      sink.error(`${p}.auto_delete`, 'stream-auto-delete', 'a stream cannot be auto-delete (the broker refuses it)');
    if (q.exclusive === true)
      sink.error(`${p}.exclusive`, 'stream-exclusive', 'a stream cannot be exclusive (the broker refuses it)');
  }
  if (args['x-queue-type'] === 'quorum') {
    if (q.durable === false) sink.error(`${p}.durable`, 'quorum-not-durable', 'quorum queues must be durable');
    if (q.auto_delete === true)
      sink.error(`${p}.auto_delete`, 'quorum-auto-delete', 'quorum queues cannot be auto-delete');
    if (args['x-overflow'] === 'reject-publish-dlx')
      sink.error(
        pathKey(ap, 'x-overflow'),
        'overflow-quorum',
        'reject-publish-dlx is for classic queues only (a quorum queue falls back to drop-head)',
      );
    if (args['x-dead-letter-strategy'] === 'at-least-once' && args['x-overflow'] !== 'reject-publish')
      sink.warn(
        pathKey(ap, 'x-dead-letter-strategy'),
        'at-least-once-needs-reject-publish',
        'at-least-once dead-lettering needs x-overflow reject-publish; otherwise the broker uses at-most-once',
      );
  }
  // a quorum queue is declared whatever its delayed-retry arguments hold: say what 4.3 runs instead (model/delayedRetry.ts)
  if (qtype === 'quorum')
    for (const n of delayedRetryArgumentNotes({
      type: args['x-delayed-retry-type'],
      min: args['x-delayed-retry-min'],
      max: args['x-delayed-retry-max'],
    }))
      sink.warn(pathKey(ap, `x-delayed-retry-${n.setting}`), 'delayed-retry-not-as-written', n.message);
  if ('x-dead-letter-routing-key' in args && !('x-dead-letter-exchange' in args))
    sink.error(
      pathKey(ap, 'x-dead-letter-routing-key'),
      'dl-routing-key-without-dlx',
      'x-dead-letter-routing-key needs x-dead-letter-exchange (routing_key_but_no_dlx_defined)',
    );
  const dlx = args['x-dead-letter-exchange'];
  if (typeof dlx === 'string' && dlx !== '') {
    if (dlx.startsWith('amq.') && !exchangeTypes.has(dlx)) {
      /* amq.* exchanges exist on every broker: fine */
    } else if (!exchangeTypes.has(dlx))
      sink.warn(
        pathKey(ap, 'x-dead-letter-exchange'),
        'missing-dlx',
        `dead-letter exchange "${dlx}" is not declared: dead letters will be dropped`,
      );
  }
}

/** One binding: both ends declared (the default exchange cannot be bound), its key and x-match; `seen` catches a repeat. */
function checkBinding(
  sink: IssueSink,
  b: unknown,
  p: string,
  exchangeTypes: ReadonlyMap<string, string>,
  queueNames: ReadonlySet<string>,
  seen: Set<string>,
): void {
  if (!isPlainObject(b)) return sink.error(p, 'field-type', 'binding must be an object');
  if (typeof b.source !== 'string') sink.error(`${p}.source`, 'field-type', 'source must be an exchange name');
  else if (b.source === '')
    sink.error(`${p}.source`, 'bind-default-exchange', 'the default exchange cannot be bound (403)');
  else if (!exchangeTypes.has(b.source) && !b.source.startsWith('amq.'))
    sink.error(`${p}.source`, 'missing-exchange', `binding source exchange "${b.source}" is not declared`);
  if (b.destination_type !== 'queue' && b.destination_type !== 'exchange')
    sink.error(`${p}.destination_type`, 'field-type', 'destination_type must be "queue" or "exchange"');
  if (typeof b.destination !== 'string') sink.error(`${p}.destination`, 'field-type', 'destination must be a name');
  else if (b.destination_type === 'queue' && !queueNames.has(b.destination))
    sink.error(`${p}.destination`, 'missing-queue', `binding destination queue "${b.destination}" is not declared`);
  else if (b.destination_type === 'exchange') {
    if (b.destination === '')
      sink.error(`${p}.destination`, 'bind-default-exchange', 'the default exchange cannot be bound (403)');
    else if (!exchangeTypes.has(b.destination) && !b.destination.startsWith('amq.'))
      sink.error(
        `${p}.destination`,
        'missing-exchange',
        `binding destination exchange "${b.destination}" is not declared`,
      );
  }
  if (b.routing_key !== undefined && typeof b.routing_key !== 'string')
    sink.error(`${p}.routing_key`, 'field-type', 'routing_key must be a string');
  else if (typeof b.routing_key === 'string' && utf8ByteLength(b.routing_key) > MAX_NAME_BYTES)
    sink.error(`${p}.routing_key`, 'name-too-long', `routing key is longer than ${MAX_NAME_BYTES} bytes`);
  checkTable(sink, `${p}.arguments`, b.arguments);
  const srcType = typeof b.source === 'string' ? exchangeTypes.get(b.source) : undefined;
  const args = isPlainObject(b.arguments) ? b.arguments : {};
  const xm = args['x-match'];
  // only a headers-matching exchange validates x-match; a direct, topic or fanout exchange stores the binding as it is (measured on 3.10.8 and 4.3.6)
  const matchesHeaders = !srcType || srcType === 'headers' || srcType === 'radlx' || srcType === 'x-delayed-message';
  if (xm !== undefined && matchesHeaders && !(X_MATCH_VALUES as readonly unknown[]).includes(xm))
    sink.error(
      `${p}.arguments.x-match`,
      'x-match-value',
      `x-match must be one of ${X_MATCH_VALUES.join(', ')} (binding_invalid); got ${JSON.stringify(xm)}`,
    );
  if (xm !== undefined && !matchesHeaders)
    sink.warn(
      `${p}.arguments.x-match`,
      'argument-ignored',
      `x-match${(X_MATCH_VALUES as readonly unknown[]).includes(xm) ? '' : ` (${JSON.stringify(xm)}, not a value a headers exchange accepts)`} has no effect on a ${srcType} exchange: the broker stores the binding and routes by key`,
    );
  const key = JSON.stringify([b.source, b.destination, b.destination_type, b.routing_key ?? '', args]);
  if (seen.has(key)) sink.warn(p, 'duplicate-binding', 'the same binding is listed twice');
  seen.add(key);
}

/**
 * A policy key written as a queue argument ("expires" for "x-expires", as rabbitmqadmin-ng's test
 * fixture has it): both brokers keep it among the arguments and apply nothing (measured on 3.10.8
 * and 4.3.6), so the queue never gets the setting it looks like it has.
 */
function policyKeyAsArgument(k: string): string {
  return !k.startsWith('x-') && QUEUE_ARGUMENTS[`x-${k}`]
    ? `: "${k}" is the policy key; the queue argument is "x-${k}", so this queue has no ${k} setting`
    : '';
}
