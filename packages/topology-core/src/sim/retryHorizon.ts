/**
 * How far in virtual time a run follows a design's messages: the file's own horizon, not a fixed
 * day. A message resting in a queue whose TTL runs longer than the run would be cut off mid-wait
 * and read as never ending (a 7-day DLQ TTL under a 24 h horizon); so the horizon covers the
 * longest chain of TTL waits a message can go through (a dead-letter loop for as many rounds as a
 * consumer counts, and once more, so a loop shows itself coming round), and a day besides. Beyond MAX_HORIZON_MS it is cut, and says so.
 */
import type { Design } from '../model/design.js';
import type { Topology } from '../model/definitions.js';
import { queueSettingsOf } from '../model/effectiveSettings.js';
import { compileExchanges } from '../routing/exchangeIndex.js';
import { queuesReachedFrom } from '../routing/exchangeReach.js';
import { stronglyConnected } from './stronglyConnected.js';

const DAY_MS = 24 * 3600 * 1000;
/** the horizon of a design without long waits (what every run used before) */
export const BASE_HORIZON_MS = DAY_MS;
/** the longest horizon a run goes to: a year of virtual time (a run past it is cut, and says why) */
export const MAX_HORIZON_MS = 365 * DAY_MS;

export interface RetryHorizon {
  /** the horizon, virtual ms */
  readonly ms: number;
  /** the longest chain of TTL waits (virtual ms) and its queues in order */
  readonly chainMs: number;
  readonly chain: readonly string[];
  /** the chain is longer than MAX_HORIZON_MS: the horizon cuts it */
  readonly cut: boolean;
}

/** Each queue's TTL (arguments and policies) and the queues its dead letters can reach, whatever their key. */
function deadLetterGraph(topology: Topology): { ttl: Map<string, number>; next: Map<string, string[]> } {
  const index = compileExchanges(topology);
  const ttl = new Map<string, number>();
  const next = new Map<string, string[]>();
  const reach = new Map<string, string[]>();
  const reachOf = (exchange: string): string[] => {
    let r = reach.get(exchange);
    if (!r) reach.set(exchange, (r = [...queuesReachedFrom(index, [exchange])]));
    return r;
  };
  const settingsOf = queueSettingsOf(topology);
  for (const q of topology.queues) {
    const s = settingsOf.get(q.name)!.settings;
    if (s['x-queue-type']?.value === 'stream') continue;
    const dlx = s['x-dead-letter-exchange']?.value;
    // a TTL with no onward route ends the message where it rests (the words say when): no wait to follow
    if (typeof dlx !== 'string') continue;
    const t = s['x-message-ttl']?.value;
    if (typeof t === 'number' && t > 0) ttl.set(q.name, t);
    const dlrk = s['x-dead-letter-routing-key']?.value;
    // the default exchange routes by key: the dead-letter routing key's queue, else the message's own key (its queue)
    next.set(q.name, dlx === '' ? [typeof dlrk === 'string' ? dlrk : q.name] : reachOf(dlx));
  }
  return { ttl, next };
}

/** Rounds a loop goes before a consumer's counter stops it: the largest threshold any rule reads (at least 1). */
function roundsOf(design: Partial<Pick<Design, 'consumers'>>): number {
  let rounds = 1;
  for (const c of design.consumers ?? []) {
    const b = c.behaviour;
    const rules = b.kind === 'worker' ? b.onFailure : b.kind === 'router' ? b.rules : [];
    for (const r of rules)
      if ((r.when?.kind === 'lt' || r.when?.kind === 'gte') && Number.isFinite(r.when.value))
        rounds = Math.max(rounds, r.when.value);
  }
  return Math.min(rounds, MAX_ROUNDS);
}
/** a counter read against more rounds than this is not followed to its end by the horizon (the event bound takes over) */
const MAX_ROUNDS = 100;

type HorizonInput = Pick<Design, 'topology'> & Partial<Pick<Design, 'publishers' | 'consumers'>>;
const lastHorizons = new WeakMap<object, RetryHorizon>();

/**
 * The horizon for a design: its longest TTL chain (a loop counted for as many rounds as a consumer
 * counts, and once more) and a day, at least a day, at most a year. The same design, the same answer.
 */
export function retryHorizon(design: HorizonInput): RetryHorizon {
  let h = lastHorizons.get(design);
  if (!h) lastHorizons.set(design, (h = horizonOf(design)));
  return h;
}

function horizonOf(design: HorizonInput): RetryHorizon {
  const { ttl, next } = deadLetterGraph(design.topology);
  const rounds = roundsOf(design) + 1;
  const succ = (q: string): readonly string[] => next.get(q) ?? [];
  const comps = stronglyConnected(
    design.topology.queues.map((q) => q.name),
    succ,
  );
  const compOf = new Map<string, number>();
  comps.forEach((c, i) => c.forEach((q) => compOf.set(q, i)));
  // components come after the ones they reach: the longest chain from each, in one pass
  const longest: number[] = [];
  const via: (number | undefined)[] = [];
  comps.forEach((c, i) => {
    let best = 0;
    let bestVia: number | undefined;
    for (const q of c)
      for (const w of succ(q)) {
        const j = compOf.get(w);
        if (j === undefined || j === i) continue;
        if (longest[j]! > best) [best, bestVia] = [longest[j]!, j];
      }
    const loops = c.length > 1 || succ(c[0]!).includes(c[0]!);
    longest[i] = c.reduce((sum, q) => sum + (ttl.get(q) ?? 0), 0) * (loops ? rounds : 1) + best;
    via[i] = bestVia;
  });
  let start = -1;
  longest.forEach((l, i) => {
    if (start < 0 || l > longest[start]!) start = i;
  });
  const chain: string[] = [];
  for (let i: number | undefined = start; i !== undefined && i >= 0; i = via[i])
    chain.push(...comps[i]!.filter((q) => ttl.has(q)).reverse());
  // a message published with its own expiration waits that long first
  const expiration = Math.max(
    0,
    ...(design.publishers ?? []).map((p) => Number(p.properties?.expiration ?? 0)).filter(Number.isFinite),
  );
  const chainMs = (start < 0 ? 0 : longest[start]!) + expiration;
  const wanted = chainMs <= BASE_HORIZON_MS / 2 ? BASE_HORIZON_MS : Math.ceil(chainMs / DAY_MS) * DAY_MS + DAY_MS;
  return { ms: Math.min(wanted, MAX_HORIZON_MS), chainMs, chain, cut: wanted > MAX_HORIZON_MS };
}
