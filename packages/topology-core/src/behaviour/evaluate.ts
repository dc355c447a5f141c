/**
 * Pure interpretation of declarative consumer behaviours (model/consumer.ts): counters, values,
 * conditions, failure models, rules. The simulator and the server's live-trace workers both
 * use these, so a design behaves the same in either.
 */
import type { AmqpValue } from '../model/definitions.js';
import type {
  Condition,
  ConsumerAction,
  ConsumerBehaviour,
  Counter,
  FailureModel,
  Rule,
  ValueExpr,
} from '../model/consumer.js';
import type { XDeathEntry } from '../model/xDeath.js';

/** What a consumer sees of one delivery. */
export interface DeliveryView {
  readonly body: string;
  /** headers as delivered, x-death excluded */
  readonly headers: { readonly [k: string]: AmqpValue };
  readonly xDeath?: readonly XDeathEntry[] | undefined;
  readonly redelivered: boolean;
  /** the routing key it arrived with */
  readonly routingKey: string;
  readonly exchange: string;
  /** how many times this consumer has seen this message, 1 on the first delivery */
  readonly attempt: number;
  /** deliveries the consumer holds unsettled (`hold`), this one included; 1 when absent */
  readonly held?: number;
}

export function evalCounter(c: Counter, d: DeliveryView): number {
  switch (c.kind) {
    case 'attempt':
      return d.attempt;
    case 'header': {
      const v = d.headers[c.name];
      if (typeof v === 'number') return v;
      if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
      return 0;
    }
    case 'deathCount': {
      let n = 0;
      for (const e of d.xDeath ?? []) {
        if (c.queue !== undefined && e.queue !== c.queue) continue;
        if (c.reason !== undefined && e.reason !== c.reason) continue;
        n += e.count;
      }
      return n;
    }
    case 'deliveryCount': {
      const v = d.headers['x-delivery-count'];
      return typeof v === 'number' ? v : 0;
    }
    case 'held':
      return d.held ?? 1;
  }
}

const EXPR_KINDS = new Set(['curve', 'exponential', 'counter', 'fromHeader']);

/** a ValueExpr object (as opposed to a literal AMQP table that happens to be an object) */
export function isValueExpr(v: unknown): v is Exclude<ValueExpr, string | number> {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && EXPR_KINDS.has((v as { kind?: unknown }).kind as string)
  );
}

export function evalValue(v: ValueExpr | AmqpValue, d: DeliveryView): AmqpValue | undefined {
  if (!isValueExpr(v)) return v as AmqpValue;
  switch (v.kind) {
    case 'curve': {
      if (v.values.length === 0) return 0;
      const n = evalCounter(v.by, d);
      const i = Math.max(1, Math.min(n, v.values.length)) - 1;
      return v.values[i] as number;
    }
    case 'exponential': {
      const n = Math.max(1, evalCounter(v.by, d));
      return Math.min(v.maxMs, v.initialMs * Math.pow(v.multiplier, n - 1));
    }
    case 'counter':
      return evalCounter(v.by, d) + (v.add ?? 0);
    case 'fromHeader': {
      const h = d.headers[v.name];
      return h === undefined || h === null ? undefined : typeof h === 'string' ? h : String(h);
    }
  }
}

export function evalCondition(c: Condition | undefined, d: DeliveryView): boolean {
  if (c === undefined) return true;
  switch (c.kind) {
    case 'lt':
      return evalCounter(c.counter, d) < c.value;
    case 'gte':
      return evalCounter(c.counter, d) >= c.value;
    case 'redelivered':
      return d.redelivered === c.is;
    case 'hasHeader':
      return Object.prototype.hasOwnProperty.call(d.headers, c.name) === c.is;
  }
}

export function firstRule(rules: readonly Rule[], d: DeliveryView): ConsumerAction | undefined {
  for (const r of rules) if (evalCondition(r.when, d)) return r.then;
  return undefined;
}

export interface FailureContext {
  /**
   * processing attempts of this logical message so far, this one included (1-based), by every
   * worker consumer in the run (republished copies and dead letters are the same message;
   * in-process retries count). Not the `attempt` Counter, which is per consumer.
   */
  readonly attempt: number;
  readonly body: string;
  /** 1-based ordinal of the logical message in the run (for `poison.every`) */
  readonly messageIndex: number;
  /** uniform [0,1) */
  readonly random: () => number;
}

