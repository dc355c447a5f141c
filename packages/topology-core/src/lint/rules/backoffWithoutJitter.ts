/**
 * `backoff-without-jitter`: an in-process exponential back-off with no jitter, run by many
 * consumers at once (listener concurrency, Celery's worker pool): when the dependency fails every
 * in-flight message waits the same 1, 2, 4 ... and retries in the same instant, a storm when the
 * dependency comes back (symfony PR #53328, celery's retry_jitter default True).
 */
import { defineRule } from '../defineRule.js';
import { consumerNodeId } from '../../model/nodeIds.js';
import { appConsumers, inProcessRetries, retryWaits, settingLine } from '../appRuleHelpers.js';
import { frameworkFix, retriesInStep } from '../../frameworks/traits.js';
import type { LintFinding } from '../types.js';

const ID = 'backoff-without-jitter';
/** listener threads (per instance) from which synchronised retries are a storm */
export const STORM_CONCURRENCY = 4;

export const backoffWithoutJitter = defineRule({
  id: ID,
  title: 'Exponential back-off without jitter across many consumers',
  description:
    'An in-process exponential back-off without jitter run by many consumers at once: every waiting message retries in the same instant when the dependency returns (a retry storm).',
  level: 'warning',
  help: "Add jitter (an ExponentialRandomBackOffPolicy, Celery's retry_jitter=True, MassTransit's Exponential) or fewer concurrent consumers.",
  check: (ctx) => {
    const out: LintFinding[] = [];
    for (const { consumer: c, source } of appConsumers(ctx)) {
      if (source.jitter === true) continue;
      const many = (source.concurrency ?? 1) >= STORM_CONCURRENCY || retriesInStep(source.framework);
      if (!many) continue;
      const growing = inProcessRetries(c).find((r) => {
        const w = retryWaits(r);
        return w.length >= 2 && w.some((x, i) => i > 0 && x > w[i - 1]!);
      });
      if (!growing) continue;
      const line = settingLine(
        source,
        'retry_jitter',
        'retry_backoff',
        'multiplier',
        'back-off-multiplier',
        'backOffOptions',
        'concurrency',
      );
      const who = retriesInStep(source.framework)
        ? 'every worker process'
        : `${source.concurrency} listener threads per instance`;
      out.push({
        id: ID,
        severity: 'warning',
        message: `${c.id} (${source.file}:${line}) backs off with growing waits (${retryWaits(growing).slice(0, 4).join(', ')} ms ...) with no jitter, and ${who} retry in step: when the dependency returns, every waiting message retries in the same instant.`,
        objects: [consumerNodeId(c.id)],
        fix: frameworkFix(source.framework, ID) ?? 'Add jitter to the back-off.',
        at: { file: source.file, line },
      });
    }
    return out;
  },
});
