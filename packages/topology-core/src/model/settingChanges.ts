/**
 * What can change on an existing broker and what needs a new object: the one table the linter
 * and the deploy plan both read.
 * - A queue's durable/auto_delete flags and every argument are fixed when it is declared:
 *   redeclaring with other values fails (PRECONDITION_FAILED, inequivalent arg) or is ignored,
 *   so a change needs a new queue (docs `queues#optional-arguments`, `parameters#policies`).
 *   Same for an exchange's type, flags and arguments.
 * - A policy can be updated at any time and existing queues pick it up (rabbit_policy.erl
 *   `update_matched_objects` -> rabbit_amqqueue:policy_changed): messages stay. A few keys are
 *   read only when a queue is declared (policyKeys.ts `inPlace: false`).
 */
import type { AmqpValue, PolicyDef } from './definitions.js';
import { POLICY_KEYS } from './policyKeys.js';

export type ChangeEffect =
  /** applied to the existing object, messages kept */
  | 'in-place'
  /** fixed at declaration: needs a new queue/exchange (delete and declare again, or a new name) */
  | 'recreate'
  /** a policy key read only at declaration: queues declared later get it, existing ones keep theirs */
  | 'new-declarations-only';

export interface SettingChange {
  /** `durable`, `arguments.x-message-ttl`, `pattern`, `definition.message-ttl`, ... */
  readonly field: string;
  readonly from: unknown;
  readonly to: unknown;
  readonly effect: ChangeEffect;
}

/** Deep equality of AMQP values, key order ignored; 5 and 5.0 are equal (JSON has one number). */
export function sameAmqpValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameAmqpValue(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return (
      ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && sameAmqpValue((a as never)[k], (b as never)[k]))
    );
  }
  return false;
}

type Table = { readonly [k: string]: unknown };

/** Keys whose values differ between two argument tables; `x-queue-type: classic` equals absent (the broker adds it on 4.x). */
export function argumentDifferences(desired: Table, actual: Table): string[] {
  const norm = (t: Table): Record<string, unknown> => {
    const o = { ...t };
    if (o['x-queue-type'] === 'classic') delete o['x-queue-type'];
    return o;
  };
  const d = norm(desired);
  const a = norm(actual);
  const keys = new Set([...Object.keys(d), ...Object.keys(a)]);
  return [...keys].filter((k) => !sameAmqpValue(d[k], a[k])).sort();
}

export interface DeclaredQueue {
  readonly durable?: boolean;
  readonly auto_delete?: boolean;
  readonly arguments?: Table;
}
export interface DeclaredExchange extends DeclaredQueue {
  readonly type: string;
  readonly internal?: boolean;
}

function declarationChanges(fields: readonly [string, unknown, unknown][], from: Table, to: Table): SettingChange[] {
  const out: SettingChange[] = fields
    .filter(([, a, b]) => a !== b)
    .map(([field, a, b]) => ({ field, from: a, to: b, effect: 'recreate' }));
  for (const k of argumentDifferences(to, from))
    out.push({ field: `arguments.${k}`, from: from[k], to: to[k], effect: 'recreate' });
  return out;
}

/** From an existing queue to the desired one: every difference needs a new queue. */
export function queueDeclarationChanges(existing: DeclaredQueue, desired: DeclaredQueue): SettingChange[] {
  return declarationChanges(
    [
      ['durable', existing.durable ?? true, desired.durable ?? true],
      ['auto_delete', existing.auto_delete ?? false, desired.auto_delete ?? false],
    ],
    existing.arguments ?? {},
    desired.arguments ?? {},
  );
}

/** From an existing exchange to the desired one: every difference needs a new exchange. */
export function exchangeDeclarationChanges(existing: DeclaredExchange, desired: DeclaredExchange): SettingChange[] {
  return declarationChanges(
    [
      ['type', existing.type, desired.type],
      ['durable', existing.durable ?? true, desired.durable ?? true],
      ['auto_delete', existing.auto_delete ?? false, desired.auto_delete ?? false],
      ['internal', existing.internal ?? false, desired.internal ?? false],
    ],
    existing.arguments ?? {},
    desired.arguments ?? {},
  );
}

/** From an existing policy to the desired one (same name): applied in place, key by key. */
export function policyChanges(existing: PolicyDef, desired: PolicyDef): SettingChange[] {
  const out: SettingChange[] = [];
  const head: [string, unknown, unknown][] = [
    ['pattern', existing.pattern, desired.pattern],
    ['apply-to', existing['apply-to'] ?? 'all', desired['apply-to'] ?? 'all'],
    ['priority', existing.priority ?? 0, desired.priority ?? 0],
  ];
  for (const [field, a, b] of head) if (!sameAmqpValue(a, b)) out.push({ field, from: a, to: b, effect: 'in-place' });
  const keys = new Set([...Object.keys(existing.definition), ...Object.keys(desired.definition)]);
  for (const k of [...keys].sort()) {
    const a: AmqpValue | undefined = existing.definition[k];
    const b: AmqpValue | undefined = desired.definition[k];
    if (sameAmqpValue(a, b)) continue;
    out.push({
      field: `definition.${k}`,
      from: a,
      to: b,
      effect: POLICY_KEYS[k]?.inPlace === false ? 'new-declarations-only' : 'in-place',
    });
  }
  return out;
}

/** `x-message-ttl: 100 -> 200` */
export function describeChange(c: SettingChange): string {
  return `${c.field.replace(/^arguments\./, '')}: ${c.from === undefined ? '(none)' : JSON.stringify(c.from)} -> ${c.to === undefined ? '(none)' : JSON.stringify(c.to)}`;
}
