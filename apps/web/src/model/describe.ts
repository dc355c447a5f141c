/** Short human descriptions for node faces (presentation only; no semantics). */
import type { Condition, ConsumerAction, ConsumerBehaviour, Counter, FailureModel, QueueDef, ValueExpr } from '@retry-studio/topology-core';

export function counterText(c: Counter): string {
  switch (c.kind) {
    case 'attempt':
      return 'attempt';
    case 'header':
      return c.name;
    case 'deathCount':
      return `x-death${c.queue ? `[${c.queue}]` : ''}${c.reason ? `.${c.reason}` : ''}`;
    case 'deliveryCount':
      return 'x-delivery-count';
    case 'held':
      return 'held';
  }
}

function valueText(v: ValueExpr): string {
  if (typeof v === 'number' || typeof v === 'string') return String(v);
  switch (v.kind) {
    case 'curve':
      return `curve(${v.values.join(',')})`;
    case 'exponential':
      return `${v.initialMs}×${v.multiplier}^n≤${v.maxMs}`;
    case 'counter':
      return `${counterText(v.by)}+${v.add ?? 0}`;
    case 'fromHeader':
      return v.name;
  }
}

export function actionText(a: ConsumerAction): string {
  switch (a.kind) {
    case 'ack':
      // multiple: this delivery and every earlier unacked one on the channel
      return a.multiple ? 'ack multiple' : 'ack';
    case 'reject':
      return a.multiple ? 'nack multiple (dead-letter)' : 'reject';
    case 'requeue':
      return a.multiple ? 'nack multiple requeue' : 'requeue';
    case 'hold':
      return 'hold (unacked)';
    case 'republish':
      return `republish → ${a.exchange || '(default)'}${a.expiration !== undefined ? ` ttl ${valueText(a.expiration)}` : ''}`;
    case 'retryInProcess':
      return `retry ×${a.maxAttempts} then ${actionText(a.recover)}`;
  }
}

export function failureText(f: FailureModel | undefined): string {
  if (!f) return 'run failure model';
  switch (f.kind) {
    case 'never':
      return 'never fails';
    case 'always':
      return 'always fails';
    case 'failFirst':
      return `fails first ${f.n}`;
    case 'percent':
      return `fails ${f.percent}%`;
    case 'poison':
      return 'poison bodies fail';
  }
}

/** Never throws: a behaviour being typed in the inspector may be half-written JSON. */
export function behaviourLines(b: ConsumerBehaviour): string[] {
  try {
    return behaviourLinesOf(b);
  } catch {
    return ['(behaviour being edited: see the inspector)'];
  }
}

function behaviourLinesOf(b: ConsumerBehaviour): string[] {
  switch (b?.kind) {
    case 'script':
      return [`script: ${b.actions.map(actionText).join(', ')}`];
    case 'worker':
      return [
        `worker · ${failureText(b.failure)}`,
        ...b.onFailure.map((r) => `${r.when ? `${conditionText(r.when)} → ` : 'else → '}${actionText(r.then)}`),
      ];
    case 'router':
      return ['router', ...b.rules.map((r) => `${r.when ? `${conditionText(r.when)} → ` : '→ '}${actionText(r.then)}`)];
    default:
      return ['(not a known behaviour kind)'];
  }
}

function conditionText(c: Condition): string {
  switch (c.kind) {
    case 'lt':
      return `${counterText(c.counter)}<${c.value}`;
    case 'gte':
      return `${counterText(c.counter)}≥${c.value}`;
    case 'redelivered':
      return c.is ? 'redelivered' : 'first delivery';
    case 'hasHeader':
      return `${c.is ? 'has' : 'no'} ${c.name}`;
  }
}

export interface Chip {
  label: string;
  tone: 'ttl' | 'dlx' | 'limit' | 'type' | 'misc';
  title: string;
}

export function queueChips(q: QueueDef): Chip[] {
  const a = q.arguments ?? {};
  const chips: Chip[] = [];
  const type = typeof a['x-queue-type'] === 'string' ? a['x-queue-type'] : 'classic';
  chips.push({ label: type, tone: 'type', title: 'x-queue-type' });
  if (a['x-message-ttl'] !== undefined) chips.push({ label: `TTL ${fmt(a['x-message-ttl'])}`, tone: 'ttl', title: 'x-message-ttl' });
  if (a['x-dead-letter-exchange'] !== undefined)
    chips.push({ label: `DLX ${String(a['x-dead-letter-exchange']) || '(default)'}`, tone: 'dlx', title: 'x-dead-letter-exchange' });
  if (a['x-max-length'] !== undefined) chips.push({ label: `max ${String(a['x-max-length'])}`, tone: 'limit', title: 'x-max-length' });
  if (a['x-delivery-limit'] !== undefined) chips.push({ label: `limit ${String(a['x-delivery-limit'])}`, tone: 'limit', title: 'x-delivery-limit' });
  if (a['x-overflow'] !== undefined) chips.push({ label: String(a['x-overflow']), tone: 'misc', title: 'x-overflow' });
  if (a['x-expires'] !== undefined) chips.push({ label: `expires ${fmt(a['x-expires'])}`, tone: 'misc', title: 'x-expires' });
  return chips;
}

function fmt(v: unknown): string {
  if (typeof v !== 'number') return String(v);
  if (v >= 60000 && v % 1000 === 0) return `${v / 60000}m`;
  if (v >= 1000 && v % 100 === 0) return `${v / 1000}s`;
  return `${v}ms`;
}
