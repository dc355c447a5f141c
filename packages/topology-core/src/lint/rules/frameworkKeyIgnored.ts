/**
 * `framework-key-ignored`: a key the framework never reads, as the reader noted it with its line:
 * a key that does not exist (`retry.max-attempt`, Celery's `task_max_retries`), one the version
 * no longer reads (Spring Boot 4 renamed `retry.max-attempts` to `retry.max-retries`), each checked
 * against the framework's table of real keys. The default applies instead of what the file says.
 */
import { defineRule } from '../defineRule.js';
import { consumerNodeId } from '../../model/nodeIds.js';
import { appConsumers } from '../appRuleHelpers.js';
import type { LintFinding } from '../types.js';

const ID = 'framework-key-ignored';

export const frameworkKeyIgnored = defineRule({
  id: ID,
  title: 'A configuration key the framework never reads',
  description:
    "A configuration key the framework never reads: one that does not exist (retry.max-attempt, Celery's task_max_retries), or one this version no longer reads (Spring Boot 4 reads retry.max-retries, retries after the first delivery, and ignores retry.max-attempts). Each key is checked against the framework's table of real keys; the default applies instead of what the file says.",
  level: 'warning',
  help: 'Write the key the framework reads (the finding names the likeliest one; max-retries = max-attempts - 1 on Spring Boot 4).',
  check: (ctx) => {
    const out: LintFinding[] = [];
    const seen = new Set<string>();
    for (const { consumer: c, source } of appConsumers(ctx))
      for (const n of source.notes ?? []) {
        if (n.kind !== 'ignored-key') continue;
        const file = n.file ?? source.file;
        const k = `${file}:${n.line}`;
        if (seen.has(k)) continue;
        seen.add(k);
        out.push({
          id: ID,
          severity: 'warning',
          message: `${n.text}.`,
          objects: [consumerNodeId(c.id)],
          fix: n.fix ?? `Remove or rename ${n.key ?? 'the key'} as the framework version expects.`,
          at: { file, line: n.line },
        });
      }
    return out;
  },
});
