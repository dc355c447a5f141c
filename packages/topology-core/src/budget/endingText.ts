/**
 * Where a message ended, in words that say what happens next: a message waiting in a queue with
 * a TTL and no onward route is "parked in X; expires after 7 d (policy dlq-ttl) and is dropped",
 * not unbounded; copies (fanout, several bindings) each get their own fate; a loop cut by the
 * simulation's horizon is "still cycling when the 24 h horizon ended".
 */
import type { Topology } from '../model/definitions.js';
import type { Ending } from '../templates/types.js';
import { describeSource, queueEffectiveSettings } from '../model/effectiveSettings.js';
import { formatMs } from '../text/formatDuration.js';

export interface EndingContext {
  readonly topology: Topology;
  /** the simulation's horizon (virtual ms), for a message still cycling when it ended */
  readonly horizonMs?: number;
  /** the virtual time the run stopped at, when its event bound stopped it before the horizon */
  readonly stoppedAtMs?: number;
  /** copies that ended otherwise (MessageTrace.otherCopies) */
  readonly otherCopies?: { readonly processed: number; readonly dropped: number };
}

/** What becomes of a message resting in `queue`: kept, or expired and then dropped or dead-lettered. */
export function parkedFate(queue: string, topology: Topology): string {
  const q = topology.queues.find((x) => x.name === queue);
  if (!q) return `in ${queue}`;
  const s = queueEffectiveSettings(q, topology).settings;
  if (s['x-queue-type']?.value === 'stream') return `kept in stream ${queue}`;
  const ttl = s['x-message-ttl'];
  if (!ttl || typeof ttl.value !== 'number') return `parked in ${queue}`;
  const from = ttl.source.kind === 'argument' ? '' : ` (${describeSource(ttl.source)})`;
  const dlx = s['x-dead-letter-exchange'];
  const then = dlx && typeof dlx.value === 'string' ? `is dead-lettered to ${dlx.value === '' ? 'the default exchange' : dlx.value}` : 'is dropped';
  return `parked in ${queue}; expires after ${formatMs(ttl.value)}${from} and ${then}`;
}

export function describeEnding(e: Ending, ctx: EndingContext): string {
  switch (e.kind) {
    case 'queue': {
      const fates = [e.queue, ...(e.also ?? [])].map((q) => parkedFate(q, ctx.topology));
      const o = ctx.otherCopies;
      if (o && o.processed > 0) fates.push(o.processed === 1 ? 'processed (acked)' : `${o.processed} processed (acked)`);
      if (o && o.dropped > 0) fates.push(o.dropped === 1 ? 'dropped' : `${o.dropped} dropped`);
      if (fates.length === 1) return fates[0]!;
      return `copies, each with its own fate: ${fates.join(' | ')}`;
    }
    case 'cycling':
      if (ctx.stoppedAtMs !== undefined && (ctx.horizonMs === undefined || ctx.stoppedAtMs < ctx.horizonMs))
        return `still cycling when the simulation's event bound stopped it at ${formatMs(ctx.stoppedAtMs)}`;
      return ctx.horizonMs !== undefined ? `still cycling when the ${formatMs(ctx.horizonMs)} horizon ended` : 'still cycling';
    case 'acked':
      return 'processed (acked)';
    case 'dropped':
      return 'dropped';
    case 'held':
      return `held unacked by ${e.consumer} (nothing settles it)`;
    case 'attempt-cap':
      return `attempt cap hit at attempt ${e.attempts}: the worker stopped failing, the retry itself never ends`;
  }
}
