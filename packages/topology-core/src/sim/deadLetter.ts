/**
 * Dead-lettering a message: the new x-death history and headers, the routing keys it is
 * republished with, and the cycle check. 3.10: srv@v3.10.8 rabbit_dead_letter.erl L26-69
 * (make_msg), L117-156 (update_x_death_header), L197-246 (cycles). 4.x differences:
 * srv@v4.2.9 mc.erl L413-447, L498-510; RN 4.0.1.
 */
import type { AmqpValue } from '../model/definitions.js';
import type { DeathReason } from '../model/consumer.js';
import type { XDeathEntry } from './events.js';
import type { Msg } from './types.js';
import type { SemanticsProfile } from './profiles.js';

/** the routing keys x-death records: the first key plus the CC header (BCC was stripped at publish) */
function deathRoutingKeys(msg: Msg): readonly string[] {
  const cc = msg.ccInKeys ? msg.headers['CC'] : undefined;
  const first = msg.routingKeys[0] ?? '';
  if (!Array.isArray(cc) || cc.length === 0) return msg.routingKeys.length === 1 ? msg.routingKeys : [first];
  const out = [first];
  for (const k of cc) if (typeof k === 'string') out.push(k);
  return out;
}

export function deadLetterMsg(
  msg: Msg,
  queue: string,
  reason: DeathReason,
  dlx: string,
  dlrk: string | undefined,
  profile: SemanticsProfile,
  nowMs: number,
): Msg {
  const time = Math.floor(nowMs / 1000);
  const history = profile.ignoreClientXDeath && msg.xDeathFromClient ? undefined : msg.xDeath;
  const dropCc = dlrk !== undefined && profile.dropCcWithDlrk && msg.headers['CC'] !== undefined;
  // headers are immutable and shared: copy only when something changes
  let headers: { [k: string]: AmqpValue } | { readonly [k: string]: AmqpValue } = msg.headers;
  let xDeath: XDeathEntry[];
  if (history === undefined) {
    // the first death also writes x-first-death-* (once; never changed afterwards)
    headers = isEmpty(msg.headers)
      ? { 'x-first-death-reason': reason, 'x-first-death-queue': queue, 'x-first-death-exchange': msg.exchange }
      : { ...msg.headers, 'x-first-death-reason': reason, 'x-first-death-queue': queue, 'x-first-death-exchange': msg.exchange };
    xDeath = [freshEntry(msg, queue, reason, time)];
  } else {
    // 3.10 regroups the existing entries by (queue, reason) with a foldl that prepends, which
    // reverses their order whenever there are two or more (group_by_queue_and_reason,
    // rabbit_dead_letter.erl; pinned by the chained-ttl-tiers recording). 4.x keeps the order.
    const n = history.length;
    const reverse = profile.xDeathRegroupReverses && n > 1;
    let foundAt = -1;
    for (let i = 0; i < n; i++) {
      const d = history[i] as XDeathEntry;
      if (d.queue === queue && d.reason === reason) {
        foundAt = i;
        break;
      }
    }
    // a repeat death counts in place and moves to the front; other fields keep their first values
    const size = foundAt >= 0 ? n : n + 1;
    xDeath = new Array<XDeathEntry>(size);
    xDeath[0] = foundAt >= 0 ? bump(history[foundAt] as XDeathEntry) : freshEntry(msg, queue, reason, time);
    let j = 1;
    for (let k = 0; k < n; k++) {
      const i = reverse ? n - 1 - k : k;
      if (i !== foundAt) xDeath[j++] = history[i] as XDeathEntry;
    }
  }
  if (profile.lastDeathHeaders || dropCc) {
    const h: { [k: string]: AmqpValue } = {};
    for (const k in headers) if (!(dropCc && k === 'CC')) h[k] = headers[k] as AmqpValue;
    if (profile.lastDeathHeaders) {
      h['x-last-death-reason'] = reason;
      h['x-last-death-queue'] = queue;
      h['x-last-death-exchange'] = msg.exchange;
    }
    headers = h;
  }
  return {
    id: msg.id,
    logical: msg.logical,
    body: msg.body,
    bytes: msg.bytes,
    exchange: dlx,
    routingKeys: dlrk !== undefined ? dlrkKeys(dlrk) : msg.routingKeys,
    headers,
    xDeath,
    xDeathFromClient: false,
    expiration: undefined,
    ccInKeys: dlrk === undefined && msg.ccInKeys,
  };
}

/** [DLRK] arrays are immutable: share one per key */
const DLRK_KEYS = new Map<string, readonly string[]>();
function dlrkKeys(dlrk: string): readonly string[] {
  let k = DLRK_KEYS.get(dlrk);
  if (!k) {
    k = [dlrk];
    if (DLRK_KEYS.size < 10000) DLRK_KEYS.set(dlrk, k);
  }
  return k;
}

/** the shared empty header table (publishes without headers use it) */
export const EMPTY_HEADERS: { readonly [k: string]: AmqpValue } = Object.freeze({});

function isEmpty(o: object): boolean {
  if (o === EMPTY_HEADERS) return true;
  for (const _ in o) return false;
  return true;
}

function freshEntry(msg: Msg, queue: string, reason: DeathReason, time: number): XDeathEntry {
  return msg.expiration !== undefined
    ? { count: 1, reason, queue, time, exchange: msg.exchange, 'routing-keys': deathRoutingKeys(msg), 'original-expiration': msg.expiration }
    : { count: 1, reason, queue, time, exchange: msg.exchange, 'routing-keys': deathRoutingKeys(msg) };
}

function bump(d: XDeathEntry): XDeathEntry {
  const oe = d['original-expiration'];
  return oe !== undefined
    ? { count: d.count + 1, reason: d.reason, queue: d.queue, time: d.time, exchange: d.exchange, 'routing-keys': d['routing-keys'], 'original-expiration': oe }
    : { count: d.count + 1, reason: d.reason, queue: d.queue, time: d.time, exchange: d.exchange, 'routing-keys': d['routing-keys'] };
}

/**
 * Is routing the dead letter to `target` a fully automatic cycle? Never for `rejected`;
 * otherwise find the newest death in `target`: a cycle if no death from the head up to and
 * including it was a rejection.
 */
export function isCycle(reason: DeathReason, target: string, xDeath: readonly XDeathEntry[]): boolean {
  if (reason === 'rejected') return false;
  for (const d of xDeath) {
    if (d.reason === 'rejected') return false;
    if (d.queue === target) return true;
  }
  return false;
}
