/**
 * `requeue-rejected-forever`: a framework configured to retry nothing in process and to requeue
 * what fails (Spring's default-requeue-rejected, true unless said; the binder's requeue-rejected):
 * a message that always fails is redelivered at once, for ever, unless a quorum delivery limit
 * that counts its returns stops it (spring-cloud-stream #627, spring-boot #7631).
 */
import { defineRule } from '../defineRule.js';
import { consumerNodeId, queueNodeId } from '../../model/nodeIds.js';
import { appConsumers, settingLine } from '../appRuleHelpers.js';
import { failureActions } from '../flow.js';
import { frameworkFix } from '../../frameworks/traits.js';
import type { LintFinding } from '../types.js';

const ID = 'requeue-rejected-forever';

export const requeueRejectedForever = defineRule({
  id: ID,
  title: 'Retries off and failed messages requeued: endless redelivery',
  description:
    "A framework retries nothing in process and requeues what fails (Spring's default-requeue-rejected is true unless said; the binder's requeue-rejected): a message that always fails is redelivered at once, for ever.",
  level: 'error',
  help: 'Requeue nothing once the framework has retried: default-requeue-rejected false / requeue-rejected false with a dead-letter exchange, or enable retry with a recoverer that rejects.',
  check: (ctx, flow) => {
    const out: LintFinding[] = [];
    for (const { consumer: c, source } of appConsumers(ctx)) {
      const loops = failureActions(c).some(({ action, bounded }) => !bounded && action.kind === 'requeue');
      if (!loops) continue;
      const cfg = flow.config(c.queue);
      // a delivery limit stops it, unless 4.3 does not count this requeue (a nack)
      const limitHolds = cfg?.quorum && cfg.deliveryLimit !== undefined && !ctx.semantics.onlyRejectsCountTowardLimit;
      if (limitHolds) continue;
      const line = settingLine(
        source,
        'default-requeue-rejected',
        'requeue-rejected',
        'setDefaultRequeueRejected',
        'retry.enabled',
        'max-attempts',
      );
      out.push({
        id: ID,
        severity: 'error',
        message: `${c.id} (${source.file}:${line}) retries nothing in process and requeues a message that fails: ${c.queue} redelivers it at once, for ever, and it holds a consumer the whole time.`,
        objects: [consumerNodeId(c.id), queueNodeId(c.queue)],
        fix:
          frameworkFix(source.framework, ID) ??
          'Reject without requeue (to a dead-letter exchange) once the framework has retried.',
        at: { file: source.file, line },
      });
    }
    return out;
  },
});
