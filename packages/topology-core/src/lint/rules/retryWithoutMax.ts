import { defineRule } from '../defineRule.js';
import { consumerNodeId, queueNodeId } from '../../model/nodeIds.js';
import { actionTargets, failureActions } from '../flow.js';
import type { LintFinding } from '../types.js';

export const retryWithoutMax = defineRule({
  id: 'retry-without-max',
  title: 'Retry loop without a maximum',
  description: 'A retry loop with no maximum: nothing counts attempts, so a poison message retries forever.',
  level: 'warning',
  help: 'Count x-death (or a header) in the consumer and park the message after N attempts.',
  check: (ctx, flow, say) => {
    const out: LintFinding[] = [];
    for (const c of ctx.design.consumers) {
      if (c.behaviour.kind === 'script') continue;
      const start = failureActions(c).filter(
        (x) => !x.bounded && (x.action.kind === 'reject' || x.action.kind === 'republish'),
      );
      if (start.length === 0) continue;
      const seen = new Set<string>();
      const work: string[] = [];
      for (const s of start) {
        const dlx = String(flow.args.get(c.queue)?.['x-dead-letter-exchange']);
        if (s.action.kind === 'reject' && flow.exchangeType(dlx) === 'radlx') {
          // radlx counts the retries; only its "dead" (header-bound) destinations can start a new cycle
          for (const b of flow.topology.bindings)
            if (
              b.source === dlx &&
              b.destination_type === 'queue' &&
              b.arguments &&
              Object.keys(b.arguments).some((k) => k !== 'x-match')
            )
              work.push(b.destination);
          continue;
        }
        for (const t of actionTargets(flow, c.queue, s.action)) work.push(t);
      }
      let loops = false;
      while (work.length > 0 && !loops) {
        const q = work.pop()!;
        if (q === c.queue) {
          loops = true;
          break;
        }
        if (seen.has(q)) continue;
        seen.add(q);
        const cs = flow.consumersByQueue.get(q);
        if (cs) {
          for (const other of cs)
            for (const x of failureActions(other))
              if (!x.bounded && x.action.kind !== 'requeue')
                for (const t of actionTargets(flow, q, x.action)) work.push(t);
        } else {
          const a = flow.args.get(q)!;
          if (a['x-message-ttl'] !== undefined || a['x-max-length'] !== undefined)
            if (flow.exchangeType(String(a['x-dead-letter-exchange'])) !== 'radlx')
              for (const t of flow.deadLetterTargets(q) ?? []) work.push(t);
        }
      }
      if (!loops) continue;
      out.push(
        say(
          'warning',
          `${c.id} sends failed messages from ${c.queue} around a retry loop that nothing counts: a poison message retries forever.`,
          [consumerNodeId(c.id), queueNodeId(c.queue)],
          'Add a rule with a limit (x-death count, an x-retries header, or the attempt count) that parks the message after N retries.',
        ),
      );
    }
    return out;
  },
});
