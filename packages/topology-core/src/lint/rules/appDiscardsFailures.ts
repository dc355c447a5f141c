/**
 * `app-discards-failures`: an application that gives up on a message that still fails and acks
 * it (Spring's stateless retry with no recoverer, MassTransit's DiscardFaultedMessages, a Celery
 * task out of retries): the broker forgets it, nothing keeps it, and every place that states
 * outcomes says `discarded`. Named at the line that decides it.
 */
import { defineRule } from '../defineRule.js';
import type { ConsumerAction } from '../../model/consumer.js';
import { consumerNodeId } from '../../model/nodeIds.js';
import { frameworkFix } from '../../frameworks/traits.js';
import { appConsumers, settingLine } from '../appRuleHelpers.js';
import { failureActions } from '../flow.js';
import type { LintFinding } from '../types.js';

const ID = 'app-discards-failures';

const discards = (a: ConsumerAction): boolean =>
  a.kind === 'discard' || (a.kind === 'retryInProcess' && discards(a.recover));

export const appDiscardsFailures = defineRule({
  id: ID,
  title: 'The application acks a message it gave up on: lost',
  description:
    "The application gives up on a message that still fails and acks it (Spring's stateless retry with no recoverer, MassTransit's DiscardFaultedMessages, a Celery task out of retries): the broker forgets it and nothing keeps it. Its outcome is discarded, not acked.",
  level: 'warning',
  help: 'End the retry in a way that keeps the message: reject it to a dead-letter exchange, or publish it to an error queue.',
  check: (ctx) => {
    const out: LintFinding[] = [];
    for (const { consumer: c, source } of appConsumers(ctx)) {
      if (!failureActions(c).some(({ action }) => discards(action))) continue;
      const line = settingLine(
        source,
        'recoverer',
        'DiscardFaultedMessages',
        'max_retries',
        'autoretry_for',
        'self.retry',
        'republish-to-dlq',
      );
      out.push({
        id: ID,
        severity: 'warning',
        message: `${c.id} (${source.file}:${line}) acks a message that still fails once it gives up: the broker forgets it and nothing keeps it (discarded, not processed).`,
        objects: [consumerNodeId(c.id)],
        fix:
          frameworkFix(source.framework, ID) ??
          'End the retry in a way that keeps the message: reject it to a dead-letter exchange, or publish it to an error queue.',
        at: { file: source.file, line },
      });
    }
    return out;
  },
});
