/**
 * A message read from a dead-letter or parking queue, and why it died: the first death (the
 * `x-first-death-*` headers, else the oldest x-death entry) and its cause, the key the browser
 * and the re-drive group by (first-death queue + reason + an exception header when present).
 */
import type { AmqpTable } from '../model/definitions.js';
import type { DeathReason } from '../model/consumer.js';
import type { XDeathEntry } from '../model/xDeath.js';

export interface DeadLetterMessage {
  /** position in the listing, 0 = head of the queue */
  readonly seq: number;
  /** how it reached this queue */
  readonly exchange: string;
  readonly routingKey: string;
  readonly redelivered: boolean;
  /** utf8 preview (cut by the reader) */
  readonly body: string;
  readonly bodyBytes: number;
  /** every header except x-death */
  readonly headers: AmqpTable;
  /** the x-death table, most recent death first, as the broker wrote it */
  readonly xDeath: readonly XDeathEntry[];
  readonly properties?: {
    readonly contentType?: string;
    readonly messageId?: string;
    readonly timestamp?: number;
    readonly deliveryMode?: number;
  };
  /** stream offset, when read from a stream */
  readonly offset?: number;
}

export interface FirstDeath {
  readonly queue: string;
  readonly reason: DeathReason | string;
  readonly exchange: string;
  readonly routingKeys: readonly string[];
  /** seconds since the epoch, when the broker wrote it */
  readonly time?: number;
  readonly count: number;
}

/** Headers that carry why a consumer failed (Spring's RepublishMessageRecoverer, common libraries). */
export const EXCEPTION_HEADERS = ['x-exception-message', 'x-exception', 'exception', 'x-error', 'error'] as const;

export function firstDeath(m: Pick<DeadLetterMessage, 'headers' | 'xDeath'>): FirstDeath | undefined {
  const q = m.headers['x-first-death-queue'];
  const r = m.headers['x-first-death-reason'];
  const x = m.headers['x-first-death-exchange'];
  const oldest = m.xDeath.at(-1);
  if (typeof q === 'string' && typeof r === 'string') {
    const entry = m.xDeath.find((d) => d.queue === q && d.reason === r) ?? oldest;
    return {
      queue: q,
      reason: r,
      exchange: typeof x === 'string' ? x : (entry?.exchange ?? ''),
      routingKeys: entry?.queue === q ? entry['routing-keys'] : [],
      ...(entry?.time !== undefined ? { time: entry.time } : {}),
      count: entry?.queue === q ? entry.count : 1,
    };
  }
  if (!oldest) return undefined;
  return {
    queue: oldest.queue,
    reason: oldest.reason,
    exchange: oldest.exchange,
    routingKeys: oldest['routing-keys'],
    ...(oldest.time !== undefined ? { time: oldest.time } : {}),
    count: oldest.count,
  };
}

export interface DeathCause {
  /** `queue|reason|exception` (stable: the re-drive filter names a group by it) */
  readonly key: string;
  readonly queue: string;
  readonly reason: string;
  readonly exception?: string;
}

const MAX_EXCEPTION = 200;

export function causeOf(m: Pick<DeadLetterMessage, 'headers' | 'xDeath'>): DeathCause {
  const fd = firstDeath(m);
  let exception: string | undefined;
  for (const h of EXCEPTION_HEADERS) {
    const v = m.headers[h];
    if (typeof v === 'string' && v !== '') {
      // the first line: stack traces differ per message, the message text groups
      exception = (v.split('\n')[0] as string).slice(0, MAX_EXCEPTION);
      break;
    }
  }
  const queue = fd?.queue ?? '';
  const reason = fd?.reason ?? 'no x-death';
  return {
    key: [queue, reason, exception ?? ''].join('|'),
    queue,
    reason,
    ...(exception !== undefined ? { exception } : {}),
  };
}

export interface CauseGroup extends DeathCause {
  readonly count: number;
  readonly seqs: readonly number[];
  /** earliest and latest first-death times in the group (s) */
  readonly firstTime?: number;
  readonly lastTime?: number;
}

/** Groups by cause, the largest first (ties by key). */
export function groupByCause(messages: readonly DeadLetterMessage[]): CauseGroup[] {
  const groups = new Map<string, { cause: DeathCause; seqs: number[]; times: number[] }>();
  for (const m of messages) {
    const c = causeOf(m);
    let g = groups.get(c.key);
    if (!g) groups.set(c.key, (g = { cause: c, seqs: [], times: [] }));
    g.seqs.push(m.seq);
    const t = firstDeath(m)?.time;
    if (t !== undefined) g.times.push(t);
  }
  return [...groups.values()]
    .map(({ cause, seqs, times }) => ({
      ...cause,
      count: seqs.length,
      seqs,
      ...(times.length ? { firstTime: Math.min(...times), lastTime: Math.max(...times) } : {}),
    }))
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
}
