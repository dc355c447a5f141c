/**
 * `framework-setting-trap`: a setting that does what few expect, as the framework's reader named
 * it with its line (Spring Cloud Stream's `expires: 10000` deletes the group queue, with its
 * messages, 10 s after its last consumer goes; `dlq-expires` deletes the dead letters).
 */
import { consumerNodeId } from '../../model/nodeIds.js';
import { appConsumers } from '../appRuleHelpers.js';
import type { LintFinding, LintRule } from '../types.js';

const ID = 'framework-setting-trap';

export const frameworkSettingTrap: LintRule = {
  id: ID,
  title: 'A framework setting that loses messages in a way few expect',
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
};
