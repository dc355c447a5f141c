/**
 * `definitions-field-refused`: a definitions file leaves out a queue or exchange field the linted
 * broker line cannot import without (model/definitionFields.ts, measured: 3.10.8 answers 400
 * function_clause for a queue without `auto_delete` or `durable`, an exchange without `durable`;
 * 4.3.6 fills in the defaults). The reader fills in the defaults too, so every other command reads
 * the file; this says the broker will not.
 */
import { defineRule } from '../defineRule.js';
import { exchangeNodeId, queueNodeId } from '../../model/nodeIds.js';
import { refusedOmissions, type OmittedField } from '../../model/definitionFields.js';
import { nameList } from '../../text/nameList.js';
import type { LintFinding } from '../types.js';

export const definitionsFieldRefused = defineRule({
  id: 'definitions-field-refused',
  title: 'A definitions file leaves out a field the broker line requires',
  description:
    'The definitions file leaves out a queue or exchange field the broker line cannot import without (measured: RabbitMQ 3.10.8 answers 400 function_clause for a queue without auto_delete or durable, an exchange without durable; 4.3.6 fills in the defaults).',
  level: 'error',
  help: 'Write durable and auto_delete on every queue and durable on every exchange (any export of this tool does).',
  check: (ctx, _flow, say) => {
    const r = refusedOmissions(ctx.omittedFields, ctx.profile);
    if (!r || r.refused.length === 0) return [];
    const groups = new Map<string, OmittedField[]>();
    for (const o of r.refused) groups.set(`${o.kind} ${o.field}`, [...(groups.get(`${o.kind} ${o.field}`) ?? []), o]);
    const out: LintFinding[] = [];
    for (const [what, list] of groups) {
      const [kind, field] = what.split(' ') as [OmittedField['kind'], OmittedField['field']];
      const names = list.map((o) => o.name);
      out.push(
        say(
          'error',
          `${list.length} ${kind}${list.length === 1 ? '' : 's'} (${nameList(names)}) ${list.length === 1 ? 'has' : 'have'} no "${field}" field: RabbitMQ ${ctx.profile} refuses the import (${r.answer}, measured on ${r.measuredOn}; it had created ${r.createdFirst} when it answered).`,
          names.map((n) => (kind === 'queue' ? queueNodeId(n) : exchangeNodeId(n))),
          `Write "${field}" on every ${kind} (false for auto_delete, true for durable, as the broker's own exports do), or export the file again with this tool (retry-studio export FILE --format definitions).`,
        ),
      );
    }
    return out;
  },
});
