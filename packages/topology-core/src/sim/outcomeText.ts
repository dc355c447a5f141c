/**
 * A message's outcome in words that say what happens next, the one wording every place prints:
 * a message resting in a queue with a TTL and no onward route is "parked in X; expires after 7 d
 * (policy dlq-ttl) and is dropped", not unbounded; copies (fanout, several bindings) each get
 * their own fate; a loop cut by the run is "still moving ... attempt 1,333, cycling through ...".
 */
import type { Topology } from '../model/definitions.js';
import { describeSource, queueEffectiveSettings } from '../model/effectiveSettings.js';
import { formatMs } from '../text/formatDuration.js';
import type { DropReason } from './events.js';
import type { MessageOutcome } from './messageOutcome.js';
import type { RetryHorizon } from './retryHorizon.js';
import { formatCount } from '../text/formatCount.js';

export interface OutcomeContext {
  readonly topology: Topology;
  /** the run's horizon (virtual ms): a message still moving when it ended says so */
  readonly horizonMs?: number;
  /** the design's horizon (sim/retryHorizon.ts): where it cut a TTL chain, the words say so */
  readonly horizon?: RetryHorizon;
  /** a live trace's message (or its prediction): still moving says where it got to, not that it never ends */
  readonly live?: boolean;
}

/** What becomes of a message resting in `queue`: kept, or expired and then dropped or dead-lettered. */
export function parkedFate(queue: string, topology: Topology): string {
  const q = topology.queues.find((x) => x.name === queue);
  if (!q) return `parked in ${queue}`;
  const s = queueEffectiveSettings(q, topology).settings;
  if (s['x-queue-type']?.value === 'stream') return `kept in stream ${queue}`;
  const ttl = s['x-message-ttl'];
  if (!ttl || typeof ttl.value !== 'number') return `parked in ${queue}`;
  const from = ttl.source.kind === 'argument' ? '' : ` (${describeSource(ttl.source)})`;
  const dlx = s['x-dead-letter-exchange'];
  const then =
    dlx && typeof dlx.value === 'string'
      ? `is dead-lettered to ${dlx.value === '' ? 'the default exchange' : dlx.value}`
      : 'is dropped';
  return `parked in ${queue}; expires after ${formatMs(ttl.value)}${from} and ${then}`;
}

const DROP_TEXT: Record<DropReason, string> = {
  'no-route': 'no queue is bound for its routing key',
  'missing-dlx': 'its dead-letter exchange does not exist',
  'no-dlx': 'the queue has no dead-letter exchange',
  cycle: 'a fully automatic dead-letter cycle',
  overflow: 'the queue overflowed',
  'queue-deleted': 'the queue was deleted (x-expires)',
  'stream-dead-letter': 'RabbitMQ 3.10 drops a dead letter routed to a stream',
  vanished: 'it left its queue without an event a client sees',
};

export function dropText(why: DropReason, queue?: string, exchange?: string): string {
  const at =
    queue !== undefined
      ? ` in ${queue}`
      : exchange !== undefined
        ? ` at ${exchange === '' ? 'the default exchange' : exchange}`
        : '';
  return `dropped${at}: ${DROP_TEXT[why]}`;
}

