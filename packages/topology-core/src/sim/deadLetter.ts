/**
 * Dead-lettering a message: the new x-death history and headers, the routing keys it is
 * republished with, and the cycle check. 3.10: srv@v3.10.8 rabbit_dead_letter.erl L26-69
 * (make_msg), L117-156 (update_x_death_header), L197-246 (cycles). 4.x differences:
 * srv@v4.2.9 mc.erl L413-447, L498-510; RN 4.0.1.
 */
import type { AmqpValue } from '../model/definitions.js';
import type { DeathReason } from '../model/consumer.js';
import type { XDeathEntry } from '../model/xDeath.js';
import type { Msg } from './types.js';
import type { SemanticsProfile } from './profiles.js';
import { MsgRec, isShared, markShared } from './msgRecord.js';
import type { MsgShape } from './types.js';

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
  /** the failed deliveries the dead letter carries (4.3), else 0 */
  deliveryCount = 0,
): Msg {
  const time = Math.floor(nowMs / 1000);
  // the same shape dying the same way gives the same shape: look it up first
  const src = msg instanceof MsgRec && isShared(msg.shape) ? msg.shape : undefined;
  let derivedList: DerivedShape[] | undefined;
  if (src !== undefined) {
    derivedList = SHAPES.get(src);
    if (!derivedList) {
      derivedList = [];
      SHAPES.set(src, derivedList);
    }
    for (let i = 0; i < derivedList.length; i++) {
      const d = derivedList[i] as DerivedShape;
      if (
        d.queue === queue &&
        d.reason === reason &&
        d.dlx === dlx &&
        d.dlrk === dlrk &&
        d.profile === profile &&
        d.time === time &&
        d.shape.deliveryCount === deliveryCount
      )
        return new MsgRec(msg.logical, msg.body, msg.bytes, d.shape);
    }
  }
  const history = profile.ignoreClientXDeath && msg.xDeathFromClient ? undefined : msg.xDeath;
  const dropCc = dlrk !== undefined && profile.dropCcWithDlrk && msg.headers['CC'] !== undefined;
  // headers are immutable and shared: copy only when something changes, and share the copy
  // between messages that had the same (shared) headers and die the same way
  let headers: { [k: string]: AmqpValue } | { readonly [k: string]: AmqpValue } = msg.headers;
  let xDeath: readonly XDeathEntry[];
  if (history === undefined) {
    // the first death also writes x-first-death-* (once; never changed afterwards)
    const src = msg.headers;
    const exchange = msg.exchange;
    headers = derived(src, 'f', reason, queue, exchange, () =>
      isEmpty(src)
        ? { 'x-first-death-reason': reason, 'x-first-death-queue': queue, 'x-first-death-exchange': exchange }
        : { ...src, 'x-first-death-reason': reason, 'x-first-death-queue': queue, 'x-first-death-exchange': exchange },
    );
    xDeath = single(freshEntry(msg, queue, reason, time));
  } else if (
    history.length === 1 &&
    (history[0] as XDeathEntry).queue === queue &&
    (history[0] as XDeathEntry).reason === reason
  ) {
    // the common repeat death (a retry loop through one queue): one entry, counted in place
    xDeath = single(bump(history[0] as XDeathEntry));
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
    const head = foundAt >= 0 ? bump(history[foundAt] as XDeathEntry) : freshEntry(msg, queue, reason, time);
    xDeath = derivedHistory(history, head, reverse, () => {
      const size = foundAt >= 0 ? n : n + 1;
      const out = new Array<XDeathEntry>(size);
      out[0] = head;
      let j = 1;
      for (let k = 0; k < n; k++) {
        const i = reverse ? n - 1 - k : k;
        if (i !== foundAt) out[j++] = history[i] as XDeathEntry;
      }
      return out;
    });
  }
  if (profile.lastDeathHeaders || dropCc) {
    const src = headers;
    const exchange = msg.exchange;
    headers = derived(src, profile.lastDeathHeaders ? (dropCc ? 'lc' : 'l') : 'c', reason, queue, exchange, () => {
      const h: { [k: string]: AmqpValue } = {};
      for (const k in src) if (!(dropCc && k === 'CC')) h[k] = src[k] as AmqpValue;
      if (profile.lastDeathHeaders) {
        h['x-last-death-reason'] = reason;
        h['x-last-death-queue'] = queue;
        h['x-last-death-exchange'] = exchange;
      }
      return h;
    });
  }
  const shape: MsgShape = {
    exchange: dlx,
    routingKeys: dlrk !== undefined ? dlrkKeys(dlrk) : msg.routingKeys,
    headers,
    xDeath,
    xDeathFromClient: false,
    expiration: undefined,
    ccInKeys: dlrk === undefined && msg.ccInKeys,
    deliveryCount,
  };
  if (
    derivedList !== undefined &&
    (headers === EMPTY_HEADERS || isShared(headers)) &&
    isShared(xDeath) &&
    derivedList.length < 64
  ) {
    markShared(shape);
    derivedList.push({ queue, reason, dlx, dlrk, profile, time, shape });
  }
  return new MsgRec(msg.logical, msg.body, msg.bytes, shape);
}

