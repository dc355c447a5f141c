/** Short human descriptions for node faces (presentation only; no semantics). */
import {
  describeSource,
  type AmqpValue,
  type Condition,
  type ConsumerAction,
  type ConsumerBehaviour,
  type Counter,
  type EffectiveSettings,
  type FailureModel,
  type ValueExpr,
} from '@retry-studio/topology-core/model';

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
    case 'discard':
      return 'discard (acked unprocessed: lost)';
    case 'defer':
      return `after ${a.ms} ms: ${actionText(a.then)}`;
    case 'reject':
      return a.multiple ? 'nack multiple (dead-letter)' : 'reject';
    case 'requeue':
      return a.multiple ? 'nack multiple requeue' : 'requeue';
    case 'hold':
      return 'hold (unacked)';
    case 'republish':
      return `republish → ${a.exchange || '(default)'}${a.expiration !== undefined ? ` ttl ${valueText(a.expiration)}` : ''}`;
    case 'retryInProcess':
      return `retry ×${a.maxAttempts} in process (waits ${a.backoff.delaysMs ? a.backoff.delaysMs.join(', ') : `${a.backoff.initialMs} ×${a.backoff.multiplier} ≤ ${a.backoff.maxMs}`} ms) then ${actionText(a.recover)}`;
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
  /** the value comes from this policy (or operator policy), not from the queue's arguments */
  policy?: string;
  /** what defines the queue's retry (TTL, dead-letter exchange, delivery limit): always on its node, never in "+N" */
  defining?: boolean;
  /** a shorter label a tight face may show (the title says it whole): `DLX`, whose dead-letter edge says where */
  short?: string;
}

/** A queue's chips, from its effective settings (arguments and policies, as the simulator reads them). */
export function queueChips(settings: EffectiveSettings['settings']): Chip[] {
  const chips: Chip[] = [];
  const chip = (key: string, tone: Chip['tone'], label: (v: AmqpValue) => string, defining = false, short?: string) => {
    const s = settings[key];
    if (!s) return;
    const policy = s.source.kind === 'argument' ? undefined : s.source.name;
    chips.push({
      label: label(s.value),
      tone,
      title: `${key} ${String(s.value)} (${describeSource(s.source)})`,
      ...(policy ? { policy } : {}),
      ...(defining ? { defining } : {}),
      ...(short ? { short } : {}),
    });
  };
  // the settings that define the retry first: the face shows them whatever else it has room for
  chip('x-message-ttl', 'ttl', (v) => `TTL ${fmt(v)}`, true);
  chip('x-dead-letter-exchange', 'dlx', (v) => `DLX ${String(v) || '(default)'}`, true, 'DLX');
  chip('x-delivery-limit', 'limit', (v) => `limit ${String(v)}`, true);
  // a quorum queue or a stream says so; classic is the default (the glyph and tooltip say it), its room goes to the settings
  const type = settings['x-queue-type']?.value;
  if (typeof type === 'string' && type !== 'classic') chips.push({ label: type, tone: 'type', title: 'x-queue-type' });
  chip('x-max-length', 'limit', (v) => `max ${String(v)}`);
  chip('x-overflow', 'misc', (v) => String(v));
  chip('x-expires', 'misc', (v) => `expires ${fmt(v)}`);
  chip('x-max-age', 'misc', (v) => `max age ${String(v)}`);
  return chips;
}

function fmt(v: unknown): string {
  if (typeof v !== 'number') return String(v);
  if (v >= 86_400_000 && v % 3_600_000 === 0) return v % 86_400_000 === 0 ? `${v / 86_400_000}d` : `${v / 3_600_000}h`;
  if (v >= 3_600_000 && v % 3_600_000 === 0) return `${v / 3_600_000}h`;
  if (v >= 60000 && v % 1000 === 0) return `${v / 60000}m`;
  if (v >= 1000 && v % 100 === 0) return `${v / 1000}s`;
  return `${v}ms`;
}
