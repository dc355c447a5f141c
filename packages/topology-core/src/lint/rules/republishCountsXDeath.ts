/**
 * `republish-counts-x-death`: a framework republishes a failed message with its headers (Spring
 * Cloud Stream's republish-to-dlq, a RepublishMessageRecoverer, NServiceBus's delayed retries) into
 * a queue whose dead letters come back to the consumer: the copy carries the x-death the client
 * sent, and since RabbitMQ 4.0 the broker no longer reads a republished x-death (rabbitmq-server
 * #10709, spring-amqp #2688): a loop that counts its rounds by x-death starts again at 1 every
 * time and never stops. On 3.x it still counts, so it breaks at the upgrade.
 */
import { defineRule } from '../defineRule.js';
import { consumerNodeId, queueNodeId } from '../../model/nodeIds.js';
import { appConsumers, settingLine } from '../appRuleHelpers.js';
import { actionTargets, failureActions, type Flow } from '../flow.js';
import { frameworkFix } from '../../frameworks/traits.js';
import type { LintFinding } from '../types.js';

const ID = 'republish-counts-x-death';

/** Whether dead letters from `from` reach `to`, through queues nobody consumes. */
function comesBack(flow: Flow, from: string, to: string, seen = new Set<string>()): boolean {
  if (seen.has(from)) return false;
  seen.add(from);
  const t = flow.deadLetterTargets(from);
  if (!t) return false;
  if (t.has(to)) return true;
  for (const q of t) if (!flow.consumersByQueue.has(q) && comesBack(flow, q, to, seen)) return true;
  return false;
}

export const republishCountsXDeath = defineRule({
  id: ID,
  title: 'A republished copy relies on x-death, which RabbitMQ 4.x no longer counts',
  description:
    'A framework republishes a failed message with its headers into a queue whose dead letters come back: on RabbitMQ 4.x the broker no longer counts a republished x-death, so a loop bounded by x-death never ends.',
  level: 'warning',
  help: 'Count rounds in a header of your own (Spring AMQP retry-count) or let the broker dead-letter the message so x-death counts.',
  check: (ctx, flow) => {
    const out: LintFinding[] = [];
    for (const { consumer: c, source } of appConsumers(ctx)) {
      for (const { action } of failureActions(c)) {
        if (action.kind !== 'republish' || action.copyHeaders === false) continue;
        const into = [...actionTargets(flow, c.queue, action)].filter(
          (q) => q !== c.queue && !flow.consumersByQueue.has(q) && comesBack(flow, q, c.queue),
        );
        if (into.length === 0) continue;
        const line = settingLine(source, 'republish-to-dlq', 'dlq-dead-letter-exchange', 'recoverer');
        out.push({
          id: ID,
          severity: ctx.semantics.ignoreClientXDeath ? 'warning' : 'info',
          message: `${c.id} (${source.file}:${line}) republishes failed messages with their headers into ${into.join(', ')}, whose dead letters return to ${c.queue}: the copy's x-death is the client's, and ${ctx.semantics.ignoreClientXDeath ? 'on RabbitMQ 4.x' : 'after an upgrade to RabbitMQ 4.x'} the broker does not count it, so a loop that stops after N x-death rounds never stops.`,
          objects: [consumerNodeId(c.id), ...into.map(queueNodeId)],
          fix:
            frameworkFix(source.framework, ID) ??
            'Count rounds in a header of your own, or let the broker dead-letter the message so x-death counts.',
          at: { file: source.file, line },
        });
        break;
      }
    }
    return out;
  },
});
