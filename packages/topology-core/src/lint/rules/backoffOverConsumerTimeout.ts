/**
 * `backoff-over-consumer-timeout`: an in-process retry holds the delivery unacked for the sum of
 * its waits; past the broker's consumer timeout (30 min by default, `consumer_timeout`; the
 * queue's x-consumer-timeout or consumer-timeout policy) the broker closes the channel (4.3: cancels
 * the consumer), the message is requeued and the whole retry starts over, for ever (dramatiq PR
 * #871, Celery ETA tasks). RabbitMQ 4.3 no longer evaluates the timeout on classic queues.
 */
import { defineRule } from '../defineRule.js';
import { consumerNodeId, queueNodeId } from '../../model/nodeIds.js';
import { formatMs } from '../../text/formatDuration.js';
import { appConsumers, inProcessRetries, retryWaits, settingLine } from '../appRuleHelpers.js';
import { frameworkFix } from '../../frameworks/traits.js';
import type { LintFinding } from '../types.js';

const ID = 'backoff-over-consumer-timeout';
/** rabbitmq.conf consumer_timeout default (docs consumers#acknowledgement-timeout) */
export const DEFAULT_CONSUMER_TIMEOUT_MS = 30 * 60_000;

export const backoffOverConsumerTimeout = defineRule({
  id: ID,
  title: 'In-process back-off longer than the consumer timeout',
  description:
    "An in-process retry holds the delivery unacked longer than the broker's consumer timeout (30 min by default): the broker takes the delivery back and the retry starts over.",
  level: 'error',
  help: 'Keep in-process waits under the consumer timeout and move long waits to the broker (TTL wait queues, delayed redelivery, quorum delayed retry).',
  check: (ctx, flow) => {
    const out: LintFinding[] = [];
    for (const { consumer: c, source } of appConsumers(ctx)) {
      const args = flow.args.get(c.queue) ?? {};
      const classic = args['x-queue-type'] !== 'quorum' && args['x-queue-type'] !== 'stream';
      if (classic && !ctx.semantics.classicConsumerTimeout) continue;
      const own = args['x-consumer-timeout'];
      const timeout = typeof own === 'number' ? own : DEFAULT_CONSUMER_TIMEOUT_MS;
      for (const r of inProcessRetries(c)) {
        const held = retryWaits(r).reduce((a, b) => a + b, 0);
        if (held <= timeout) continue;
        const line = settingLine(
          source,
          'max-interval',
          'back-off-max-interval',
          'backOffOptions',
          'UseMessageRetry',
          'retry_backoff_max',
          'default_retry_delay',
          'self.retry',
          'max-attempts',
          'max_retries',
        );
        out.push({
          id: ID,
          severity: 'error',
          message: `${c.id} (${source.file}:${line}) holds a failing message unacked for ${formatMs(held)} of in-process back-off (${r.maxAttempts} attempts), longer than the consumer timeout of ${formatMs(timeout)}${typeof own === 'number' ? '' : ' (the broker default)'}: the broker takes the delivery back and the retry starts over.`,
          objects: [consumerNodeId(c.id), queueNodeId(c.queue)],
          fix:
            frameworkFix(source.framework, ID) ??
            'Keep the in-process waits under the consumer timeout; move long waits to the broker.',
          at: { file: source.file, line },
        });
        break;
      }
    }
    return out;
  },
});
