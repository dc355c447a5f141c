/**
 * `framework-key-ignored`: a key the framework version ignores, as the reader noted it (Spring
 * Boot 4 renamed `retry.max-attempts` to `retry.max-retries`, retries after the first delivery,
 * and ignores the old key: the default applies, one attempt more than the file says).
 */
import { defineRule } from '../defineRule.js';
import { consumerNodeId } from '../../model/nodeIds.js';
import { appConsumers } from '../appRuleHelpers.js';
import type { LintFinding } from '../types.js';

const ID = 'framework-key-ignored';

function fixFor(key: string | undefined, text: string): string {
  if (key?.endsWith('retry.max-attempts')) {
    const n = /\((\d+) attempts in all\)/.exec(text)?.[1];
    return n !== undefined
      ? `On Spring Boot 4 write ${key.replace(/max-attempts$/, 'max-retries')}: ${Math.max(0, Number(n) - 1)} (retries after the first delivery); keep max-attempts only while the application runs on Boot 2/3.`
      : `Remove ${key}: Spring Boot 4 reads max-retries only.`;
  }
  return `Remove or rename ${key ?? 'the key'} as the framework version expects.`;
}

export const frameworkKeyIgnored = defineRule({
  id: ID,
  title: 'A configuration key the framework version ignores',
  description:
    'A configuration key the framework version ignores (Spring Boot 4 reads retry.max-retries, retries after the first delivery, and ignores retry.max-attempts): the default applies instead of what the file says.',
  level: 'warning',
  help: 'Write the key the framework version reads (max-retries = max-attempts - 1 on Spring Boot 4).',
  check: (ctx) => {
    const out: LintFinding[] = [];
    const seen = new Set<string>();
    for (const { consumer: c, source } of appConsumers(ctx))
      for (const n of source.notes ?? []) {
        if (n.kind !== 'ignored-key') continue;
        const k = `${source.file}:${n.line}`;
        if (seen.has(k)) continue;
        seen.add(k);
        out.push({
          id: ID,
          severity: 'warning',
          message: `${n.text}.`,
          objects: [consumerNodeId(c.id)],
          fix: fixFor(n.key, n.text),
          at: { file: source.file, line: n.line },
        });
      }
    return out;
  },
});