/** shapes derived from a shared shape by a death: (queue, reason, dlx, dlrk, profile, second) -> shape */
interface DerivedShape {
  readonly queue: string;
  readonly reason: DeathReason;
  readonly dlx: string;
  readonly dlrk: string | undefined;
  readonly profile: SemanticsProfile;
  readonly time: number;
  readonly shape: MsgShape;
}
const SHAPES = new WeakMap<MsgShape, DerivedShape[]>();

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

// ---------------------------------------------------------------- sharing (copy-on-write)
// x-death entries, x-death arrays and header tables are immutable, so messages that die the same
// way share them: a burst of messages through a retry loop allocates one of each, not one per
// message. Only objects this module made (or the shared empty table) are keys, so a cache never
// grows per message; WeakMaps let unused ones go.

/** header tables derived from a shared table: (source, op, reason, queue, exchange) -> table */
interface DerivedHeaders {
  readonly op: string;
  readonly reason: string;
  readonly queue: string;
  readonly exchange: string;
  readonly h: { readonly [k: string]: AmqpValue };
}
const HEADERS = new WeakMap<object, DerivedHeaders[]>();
function derived(
  src: { readonly [k: string]: AmqpValue },
  op: string,
  reason: string,
  queue: string,
  exchange: string,
  make: () => { [k: string]: AmqpValue },
): { readonly [k: string]: AmqpValue } {
  if (src !== EMPTY_HEADERS && !isShared(src)) return make();
  let list = HEADERS.get(src);
  if (!list) {
    list = [];
    HEADERS.set(src, list);
  }
  for (let i = 0; i < list.length; i++) {
    const d = list[i] as DerivedHeaders;
    if (d.op === op && d.reason === reason && d.queue === queue && d.exchange === exchange) return d.h;
  }
  const h = make();
  markShared(h);
  if (list.length < 64) list.push({ op, reason, queue, exchange, h });
  return h;
}

/** [entry], one array per entry */
const SINGLE = new WeakMap<XDeathEntry, readonly XDeathEntry[]>();
function single(e: XDeathEntry): readonly XDeathEntry[] {
  if (!isShared(e)) return [e];
  let a = SINGLE.get(e);
  if (!a) {
    a = [e];
    markShared(a);
    SINGLE.set(e, a);
  }
  return a;
}

/**
 * a new history: (old history, new head, reversed?) -> history, when both are shared (the head
 * fixes the queue and reason, so which old entry it replaces)
 */
