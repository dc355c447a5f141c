/**
 * `framework-queue-refused`: the framework declares its listener's queue with an argument the
 * broker line refuses outright (Spring Cloud Stream's anonymous group: Spring AMQP's
 * AnonymousQueue adds x-queue-master-locator, which RabbitMQ 4.x answers by closing the channel).
 * The queue never exists, the listener never consumes, and what is sent to its exchange is
 * unroutable. Measured with the real binder on 4.3.6 (prove-app).
 */
import { refusedQueueArguments } from '../../model/arguments.js';
import { consumerNodeId, queueNodeId } from '../../model/nodeIds.js';
import { frameworkFix, frameworkTitle } from '../../frameworks/traits.js';
import { appConsumers, settingLine } from '../appRuleHelpers.js';
import { defineRule } from '../defineRule.js';
import type { LintFinding } from '../types.js';

const ID = 'framework-queue-refused';

export const frameworkQueueRefused = defineRule({
  id: ID,
  title: 'The framework declares its queue with an argument the broker refuses: it never consumes',
  description:
    "The framework declares its listener's queue with an argument the broker line refuses outright: Spring Cloud Stream's anonymous groups are Spring AMQP AnonymousQueues with x-queue-master-locator (Spring AMQP up to 3.2.10 and 4.0.3), which RabbitMQ 4.x answers by closing the channel. The queue is never declared and the binding never consumes (measured with the real binder on 4.3.6).",
  level: 'error',
  help: 'Give the binding a group (a durable group queue carries no locator), or run Spring AMQP 3.2.11+ / 4.0.4+ (Spring Boot 3.5.15+ / 4.0.7+), which declares x-queue-leader-locator.',
  check: (ctx) => {
    const out: LintFinding[] = [];
    for (const { consumer: c, source } of appConsumers(ctx)) {
      const q = ctx.design.topology.queues.find((x) => x.name === c.queue);
      const refused = refusedQueueArguments(q?.arguments, ctx.profile);
      if (!q || refused.length === 0) continue;
      out.push({
        id: ID,
        severity: 'error',
        message: `${c.id}: ${frameworkTitle(source.framework)} declares ${q.name} with ${refused.join(', ')}, which RabbitMQ ${ctx.profile} refuses (the channel is closed without a reply and the queue is not declared): ${c.id} never consumes, and what is sent to its exchange is unroutable.`,
        objects: [consumerNodeId(c.id), queueNodeId(q.name)],
        fix:
          frameworkFix(source.framework, ID) ??
          `Declare ${q.name} without ${refused.join(', ')} (x-queue-leader-locator replaces x-queue-master-locator).`,
        at: { file: source.file, line: settingLine(source, ...refused) },
      });
    }
    return out;
  },
});
