/**
 * Pure edits behind the inspector's behaviour form. Every edit spreads the object it changes,
 * so what the form does not show (headers, routingKeyFromHeader, ValueExpr expirations...)
 * survives; optional fields the form clears are deleted, never set to undefined.
 */
import type {
  Condition,
  ConsumerAction,
  ConsumerBehaviour,
  Counter,
  DeathReason,
  FailureModel,
  Rule,
} from '@retry-studio/topology-core/model';

export type FailureKind = 'inherit' | FailureModel['kind'];
export type ActionKind = 'ack' | 'reject' | 'requeue' | 'hold' | 'republish';
export type ConditionKind = 'always' | 'lt' | 'gte';

export const DEATH_REASONS: readonly DeathReason[] = ['rejected', 'expired', 'maxlen', 'delivery_limit'];

/** Drops `key` when `value` is undefined, so a cleared optional field leaves no trace. */
export function withField<T extends object, K extends keyof T>(o: T, key: K, value: T[K] | undefined): T {
  const out = { ...o };
  if (value === undefined) delete out[key];
  else out[key] = value;
  return out;
}

/** The form edits lt/gte conditions (and "always"); anything else is shown read-only. */
export function isFormCondition(c: Condition | undefined): boolean {
  return c === undefined || c.kind === 'lt' || c.kind === 'gte';
}

/** ack, reject, requeue, hold and republish have form rows; retryInProcess is shown read-only. */
export function isFormAction(a: ConsumerAction): a is Extract<ConsumerAction, { kind: ActionKind }> {
  return a.kind === 'ack' || a.kind === 'reject' || a.kind === 'requeue' || a.kind === 'hold' || a.kind === 'republish';
}

/** the actions that can settle every earlier unsettled delivery too (AMQP's multiple flag) */
export type MultipleAction = Extract<ConsumerAction, { kind: 'ack' | 'reject' | 'requeue' }>;
export const canSettleMultiple = (a: ConsumerAction): a is MultipleAction =>
  a.kind === 'ack' || a.kind === 'reject' || a.kind === 'requeue';

/** multiple on: a basic.ack / basic.nack multiple; off: the field is deleted */
export function setMultiple(a: MultipleAction, on: boolean): ConsumerAction {
  return withField(a, 'multiple', on ? true : undefined);
}

/** The parts of a republish the form does not edit (kept as they are, shown as a hint). */
export function republishExtras(a: ConsumerAction): string[] {
  if (a.kind !== 'republish') return [];
  const out: string[] = [];
  if (a.routingKeyFromHeader !== undefined) out.push(`routing key from header ${a.routingKeyFromHeader}`);
  if (a.headers !== undefined) out.push('headers');
  if (a.copyHeaders !== undefined) out.push(`copyHeaders ${a.copyHeaders}`);
  if (a.exceptionHeaders !== undefined) out.push(`exceptionHeaders ${a.exceptionHeaders}`);
  if (a.expiration !== undefined && typeof a.expiration === 'object') out.push(`expiration ${a.expiration.kind}`);
  return out;
}

export function failureOfKind(kind: FailureKind, prev: FailureModel | undefined): FailureModel | undefined {
  if (kind === 'inherit') return undefined;
  if (prev?.kind === kind) return prev;
  switch (kind) {
    case 'never':
    case 'always':
      return { kind };
    case 'failFirst':
      return { kind, n: 2 };
    case 'percent':
      return { kind, percent: 30 };
    case 'poison':
      return { kind, every: 3 };
  }
}

export function setWorkerFailure(
  b: Extract<ConsumerBehaviour, { kind: 'worker' }>,
  f: FailureModel | undefined,
): ConsumerBehaviour {
  return withField(b, 'failure', f);
}

export function actionOfKind(kind: ActionKind, prev: ConsumerAction): ConsumerAction {
  if (prev.kind === kind) return prev;
  if (kind === 'republish') return { kind, exchange: '' };
  if (kind === 'hold') return { kind };
  // ack <-> reject <-> requeue keep the multiple flag: a batch stays a batch
  return canSettleMultiple(prev) && prev.multiple === true ? { kind, multiple: true } : { kind };
}

export function counterOfKind(kind: Counter['kind'], prev: Counter): Counter {
  if (prev.kind === kind) return prev;
  switch (kind) {
    case 'attempt':
    case 'deliveryCount':
    case 'held':
      return { kind };
    case 'header':
      return { kind, name: 'x-retries' };
    case 'deathCount':
      return { kind };
  }
}

export function conditionOfKind(kind: ConditionKind, prev: Condition | undefined): Condition | undefined {
  if (kind === 'always') return undefined;
  if (prev?.kind === kind) return prev;
  if (prev && (prev.kind === 'lt' || prev.kind === 'gte')) return { ...prev, kind };
  return { kind, counter: { kind: 'attempt' }, value: 3 };
}

export function setRuleWhen(r: Rule, when: Condition | undefined): Rule {
  return withField(r, 'when', when);
}

/** Rules of a worker (onFailure) or a router (rules). */
export function rulesOf(b: ConsumerBehaviour): readonly Rule[] {
  return b.kind === 'worker' ? b.onFailure : b.kind === 'router' ? b.rules : [];
}

export function withRules(b: ConsumerBehaviour, rules: readonly Rule[]): ConsumerBehaviour {
  if (b.kind === 'worker') return { ...b, onFailure: rules };
  if (b.kind === 'router') return { ...b, rules };
  return b;
}

export function replaceAt<T>(xs: readonly T[], i: number, x: T): T[] {
  return xs.map((y, k) => (k === i ? x : y));
}

export function removeAt<T>(xs: readonly T[], i: number): T[] {
  return xs.filter((_, k) => k !== i);
}

/** `text` as typed: a number when it is one, the empty string clears, anything else stays text (validation names it). */
export function numberOrText(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  return Number.isNaN(Number(t)) ? text : Number(t);
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function ruleShaped(r: unknown): boolean {
  if (!isObj(r) || !isObj(r.then) || typeof r.then.kind !== 'string') return false;
  if (r.when === undefined) return true;
  if (!isObj(r.when)) return false;
  return (r.when.kind !== 'lt' && r.when.kind !== 'gte') || isObj(r.when.counter);
}

/**
 * Whether the form can draw this behaviour without tripping over it: JSON typed in the
 * advanced editor may be half-written (a worker without onFailure, a rule without then).
 * Wrong values inside a sound shape are fine: the form shows the core's errors under them.
 */
export function formCanShow(b: unknown): b is ConsumerBehaviour {
  if (!isObj(b)) return false;
  switch (b.kind) {
    case 'worker':
      return (
        Array.isArray(b.onFailure) &&
        b.onFailure.every(ruleShaped) &&
        (b.failure === undefined || isObj(b.failure)) &&
        (b.onSuccess === undefined || isObj(b.onSuccess))
      );
    case 'router':
      return Array.isArray(b.rules) && b.rules.every(ruleShaped);
    case 'script':
      return Array.isArray(b.actions) && b.actions.every((a) => isObj(a) && typeof a.kind === 'string');
    default:
      return false;
  }
}