const HISTORIES = [
  new WeakMap<readonly XDeathEntry[], WeakMap<XDeathEntry, readonly XDeathEntry[]>>(),
  new WeakMap<readonly XDeathEntry[], WeakMap<XDeathEntry, readonly XDeathEntry[]>>(),
] as const;
function derivedHistory(
  history: readonly XDeathEntry[],
  head: XDeathEntry,
  reverse: boolean,
  make: () => XDeathEntry[],
): readonly XDeathEntry[] {
  if (!isShared(history) || !isShared(head)) return make();
  const byHistory = HISTORIES[reverse ? 1 : 0];
  let m = byHistory.get(history);
  if (!m) {
    m = new WeakMap();
    byHistory.set(history, m);
  }
  let h = m.get(head);
  if (!h) {
    h = make();
    markShared(h);
    m.set(head, h);
  }
  return h;
}

/** the last fresh entry per (queue, reason): the next death there usually has the same fields */
const FRESH = new Map<string, Partial<Record<DeathReason, XDeathEntry>>>();
function freshEntry(msg: Msg, queue: string, reason: DeathReason, time: number): XDeathEntry {
  const rks = deathRoutingKeys(msg);
  const oe = msg.expiration;
  let byReason = FRESH.get(queue);
  const last = byReason?.[reason];
  if (
    last !== undefined &&
    last.time === time &&
    last.exchange === msg.exchange &&
    last['original-expiration'] === oe &&
    sameKeys(last['routing-keys'], rks)
  )
    return last;
  const e: XDeathEntry =
    oe !== undefined
      ? { count: 1, reason, queue, time, exchange: msg.exchange, 'routing-keys': rks, 'original-expiration': oe }
      : { count: 1, reason, queue, time, exchange: msg.exchange, 'routing-keys': rks };
  markShared(e);
  if (!byReason) {
    if (FRESH.size >= 10000) FRESH.clear();
    byReason = {};
    FRESH.set(queue, byReason);
  }
  byReason[reason] = e;
  return e;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** the same entry counted once more (one per entry) */
const BUMPED = new WeakMap<XDeathEntry, XDeathEntry>();
function bump(d: XDeathEntry): XDeathEntry {
  const shared = isShared(d);
  if (shared) {
    const b = BUMPED.get(d);
    if (b) return b;
  }
  const oe = d['original-expiration'];
  const b: XDeathEntry =
    oe !== undefined
      ? {
          count: d.count + 1,
          reason: d.reason,
          queue: d.queue,
          time: d.time,
          exchange: d.exchange,
          'routing-keys': d['routing-keys'],
          'original-expiration': oe,
        }
      : {
          count: d.count + 1,
          reason: d.reason,
          queue: d.queue,
          time: d.time,
          exchange: d.exchange,
          'routing-keys': d['routing-keys'],
        };
  if (shared) {
    markShared(b);
    BUMPED.set(d, b);
  }
  return b;
}

/**
 * Is routing the dead letter to `target` a fully automatic cycle? Never for `rejected`;
 * otherwise find the newest death in `target`: a cycle if no death from the head up to and
 * including it was a rejection.
 */
/**
 * A dead letter routed to a stream is dropped unless the profile's streams take dead letters
 * (3.10 does not, 4.x does) or its source dead-letters at least once (quorum, at-least-once
 * strategy: it waits). The simulator and the live trace both ask this.
 */
export function streamDropsDeadLetter(
  profile: Pick<SemanticsProfile, 'streamTakesDeadLetters'>,
  target: { readonly stream: boolean },
  source: { readonly atLeastOnce: boolean },
): boolean {
  return target.stream && !profile.streamTakesDeadLetters && !source.atLeastOnce;
}

export function isCycle(reason: DeathReason, target: string, xDeath: readonly XDeathEntry[]): boolean {
  if (reason === 'rejected') return false;
  for (const d of xDeath) {
    if (d.reason === 'rejected') return false;
    if (d.queue === target) return true;
  }
  return false;
}