export function describeOutcome(o: MessageOutcome, ctx: OutcomeContext): string {
  switch (o.kind) {
    case 'parked': {
      const fates = [o.queue, ...(o.also ?? [])].map((q) => parkedFate(q, ctx.topology));
      const c = o.otherCopies;
      if (c && c.processed > 0)
        fates.push(c.processed === 1 ? 'processed (acked)' : `${c.processed} processed (acked)`);
      if (c && c.dropped > 0) fates.push(c.dropped === 1 ? 'dropped' : `${c.dropped} dropped`);
      return fates.length === 1 ? fates[0]! : `copies, each with its own fate: ${fates.join(' | ')}`;
    }
    case 'moving': {
      // a wait a run cut short (live, the trace goes on: where it got to, below)
      if (o.waiting && !ctx.live) return waitingText(o.waiting, o.atMs, ctx);
      const horizonMs = ctx.horizonMs ?? ctx.horizon?.ms;
      const stop =
        horizonMs === undefined
          ? `when the run stopped at ${formatMs(o.atMs)}`
          : o.atMs >= horizonMs
            ? `when the ${formatMs(horizonMs)} horizon ended`
            : `when the run's event bound stopped it at ${formatMs(o.atMs)}`;
      const loop =
        o.cycle.length > 1
          ? `, cycling through ${[...o.cycle.slice(-1), ...o.cycle].join(' → ')}`
          : o.cycle.length === 1
            ? `, cycling in ${o.cycle[0]}`
            : '';
      // live: where it got to (a loop of one queue is its last queue so far, not yet a cycle)
      if (ctx.live)
        return `still moving at ${formatMs(o.atMs)}: attempt ${formatCount(o.attempts)}${o.cycle.length > 1 ? loop : o.cycle.length === 1 ? `, in ${o.cycle[0]}` : ''}`;
      return `still moving ${stop}: attempt ${formatCount(o.attempts)}${loop}; it never ends${cutText(o.atMs, ctx)}`;
    }
    case 'acked': {
      const by = o.consumer ? ` by ${o.consumer}` : '';
      const at = o.attempt > 0 ? ` at attempt ${o.attempt}` : '';
      return `acked${by}${at}${o.neverEndsFailingAlways ? ' (only because the worker stopped failing: failing every time, it never ends)' : ''}`;
    }
    case 'discarded': {
      const by = o.consumer ? ` by ${o.consumer}` : '';
      const at = o.attempt > 0 ? ` at attempt ${o.attempt}` : '';
      return `discarded${by}${at}: the application gave up and acked it, so the broker forgot it; the message is gone, never processed`;
    }
    case 'dropped':
      return dropText(o.why, o.queue, o.exchange);
    case 'expired':
      return `expired in ${o.queue} and dropped (no dead-letter exchange)`;
    case 'limit':
      return `ended by the delivery limit of ${o.queue}: dropped (no dead-letter exchange)`;
    case 'held':
      return `held unacked by ${o.consumer} (nothing settles it)`;
    case 'publish-nacked':
      return `refused: the broker nacked its publish${o.queue !== undefined ? ` (${o.queue} is full: x-overflow reject-publish)` : ''}`;
    case 'returned':
      return `returned to the publisher: no queue is bound for ${o.routingKey === '' ? 'its routing key' : `'${o.routingKey}'`} at ${o.exchange === '' ? 'the default exchange' : o.exchange}`;
  }
}

/** Where the horizon cut a TTL chain longer than a run goes (sim/retryHorizon.ts), said after the run's stop. */
function cutText(atMs: number, ctx: OutcomeContext): string {
  const h = ctx.horizon;
  if (!h?.cut || atMs < h.ms) return '';
  return ` (the run goes ${formatMs(h.ms)} at most; the TTL chain ${h.chain.join(' → ')} takes ${formatMs(h.chainMs)})`;
}

/** A message the run left waiting out a TTL on its way: where, until when, what then, and why the run stopped first. */
function waitingText(
  w: { readonly queue: string; readonly untilMs: number },
  atMs: number,
  ctx: OutcomeContext,
): string {
  const q = ctx.topology.queues.find((x) => x.name === w.queue);
  const s = q ? queueEffectiveSettings(q, ctx.topology).settings : {};
  const ttl = s['x-message-ttl'];
  const from = ttl && typeof ttl.value === 'number' ? ` (${describeSource(ttl.source)} ${formatMs(ttl.value)})` : '';
  const dlx = s['x-dead-letter-exchange']?.value;
  const then =
    typeof dlx === 'string'
      ? `then it expires to ${dlx === '' ? 'the default exchange' : dlx}`
      : 'then it expires and is dropped';
  const horizonMs = ctx.horizon?.ms ?? ctx.horizonMs;
  const why =
    horizonMs !== undefined && atMs >= horizonMs
      ? `the ${formatMs(horizonMs)} horizon ended${cutText(atMs, ctx)}`
      : "the run's event bound stopped it";
  return `waiting in ${w.queue} until ${formatMs(w.untilMs)}${from}, ${then} (${why} at ${formatMs(atMs)}: a wait, not a loop)`;
}

/** The first words of an outcome: how a lane or a table column colours and sorts it. */
export function outcomeTone(o: MessageOutcome): 'ok' | 'loss' | 'rest' | 'open' {
  if (o.kind === 'acked') return o.neverEndsFailingAlways ? 'open' : 'ok';
  if (
    o.kind === 'dropped' ||
    o.kind === 'expired' ||
    o.kind === 'limit' ||
    o.kind === 'publish-nacked' ||
    o.kind === 'returned' ||
    o.kind === 'discarded'
  )
    return 'loss';
  if (o.kind === 'parked') return 'rest';
  return 'open';
}
