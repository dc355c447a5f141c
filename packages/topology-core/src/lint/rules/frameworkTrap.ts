/**
 * `framework-setting-trap`: a setting that does what few expect, as the framework's reader named
 * it with its line (Spring Cloud Stream's `expires: 10000` deletes the group queue, with its
 * messages, 10 s after its last consumer goes; `dlq-expires` deletes the dead letters).
 */
import { defineRule } from '../defineRule.js';
import { consumerNodeId } from '../../model/nodeIds.js';
import { appConsumers } from '../appRuleHelpers.js';
import type { LintFinding } from '../types.js';

const ID = 'framework-setting-trap';

export const frameworkSettingTrap = defineRule({
  id: ID,
  title: 'A framework setting that loses messages in a way few expect',
  description:
    "A framework setting that loses messages in a way few expect: Spring Cloud Stream's expires deletes the group queue with its messages after its last consumer goes; dlq-expires deletes the dead letters of a DLQ nobody consumes.",
  level: 'warning',
  help: 'Remove the setting, or set it far above the longest time the application can be down.',
  check: (ctx) => {
    const out: LintFinding[] = [];
    const seen = new Set<string>();
    for (const { consumer: c, source } of appConsumers(ctx))
      for (const n of source.notes ?? []) {
        if (n.kind !== 'trap') continue;
        const file = n.file ?? source.file;
        if (seen.has(`${file}:${n.line}`)) continue;
        seen.add(`${file}:${n.line}`);
        out.push({
          id: ID,
          severity: 'warning',
          message: `${c.id}: ${n.text}.`,
          objects: [consumerNodeId(c.id), `queue:${c.queue}`],
          fix: n.fix ?? `Reconsider ${n.key ?? 'the setting'}.`,
          at: { file, line: n.line },
        });
      }
    return out;
  },
});
