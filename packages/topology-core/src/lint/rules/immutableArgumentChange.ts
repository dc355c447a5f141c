import { exchangeNodeId, queueNodeId } from '../../model/nodeIds.js';
import { finding } from '../ruleHelpers.js';
import type { LintFinding, LintRule } from '../types.js';

export const immutableArgumentChange: LintRule = {
  id: 'immutable-argument-change',
  title: 'Changing arguments RabbitMQ will not change in place',
  check: (ctx) => {
    const prev = ctx.previous;
    if (!prev) return [];
    const out: LintFinding[] = [];
    const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
    for (const q of ctx.design.topology.queues) {
      const old = prev.queues.find((x) => x.name === q.name);
      if (!old) continue;
      const keys = new Set(
        [...Object.keys(old.arguments ?? {}), ...Object.keys(q.arguments ?? {})].filter((k) => k.startsWith('x-')),
      );
      const changed = [...keys].filter((k) => !same(old.arguments?.[k], q.arguments?.[k]));
      if ((old.durable ?? true) !== (q.durable ?? true)) changed.push('durable');
      if ((old.auto_delete ?? false) !== (q.auto_delete ?? false)) changed.push('auto_delete');
      if (changed.length === 0) continue;
      out.push(
        finding(
          'immutable-argument-change',
          'error',
          `${q.name} already exists with different ${changed.join(', ')} (${changed.map((k) => `${k}: ${JSON.stringify(k === 'durable' ? old.durable : k === 'auto_delete' ? old.auto_delete : old.arguments?.[k])} -> ${JSON.stringify(k === 'durable' ? q.durable : k === 'auto_delete' ? q.auto_delete : q.arguments?.[k])}`).join('; ')}): redeclaring fails with PRECONDITION_FAILED (inequivalent arg).`,
          [queueNodeId(q.name)],
          'Set TTL, DLX, length limits and delivery-limit through a policy instead, or create a new queue and move consumers to it.',
        ),
      );
    }
    for (const x of ctx.design.topology.exchanges) {
      const old = prev.exchanges.find((e) => e.name === x.name);
      if (!old) continue;
      if (old.type !== x.type || !same(old.arguments, x.arguments) || (old.durable ?? true) !== (x.durable ?? true))
        out.push(
          finding(
            'immutable-argument-change',
            'error',
            `${x.name} already exists as ${old.type}${old.arguments && Object.keys(old.arguments).length ? ` ${JSON.stringify(old.arguments)}` : ''}; declaring it as ${x.type}${x.arguments && Object.keys(x.arguments).length ? ` ${JSON.stringify(x.arguments)}` : ''} fails with PRECONDITION_FAILED.`,
            [exchangeNodeId(x.name)],
            'Use a new exchange name, or delete and recreate the exchange (its bindings go with it).',
          ),
        );
    }
    return out;
  },
};
