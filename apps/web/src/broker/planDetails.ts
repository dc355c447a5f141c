/** What a plan row says beyond its status: a policy's changes and their effect, where a queue's settings come from. */
import {
  describeChange,
  exchangeDeclarationChanges,
  queueDeclarationChanges,
  type AmqpValue,
  type ChangeEffect,
  type PolicyDef,
  type SettingChange,
} from '@retry-studio/topology-core/model';
import type { PlanItem } from '@retry-studio/contract';

type PolicyItem = Extract<PlanItem, { kind: 'policy' }>;
type QueueItem = Extract<PlanItem, { kind: 'queue' }>;

export const EFFECT_LABEL: Readonly<Record<ChangeEffect, string>> = {
  'in-place': 'in place, messages kept',
  'new-declarations-only': 'queues declared later only; existing queues keep theirs',
  recreate: 'needs a new queue',
};

export interface DetailLine {
  readonly text: string;
  /** absent for a line that only describes */
  readonly effect?: ChangeEffect;
}

const show = (v: AmqpValue) => (typeof v === 'string' ? v : JSON.stringify(v));

/** `pattern ^q\.wait$ on queues, priority 0: message-ttl 5000, dead-letter-exchange work` */
export function describePolicy(p: PolicyDef): string {
  const keys = Object.entries(p.definition).map(([k, v]) => `${k} ${show(v)}`);
  return `pattern ${p.pattern} on ${p['apply-to'] ?? 'all'}, priority ${p.priority ?? 0}: ${keys.join(', ') || '(no keys)'}`;
}

/** A policy row: each change of an update with its effect; what a create sets or a remove takes away. */
export function policyDetails(it: PolicyItem): DetailLine[] {
  switch (it.status) {
    case 'update':
      return (it.changes ?? []).map((c) => ({ text: describeChange(c), effect: c.effect }));
    case 'create':
      return it.desired ? [{ text: describePolicy(it.desired), effect: 'in-place' }] : [];
    case 'remove':
      // deleting a policy is applied to the queues it matched like any policy change: they stay, with their messages
      return it.actual ? [{ text: `no longer sets ${describePolicy(it.actual)}`, effect: 'in-place' }] : [];
    default:
      return it.desired ? [{ text: describePolicy(it.desired) }] : [];
  }
}

/** True when every change of the row applies to the existing queues (no change waits for a new declaration). */
export function appliesInPlace(lines: readonly DetailLine[]): boolean {
  return lines.every((l) => l.effect === undefined || l.effect === 'in-place');
}

/** A queue's settings that a policy or an operator policy gives it: `x-message-ttl 5000 (policy p.wait)`. */
export function settingsFromPolicies(it: QueueItem): string[] {
  return Object.entries(it.effective.settings).flatMap(([k, { value, source }]) =>
    source.kind === 'argument' ? [] : [`${k} ${show(value)} (${source.kind} ${source.name})`],
  );
}

type ShapedItem = Extract<PlanItem, { kind: 'exchange' | 'queue' }>;

/** `x-message-ttl 5000`, one per argument the object is declared with (what the plan creates). */
export function argumentLines(args: Readonly<Record<string, AmqpValue>> | undefined): string[] {
  return Object.entries(args ?? {}).map(([k, v]) => `${k} ${show(v)}`);
}

/**
 * For an object the broker already has: each field and argument where the broker's (before) and
 * the design's (after) differ, by the core's rule (the one the server's plan uses).
 */
export function shapeChanges(it: ShapedItem): SettingChange[] {
  if (!it.actual) return [];
  return it.kind === 'queue'
    ? queueDeclarationChanges(it.actual, it.desired)
    : exchangeDeclarationChanges(it.actual, it.desired);
}

/** a value of a before/after line; `not set` when absent */
export const shownValue = (v: unknown) => (v === undefined ? 'not set' : show(v as AmqpValue));
