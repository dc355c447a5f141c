import { defineRule } from '../defineRule.js';
import { exchangeNodeId, queueNodeId } from '../../model/nodeIds.js';
import { describeChange, exchangeDeclarationChanges, queueDeclarationChanges } from '../../model/settingChanges.js';
import type { LintFinding } from '../types.js';

export const immutableArgumentChange = defineRule({
  id: 'immutable-argument-change',
  title: 'Changing arguments RabbitMQ will not change in place',
  description:
    'A queue or exchange argument differs from the deployed one, and RabbitMQ does not change x- arguments in place: the declaration fails with PRECONDITION_FAILED.',
  level: 'error',
  help: 'Move the setting into a policy (changed in place), or create a new queue and move the messages.',
  check: (ctx, _flow, say) => {
    const prev = ctx.previous;
    if (!prev) return [];
    const out: LintFinding[] = [];
    // declarations as written (what the broker compares on redeclare), the table the deploy plan reads (model/settingChanges.ts)
    for (const q of ctx.design.topology.queues) {
      const old = prev.queues.find((x) => x.name === q.name);
      if (!old) continue;
      const changed = queueDeclarationChanges(old, q);
      if (changed.length === 0) continue;
      out.push(
        say(
          'error',
          `${q.name} already exists with different ${changed.map((c) => c.field.replace(/^arguments\./, '')).join(', ')} (${changed.map(describeChange).join('; ')}): redeclaring fails with PRECONDITION_FAILED (inequivalent arg).`,
          [queueNodeId(q.name)],
          'Set TTL, DLX, length limits and delivery-limit through a policy instead (a policy changes in place), or create a new queue and move consumers to it.',
        ),
      );
    }
    for (const x of ctx.design.topology.exchanges) {
      const old = prev.exchanges.find((e) => e.name === x.name);
      if (!old) continue;
      if (exchangeDeclarationChanges(old, x).length > 0)
        out.push(
          say(
            'error',
            `${x.name} already exists as ${old.type}${old.arguments && Object.keys(old.arguments).length ? ` ${JSON.stringify(old.arguments)}` : ''}; declaring it as ${x.type}${x.arguments && Object.keys(x.arguments).length ? ` ${JSON.stringify(x.arguments)}` : ''} fails with PRECONDITION_FAILED.`,
            [exchangeNodeId(x.name)],
            'Use a new exchange name, or delete and recreate the exchange (its bindings go with it).',
          ),
        );
    }
    return out;
  },
});