/** true when processing succeeds */
export function processingSucceeds(model: FailureModel | undefined, ctx: FailureContext): boolean {
  if (model === undefined) return true;
  switch (model.kind) {
    case 'never':
      return true;
    case 'always':
      return false;
    case 'failFirst':
      return ctx.attempt > model.n;
    case 'percent':
      return !(ctx.random() * 100 < model.percent);
    case 'poison': {
      if (model.bodies?.includes(ctx.body)) return false;
      if (model.every !== undefined && model.every > 0 && ctx.messageIndex % model.every === 0) return false;
      return true;
    }
  }
}

/** Spring-style backoff before in-process attempt `attempt + 1` (attempt is 1-based) */
export function backoffMs(
  b: {
    readonly initialMs: number;
    readonly multiplier: number;
    readonly maxMs: number;
    readonly delaysMs?: readonly number[];
  },
  attempt: number,
): number {
  if (b.delaysMs !== undefined && b.delaysMs.length > 0) return b.delaysMs[Math.min(attempt, b.delaysMs.length) - 1]!;
  return Math.min(b.maxMs, b.initialMs * Math.pow(b.multiplier, attempt - 1));
}

/**
 * The action for a delivery. `script` needs the 1-based index of this body's delivery on the
 * queue; `worker` needs the failure verdict; `router` needs neither.
 */
export function chooseAction(
  b: ConsumerBehaviour,
  d: DeliveryView,
  opts: { readonly scriptIndex?: number; readonly ok?: boolean },
): ConsumerAction {
  switch (b.kind) {
    case 'script': {
      const acts = b.actions;
      if (acts.length === 0) return { kind: 'ack' };
      const i = Math.min(Math.max(1, opts.scriptIndex ?? 1), acts.length) - 1;
      return acts[i] as ConsumerAction;
    }
    case 'worker':
      if (opts.ok ?? true) return b.onSuccess ?? { kind: 'ack' };
      // a failure with no matching rule is rejected (requeue=false), as an exception in an auto-ack-less listener with default-requeue-rejected=false
      return firstRule(b.onFailure, d) ?? { kind: 'reject' };
    case 'router':
      return firstRule(b.rules, d) ?? { kind: 'ack' };
  }
}

export interface RepublishPlan {
  readonly exchange: string;
  readonly routingKey: string;
  readonly headers: { [k: string]: AmqpValue };
  /** keep the x-death history (headers copied) */
  readonly keepXDeath: boolean;
  readonly expiration: string | undefined;
}

/** what a `republish` action publishes for this delivery */
export function planRepublish(a: Extract<ConsumerAction, { kind: 'republish' }>, d: DeliveryView): RepublishPlan {
  const copy = a.copyHeaders ?? true;
  const headers: { [k: string]: AmqpValue } = copy ? { ...d.headers } : {};
  if (a.exceptionHeaders) {
    headers['x-exception-message'] = 'processing failed';
    headers['x-exception-stacktrace'] = 'simulated failure';
    headers['x-original-exchange'] = d.exchange;
    headers['x-original-routingKey'] = d.routingKey;
  }
  for (const [k, v] of Object.entries(a.headers ?? {})) {
    const val = evalValue(v as ValueExpr | AmqpValue, d);
    if (val === undefined) delete headers[k];
    else headers[k] = val;
  }
  let routingKey = d.routingKey;
  if (a.routingKey !== undefined) routingKey = a.routingKey;
  else if (a.routingKeyFromHeader !== undefined) {
    const h = d.headers[a.routingKeyFromHeader];
    routingKey = h === undefined || h === null ? '' : typeof h === 'string' ? h : String(h);
  }
  let expiration: string | undefined;
  if (a.expiration !== undefined) {
    const e = evalValue(a.expiration, d);
    if (typeof e === 'number') expiration = String(Math.max(0, Math.trunc(e)));
    else if (typeof e === 'string') expiration = e;
  }
  return { exchange: a.exchange, routingKey, headers, keepXDeath: copy, expiration };
}
