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

export interface OutcomeContext {
  readonly topology: Topology;
  /** the run's horizon (virtual ms): a message still moving when it ended says so */
  readonly horizonMs?: number;
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
      const stop =
        ctx.horizonMs === undefined
          ? `when the run stopped at ${formatMs(o.atMs)}`
          : o.atMs >= ctx.horizonMs
            ? `when the ${formatMs(ctx.horizonMs)} horizon ended`
            : `when the run's event bound stopped it at ${formatMs(o.atMs)}`;
      const loop =
        o.cycle.length > 1
          ? `, cycling through ${[...o.cycle.slice(-1), ...o.cycle].join(' → ')}`
          : o.cycle.length === 1
            ? `, cycling in ${o.cycle[0]}`
            : '';
      // live: where it got to (a loop of one queue is its last queue so far, not yet a cycle)
      if (ctx.live)
        return `still moving at ${formatMs(o.atMs)}: attempt ${o.attempts.toLocaleString('en-US')}${o.cycle.length > 1 ? loop : o.cycle.length === 1 ? `, in ${o.cycle[0]}` : ''}`;
      return `still moving ${stop}: attempt ${o.attempts.toLocaleString('en-US')}${loop}; it never ends`;
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
