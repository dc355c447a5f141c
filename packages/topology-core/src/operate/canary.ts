/**
 * Canary re-drive, the rules (pure): how big each batch is, and what a batch's watch says.
 * A copy is back when it reaches the source dead-letter queue again (recognised by the re-drive
 * marker it carries), through when it has left its destination queue and not come back within
 * the wait. The watch never touches the destination queues: it reads their depths, and the
 * marker on what dies again. A verdict to go on always rests on a timeout (nothing came back
 * within the wait), and says so; a verdict to stop rests on copies seen coming back.
 */
import { REDRIVE_AT_HEADER, REDRIVE_COUNT_HEADER } from './redrive.js';
import type { AmqpTable } from '../model/definitions.js';

/** more than this many back (a count), or more than this share of the batch (a ratio in [0, 1)) */
export type MaxRefail =
  { readonly kind: 'count'; readonly count: number } | { readonly kind: 'ratio'; readonly ratio: number };

export interface CanaryOptions {
  /** the first batch */
  readonly size: number;
  /** how long a copy that left its destination must stay away to count as through (ms) */
  readonly waitMs: number;
  readonly maxRefail: MaxRefail;
  /** batches grow N, 2N, 4N, ... up to this (the rate limit: a second's worth) */
  readonly maxBatch?: number;
  /** resume: start at this batch (0-based), its size as if the earlier ones had run */
  readonly fromBatch?: number;
}

export const DEFAULT_CANARY_WAIT_MS = 5000;

export interface CanaryOptionError {
  /** the option, as the CLI names it */
  readonly option: '--canary' | '--canary-wait-ms' | '--max-refail' | '--canary-from-batch';
  readonly message: string;
}

/** What the user calls each canary option: the CLI's flags, or the Dead letters form's fields. */
export interface CanaryOptionNames {
  readonly canary: string;
  readonly waitMs: string;
  readonly maxRefail: string;
  readonly fromBatch: string;
}
export const CLI_CANARY_NAMES: CanaryOptionNames = {
  canary: '--canary',
  waitMs: '--canary-wait-ms',
  maxRefail: '--max-refail',
  fromBatch: '--canary-from-batch',
};
/** the labels of the web form's fields (a message there never names a CLI flag) */
export const FORM_CANARY_NAMES: CanaryOptionNames = {
  canary: 'canary',
  waitMs: 'wait ms',
  maxRefail: 'max back',
  fromBatch: 'from batch',
};

/** `2` (a count) or `0.1` / `10%` (a ratio of the batch) */
export function parseMaxRefail(
  s: string,
  names: CanaryOptionNames = CLI_CANARY_NAMES,
): { ok: true; maxRefail: MaxRefail } | { ok: false; message: string } {
  const name = names.maxRefail;
  const t = s.trim();
  const pct = t.endsWith('%');
  const n = Number(pct ? t.slice(0, -1) : t);
  if (t === '' || !Number.isFinite(n) || n < 0)
    return {
      ok: false,
      message: `${name} must be a count (2), a ratio below 1 (0.1) or a percentage (10%), got ${JSON.stringify(s)}`,
    };
  if (pct)
    return n < 100
      ? { ok: true, maxRefail: { kind: 'ratio', ratio: n / 100 } }
      : { ok: false, message: `${name} ${s}: a percentage must be below 100%` };
  if (n < 1 && n > 0) return { ok: true, maxRefail: { kind: 'ratio', ratio: n } };
  if (!Number.isInteger(n))
    return { ok: false, message: `${name} ${s}: a count must be a whole number (or a ratio below 1)` };
  return { ok: true, maxRefail: { kind: 'count', count: n } };
}

/** Bad options, each naming its option (`option` as the CLI names it; the message in the user's `names`); `selection`: how many messages the re-drive would move. */
export function checkCanaryOptions(
  o: CanaryOptions,
  selection: number | undefined,
  names: CanaryOptionNames = CLI_CANARY_NAMES,
): CanaryOptionError[] {
  const errors: CanaryOptionError[] = [];
  const n = names;
  if (!Number.isInteger(o.size) || o.size < 1)
    errors.push({
      option: '--canary',
      message: `${n.canary} must be a whole number of messages of at least 1, got ${o.size}`,
    });
  else if (selection !== undefined && o.size > selection)
    errors.push({
      option: '--canary',
      message: `${n.canary} ${o.size} is more than the ${selection} message(s) selected: a canary is a part of the selection`,
    });
  if (o.fromBatch !== undefined && (!Number.isInteger(o.fromBatch) || o.fromBatch < 0))
    errors.push({
      option: '--canary-from-batch',
      message: `${n.fromBatch} must be a batch number of at least 1, got ${o.fromBatch + 1}`,
    });
  if (!Number.isFinite(o.waitMs) || o.waitMs < 0)
    errors.push({
      option: '--canary-wait-ms',
      message: `${n.waitMs} must be 0 or more milliseconds, got ${o.waitMs}`,
    });
  if (o.maxRefail.kind === 'count' && Number.isInteger(o.size) && o.maxRefail.count > o.size)
    errors.push({
      option: '--max-refail',
      message: `${n.maxRefail} ${o.maxRefail.count} is above the canary of ${o.size}: the first batch could never stop the re-drive`,
    });
  if (o.maxRefail.kind === 'ratio' && !(o.maxRefail.ratio >= 0 && o.maxRefail.ratio < 1))
    errors.push({
      option: '--max-refail',
      message: `${n.maxRefail} ratio must be in [0, 1), got ${o.maxRefail.ratio}`,
    });
  return errors;
}

