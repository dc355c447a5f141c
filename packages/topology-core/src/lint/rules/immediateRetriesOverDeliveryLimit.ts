/**
 * `immediate-retries-over-delivery-limit`: a framework's immediate retries that go back through
 * the broker (NServiceBus's Immediate retries, Spring's stateful retry) return one copy of a
 * message more times than its quorum queue's delivery limit allows (the queue's own, or 4.x's
 * default of 20): the broker dead-letters it (or drops it, without a DLX) before the framework's
 * delayed retries and error queue ever see it (NServiceBus.RabbitMQ #1550).
 */
import { defineRule } from '../defineRule.js';
import { consumerNodeId, queueNodeId } from '../../model/nodeIds.js';
import { describeSource } from '../../model/effectiveSettings.js';
import { appConsumers, settingLine } from '../appRuleHelpers.js';
import { frameworkFix } from '../../frameworks/traits.js';
import type { LintFinding } from '../types.js';

const ID = 'immediate-retries-over-delivery-limit';

/** Deliveries of one copy before the consumer does something other than requeue: the first `lt attempt T -> requeue` rule's T. */
function deliveriesPerCopy(
  rules: readonly { when?: { kind: string; counter?: { kind: string }; value?: number }; then: { kind: string } }[],
): number | undefined {
  const r = rules.find((x) => x.then.kind === 'requeue' && x.when?.kind === 'lt' && x.when.counter?.kind === 'attempt');
  return r?.when?.value;
}

export const immediateRetriesOverDeliveryLimit = defineRule({
  id: ID,
  title: 'Immediate retries above the quorum delivery limit',
  description:
    "Immediate retries that return the message to the broker (NServiceBus Immediate, Spring stateful retry) exceed the quorum queue's delivery limit (its own, or 4.x's default 20): the broker dead-letters or drops it before the framework's later retries run.",
  level: 'error',
  help: 'Retry through the broker fewer times than the delivery limit, or raise the limit (an x-delivery-limit argument; -1 cannot be set by policy).',
  check: (ctx, flow) => {
    const out: LintFinding[] = [];
    for (const { consumer: c, source } of appConsumers(ctx)) {
      if (c.behaviour.kind !== 'worker') continue;
      const t = deliveriesPerCopy(c.behaviour.onFailure);
      if (t === undefined) continue;
      // the queue as the broker runs it: argument, policy, or the profile's default limit
      const cfg = flow.config(c.queue);
      if (!cfg?.quorum || cfg.deliveryLimit === undefined) continue;
      const returns = t - 1;
      if (returns <= cfg.deliveryLimit) continue;
      const set = flow.settings(c.queue)?.settings['x-delivery-limit'];
      const where = set ? ` (${describeSource(set.source)})` : ` (RabbitMQ ${ctx.semantics.id}'s default)`;
      const line = settingLine(source, 'Immediate.NumberOfRetries', 'max-attempts', 'maxAttempts');
      out.push({
        id: ID,
        severity: 'error',
        message: `${c.id} (${source.file}:${line}) returns a failing message to ${c.queue} ${returns} times before it moves on, but the quorum queue's delivery limit is ${cfg.deliveryLimit}${where}: the broker dead-letters or drops it after ${cfg.deliveryLimit} returns, and the framework's later retries and error handling never run.`,
        objects: [consumerNodeId(c.id), queueNodeId(c.queue)],
        fix:
          frameworkFix(source.framework, ID) ??
          'Retry fewer times through the broker than the delivery limit, or raise the limit.',
        at: { file: source.file, line },
      });
    }
    return out;
  },
});
