/**
 * `dead-letter-cycle-unbounded`: a definitions file has no consumers, but its retry loops are
 * there. With the core's assumption (lint/assumedConsumers.ts: a work queue's consumer rejects
 * what it fails on, wait and parking queues have none), every dead-letter cycle through a work
 * queue that nothing in the topology bounds (a radlx exchange counts and leaves the loop) keeps
 * a failing message going round for ever: only a consumer counting x-death ends it. Cycles of
 * TTL / max-length hops alone are automatic-cycle-dropped's (RabbitMQ drops those itself).
 * One finding per loop (strongly connected group of queues), its queues in order.
 */
import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { assumedConsumers } from '../assumedConsumers.js';
import { unusedParkingExits } from '../unusedParkingExits.js';
import { formatDuration } from '../../text/formatDuration.js';
import { stronglyConnected } from '../../sim/stronglyConnected.js';
import type { Flow } from '../flow.js';
import type { LintFinding } from '../types.js';

/** The shortest cycle from `start` back to itself inside `within`, queues in order. */
function cycleThrough(start: string, within: ReadonlySet<string>, next: (n: string) => readonly string[]): string[] {
  const prev = new Map<string, string>();
  const queue = [start];
  for (let h = 0; h < queue.length; h++) {
    const n = queue[h]!;
    for (const w of next(n)) {
      if (!within.has(w)) continue;
      if (w === start) {
        const path = [n];
        while (path[0] !== start) path.unshift(prev.get(path[0]!)!);
        return path;
      }
      if (!prev.has(w)) {
        prev.set(w, n);
        queue.push(w);
      }
    }
  }
  return [start];
}

const ttlOf = (flow: Flow, q: string): number | undefined => {
  const v = flow.args.get(q)?.['x-message-ttl'];
  return typeof v === 'number' ? v : undefined;
};

export const deadLetterCycleUnbounded = defineRule({
  id: 'dead-letter-cycle-unbounded',
  title: 'Dead-letter cycle that nothing in the topology bounds',
  description:
    'A dead-letter cycle through a work queue (work -> dead-letter exchange -> wait queue -> back) in a file without consumers: with the consumer lint assumes (it rejects what it fails on), only a consumer that counts x-death and stops ends it; a poison message otherwise cycles forever. A parking exchange that no queue dead-letters into is named: nothing in the topology leads the loop there.',
  level: 'warning',
  help: 'Make the consumer count x-death (or a header) and park the message after N attempts, or give the work queue a quorum delivery limit.',
  check: (ctx, flow, say) => {
    if (ctx.consumersKnown) return [];
    const { roles } = assumedConsumers(ctx.design.topology);
    const moves = (q: string): boolean => {
      if (roles[q] === 'work') return true;
      const a = flow.args.get(q) ?? {};
      return roles[q] === 'wait' || a['x-max-length'] !== undefined || a['x-max-length-bytes'] !== undefined;
    };
    const next = (q: string): readonly string[] => {
      if (!moves(q)) return [];
      // a radlx exchange counts the retries and leaves the loop by itself: it bounds it
      if (flow.exchangeType(String(flow.args.get(q)?.['x-dead-letter-exchange'])) === 'radlx') return [];
      const t = flow.deadLetterTargets(q);
      if (!t) return [];
      // only queues that move messages on can close a loop; shared target sets are filtered once
      let r = filtered.get(t);
      if (!r) filtered.set(t, (r = [...t].filter(moves)));
      return r;
    };
    const filtered = new Map<ReadonlySet<string>, string[]>();
    const memo = new Map<string, readonly string[]>();
    const cachedNext = (q: string): readonly string[] => {
      let r = memo.get(q);
      if (!r) memo.set(q, (r = next(q)));
      return r;
    };
    const out: LintFinding[] = [];
    const names = ctx.design.topology.queues.map((q) => q.name);
    // the same for every loop of the file: worked out once, when the first loop is found
    let exits: string[] | undefined;
    const order = new Map(names.map((n, i) => [n, i]));
    for (const comp of stronglyConnected(names, cachedNext)) {
      const within = new Set(comp);
      const self = comp.length === 1 && cachedNext(comp[0]!).includes(comp[0]!);
      if (comp.length < 2 && !self) continue;
      // the loop's queues in file order (a component is small: sort it, never scan every queue per loop)
      const members = [...within].sort((a, b) => order.get(a)! - order.get(b)!);
      const work = members.filter((n) => roles[n] === 'work');
      if (work.length === 0) continue; // TTL / max-length only: automatic-cycle-dropped
      const start = work[0]!;
      const cycle = cycleThrough(start, within, cachedNext);
      // a work queue's worker rejects at once: its TTL (a job timeout) is no part of the round
      const waiting = cycle.filter((q) => roles[q] !== 'work' && ttlOf(flow, q) !== undefined);
      const waits = waiting.map((q) => ttlOf(flow, q)!);
      const round =
        waits.length > 0
          ? `, about every ${formatDuration(waits.reduce((a, b) => a + b, 0))} (the TTL of ${waiting.join(', ')})`
          : ' at once, back to back';
      exits ??= unusedParkingExits(flow);
      const exitText =
        exits.length > 0
          ? ` The parking exchange${exits.length === 1 ? '' : 's'} ${exits.slice(0, 3).join(', ')} ${exits.length === 1 ? 'is' : 'are'} no queue's dead-letter exchange: nothing in the topology leads the loop there, only a consumer that republishes to ${exits.length === 1 ? 'it' : 'them'}.`
          : '';
      const others =
        comp.length > cycle.length ? ` (${comp.length} queues take part in this loop: ${members.join(', ')})` : '';
      out.push(
        say(
          'warning',
          `${[...cycle, start].join(' -> ')}: a dead-letter cycle that nothing in the topology bounds${others}. A definitions file has no consumers; assuming ${work.join(', ')} ${work.length === 1 ? 'rejects' : 'reject'} what ${work.length === 1 ? 'its consumer fails' : 'their consumers fail'} on (as import-broker scaffolds), a message that keeps failing goes round for ever${round}: only a consumer that counts x-death (the count for ${start}, reason rejected) and parks the message ends it.${exitText}`,
          within.size > cycle.length ? members.map(queueNodeId) : cycle.map(queueNodeId),
          `Make sure the consumer of ${start} reads x-death and parks the message after N rounds (republish it to a parking queue and ack), or bound the loop in the topology (a radlx exchange, or a last hop to a parking queue).`,
        ),
      );
    }
    return out;
  },
});