/** The size of batch `index` (0 first): N, 2N, 4N, ... capped by `maxBatch` and by what is left. */
export function canaryBatchSize(o: Pick<CanaryOptions, 'size' | 'maxBatch'>, index: number, remaining: number): number {
  const grown = o.size * 2 ** Math.min(index, 40);
  const capped = o.maxBatch !== undefined ? Math.min(grown, Math.max(o.size, Math.floor(o.maxBatch))) : grown;
  return Math.max(0, Math.min(capped, remaining));
}

/** how many of a batch of `moved` may come back and the re-drive still go on */
export function allowedBack(m: MaxRefail, moved: number): number {
  return m.kind === 'count' ? m.count : Math.floor(m.ratio * moved);
}

export interface BatchWatch {
  /** copies of this batch confirmed at their destination */
  readonly moved: number;
  /** copies of this batch seen back in a dead-letter queue */
  readonly back: number;
  /** copies that may still sit in their destination queues (from the depths) */
  readonly waiting: number;
  /** since the batch's last copy was confirmed (ms) */
  readonly sinceMovedMs: number;
}

export type BatchVerdict =
  | { readonly kind: 'watching' }
  | { readonly kind: 'stop'; readonly basis: 'returns-seen' | 'timeout'; readonly reason: string }
  | { readonly kind: 'continue'; readonly basis: 'timeout'; readonly through: number; readonly reason: string };

/** What a batch's watch says now. Stops as soon as too many came back; goes on only after the wait. */
export function judgeBatch(w: BatchWatch, o: Pick<CanaryOptions, 'waitMs' | 'maxRefail'>): BatchVerdict {
  const allowed = allowedBack(o.maxRefail, w.moved);
  if (w.back > allowed)
    return {
      kind: 'stop',
      basis: 'returns-seen',
      reason: `${w.back} of ${w.moved} came back (more than the ${allowed} allowed back): the cause is not fixed`,
    };
  if (w.sinceMovedMs < o.waitMs) return { kind: 'watching' };
  if (w.waiting > 0)
    return {
      kind: 'stop',
      basis: 'timeout',
      reason: `${w.waiting} of ${w.moved} still in the destination after ${o.waitMs} ms: no consumer took them, so nothing can be judged (a verdict on a timeout)`,
    };
  const through = w.moved - w.back;
  return {
    kind: 'continue',
    basis: 'timeout',
    through,
    reason: `${through} of ${w.moved} through, ${w.back} back within ${o.waitMs} ms (a verdict on a timeout: nothing more came back in the wait)`,
  };
}

/**
 * Is a dead letter one of this job's copies come back? It carries the re-drive marker, set at or
 * after `sinceMs` (the marker's time is when the copy was sent: a copy of an earlier re-drive that
 * died again carries an older time).
 */
export function isCopyBack(headers: AmqpTable, sinceMs: number, untilMs = Number.POSITIVE_INFINITY): boolean {
  const n = headers[REDRIVE_COUNT_HEADER];
  const at = headers[REDRIVE_AT_HEADER];
  return typeof n === 'number' && n >= 1 && typeof at === 'number' && at >= sinceMs && at <= untilMs;
}

/** One copy that came back, as the report lists it. */
export interface ReturnedCopy {
  readonly batch: number;
  readonly messageId?: string;
  readonly body: string;
  /** the new death: where and why */
  readonly queue: string;
  readonly reason: string;
  readonly redriveCount: number;
}

export type CanaryStatus = 'running' | 'done' | 'stopped' | 'cancelled' | 'failed';

export interface CanaryBatchReport {
  readonly index: number;
  readonly size: number;
  readonly moved: number;
  readonly through: number;
  readonly back: number;
  readonly waiting: number;
  readonly verdict?: Exclude<BatchVerdict, { kind: 'watching' }>;
  /** from the first copy sent to the verdict (ms) */
  readonly verdictMs?: number;
  readonly moveMs?: number;
}

export interface CanaryProgress {
  readonly id: string;
  readonly queue: string;
  readonly status: CanaryStatus;
  readonly phase: 'moving' | 'watching' | 'finished';
  /** the batch now (1-based), of the batches so far */
  readonly batch: number;
  readonly selection: number;
  readonly moved: number;
  readonly through: number;
  readonly back: number;
  readonly waiting: number;
  /** untouched in the source queue: not yet moved */
  readonly untouched: number;
  readonly batches: readonly CanaryBatchReport[];
  readonly returned: readonly ReturnedCopy[];
  /** why it stopped (or finished) */
  readonly stopReason?: string;
  /** how the back copies were counted: seen by a tap on the dead-letter queue's bindings, or from its depth */
  readonly watchedBy: 'tap' | 'depth';
  readonly error?: string;
  readonly elapsedMs: number;
}
