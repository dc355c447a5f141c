/**
 * `parked-dead-letters-expire`: a queue where dead letters come to rest (a dead-letter exchange
 * or a consumer's republish brings them, nobody consumes it) with a TTL and no onward route:
 * every parked dead letter is discarded when its TTL ends, unseen. Typically a policy that gives
 * every `*.dlq` 7 days. One finding per TTL and where it comes from (argument or policy).
 */
import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { describeSource } from '../../model/effectiveSettings.js';
import { formatDuration } from '../../text/formatDuration.js';
import { actionTargets, failureActions, type Flow } from '../flow.js';
import type { LintContext, LintFinding } from '../types.js';

const SENDERS_KEPT = 5;

/** Queues that dead letters (or a consumer's republish) reach and nobody consumes, with (the first few of) who sends them there. */
export function parkingQueues(ctx: LintContext, flow: Flow): Map<string, Set<string>> {
  const from = new Map<string, Set<string>>();
  const add = (to: string, by: string): void => {
    if (flow.consumersByQueue.has(to) || to === by) return;
    const s = from.get(to) ?? new Set<string>();
    if (s.size < SENDERS_KEPT) s.add(by);
    from.set(to, s);
  };
  // queues whose dead letters may take any key share one target set: walk each set once
  const bySet = new Map<ReadonlySet<string>, string[]>();
  for (const q of ctx.design.topology.queues) {
    const t = flow.deadLetterTargets(q.name);
    if (!t) continue;
    const l = bySet.get(t);
    if (!l) bySet.set(t, [q.name]);
    else if (l.length <= SENDERS_KEPT) l.push(q.name);
  }
  for (const [targets, senders] of bySet) for (const t of targets) for (const by of senders) add(t, by);
  for (const c of ctx.design.consumers)
    for (const x of failureActions(c))
      if (x.action.kind === 'republish') for (const t of actionTargets(flow, c.queue, x.action)) add(t, c.queue);
  // a queue that dead-letters onward is a hop, not a resting place
  for (const q of [...from.keys()])
    if (typeof flow.args.get(q)?.['x-dead-letter-exchange'] === 'string') from.delete(q);
  return from;
}

export const parkedDeadLettersExpire = defineRule({
  id: 'parked-dead-letters-expire',
  title: 'Parked dead letters expire',
  description:
    'A queue where dead letters come to rest has a TTL (argument or policy) and no onward route: parked dead letters are discarded when it runs out.',
  level: 'warning',
  help: 'Remove the TTL from the parking queue, or give it a dead-letter exchange that keeps what expires.',
  check: (ctx, flow, say) => {
    const groups = new Map<string, { ttl: number; source: string; queues: string[]; from: Set<string> }>();
    for (const [q, senders] of parkingQueues(ctx, flow)) {
      const s = flow.settings(q)?.settings['x-message-ttl'];
      if (!s || typeof s.value !== 'number') continue;
      const source = describeSource(s.source);
      const key = `${s.value}\u0000${source}`;
      const g = groups.get(key) ?? { ttl: s.value, source, queues: [], from: new Set<string>() };
      g.queues.push(q);
      for (const f of senders) g.from.add(f);
      groups.set(key, g);
    }
    const out: LintFinding[] = [];
    for (const g of groups.values()) {
      const ttl = formatDuration(g.ttl);
      const who =
        g.queues.length === 1
          ? `${g.queues[0]} holds dead letters (from ${[...g.from].join(', ')})`
          : `${g.queues.length} queues hold dead letters (${g.queues.join(', ')})`;
      out.push(
        say(
          'warning',
          `${who} and ${g.source} gives ${g.queues.length === 1 ? 'it' : 'them'} a TTL of ${ttl} with no dead-letter exchange: parked dead letters are discarded after ${ttl}, unseen.`,
          g.queues.map(queueNodeId),
          `If the dead letters must be kept until someone looks, remove the TTL from ${g.source}${g.source.startsWith('policy') ? ' (or make the policy skip these queues)' : ''}; if expiring them is intended, give the queue a dead-letter exchange to an archive, or alert on its depth well within ${ttl}.`,
        ),
      );
    }
    return out;
  },
});
