/**
 * What each lint rule is about, for reports that describe rules apart from their findings
 * (SARIF's rule table, `--help`): a full description, the level it usually reports at, and how
 * to fix what it finds. Every rule in rules.ts has an entry (a test holds them together).
 */
import type { LintSeverity } from './types.js';
import { DELAYED_RETRY_POLICY_FIX } from '../model/delayedRetry.js';

export interface LintRuleDoc {
  /** what the rule finds and why it matters */
  readonly description: string;
  /** the level a finding usually has (some findings are raised or lowered by context) */
  readonly level: LintSeverity;
  /** how to fix what it finds */
  readonly help: string;
}

export const RULE_DOCS: Readonly<Record<string, LintRuleDoc>> = {
  'requeue-without-limit': {
    description:
      'A consumer requeues a failed message with nothing to stop it (no delivery limit, no counter): the message is redelivered at once, forever, and blocks the queue.',
    level: 'error',
    help: 'Give the queue a quorum delivery limit, count attempts in the consumer, or dead-letter instead of requeueing.',
  },
  'dead-letter-unroutable': {
    description:
      "A queue's dead letters reach a dead-letter exchange with no binding (or alternate exchange) for their routing key: RabbitMQ drops them.",
    level: 'warning',
    help: "Bind a queue to the dead-letter exchange for the queue's dead-letter routing key, or give the exchange an alternate exchange.",
  },
  'dlx-missing': {
    description: 'A queue names a dead-letter exchange that is not declared: its dead letters are dropped.',
    level: 'error',
    help: 'Declare the dead-letter exchange, or correct the x-dead-letter-exchange argument or policy.',
  },
  'dlx-fanout-redelivers-to-all': {
    description:
      'Dead letters are copied to several queues: through a fanout exchange to every bound queue, through a direct or topic exchange to every consumed queue bound for their key (a wait queue dead-lettering back into a shared exchange): every retry is delivered again to all of them, not only to the one that failed.',
    level: 'warning',
    help: 'Use a dead-letter routing key per queue (e.g. its own name through a direct exchange), or a dead-letter exchange of its own.',
  },
  'per-message-ttl-head-of-line': {
    description:
      'Messages with different per-message TTLs wait in one queue: RabbitMQ expires only the head, so a short delay waits behind a long one.',
    level: 'warning',
    help: 'One wait queue per delay (queue TTL), or the delayed-message exchange.',
  },
  'automatic-cycle-dropped': {
    description:
      'A dead-letter cycle with no rejection in it: RabbitMQ drops a message that is dead-lettered to a queue it already died in without a rejection in between.',
    level: 'error',
    help: 'Make the cycle pass through a consumer that rejects, or end it in a parking queue.',
  },
  'retry-without-max': {
    description: 'A retry loop with no maximum: nothing counts attempts, so a poison message retries forever.',
    level: 'warning',
    help: 'Count x-death (or a header) in the consumer and park the message after N attempts.',
  },
  'plugin-required': {
    description:
      'The design needs a broker plugin or version (delayed-message exchange, radlx, 4.3 quorum delayed retry) the target may not have.',
    level: 'info',
    help: 'Enable the plugin on the broker, or use the portable alternative (TTL wait queues).',
  },
  'delayed-exchange-mandatory': {
    description:
      'mandatory publishing or an alternate exchange on a delayed-message exchange: the plugin returns or reroutes at publish time, before the delay.',
    level: 'warning',
    help: 'Do not rely on mandatory or an alternate exchange with the delayed-message exchange.',
  },
  'delay-out-of-range': {
    description: 'An x-delay outside 1..2^32-1 ms: the delayed-message exchange delivers it at once.',
    level: 'warning',
    help: 'Keep delays within 1 ms and 2^32-1 ms.',
  },
  'quorum-default-delivery-limit': {
    description:
      'A quorum queue without an explicit delivery limit: 4.x applies a default of 20, then dead-letters or drops the message; 3.x retried forever.',
    level: 'warning',
    help: 'Set x-delivery-limit (argument or policy) to the number of deliveries you mean.',
  },
  'dl-routing-key-without-dlx': {
    description:
      'A dead-letter routing key without a dead-letter exchange: RabbitMQ ignores it and the dead letters are dropped.',
    level: 'error',
    help: 'Add x-dead-letter-exchange (the default exchange is "").',
  },
  'overflow-drops-silently': {
    description:
      'A length limit whose overflow drops messages (drop-head without a dead-letter exchange): messages vanish when the queue is full.',
    level: 'warning',
    help: 'Dead-letter the overflow, or use reject-publish with publisher confirms.',
  },
  'large-exception-headers': {
    description:
      'A consumer copies stack traces into headers: every retry carries them, and x-death grows the message further.',
    level: 'warning',
    help: 'Keep exception headers short (a message and a type), or store the trace elsewhere.',
  },
  'immutable-argument-change': {
    description:
      'A queue or exchange argument differs from the deployed one, and RabbitMQ does not change x- arguments in place: the declaration fails with PRECONDITION_FAILED.',
    level: 'error',
    help: 'Move the setting into a policy (changed in place), or create a new queue and move the messages.',
  },
  'nack-never-reaches-delivery-limit': {
    description:
      "On RabbitMQ 4.3 a basic.nack with requeue does not count toward a quorum queue's x-delivery-limit: a guard built on nack never fires.",
    level: 'error',
    help: 'Use basic.reject with requeue (it counts), or count attempts explicitly.',
  },
  'retry-never-ends': {
    description:
      'A bounded simulation (always failing, and failing the first K attempts) finds a message that is never parked, dropped nor acked: the retry path does not end.',
    level: 'error',
    help: 'Make the counter that should stop the loop rise (x-death of the right queue, or a header the consumer sets), or add a maximum.',
  },
  'classic-queue-in-cluster': {
    description:
      'A classic dead-letter, parking or wait queue in a cluster: it lives on one node, and its messages are unavailable (or lost) while that node is down.',
    level: 'warning',
    help: 'Use a quorum queue for dead-letter, parking and wait queues in a cluster.',
  },
  'binding-never-matches': {
    description:
      'A binding no message in the design can match (no publisher or dead-letter route sends that key or those headers).',
    level: 'warning',
    help: 'Correct the binding key or the publisher, or remove the binding.',
  },
  'policy-key-refused': {
    description:
      'A policy sets a key the broker line does not recognise (measured on 3.10.8 and 4.3.6: e.g. consumer-timeout, target-group-size and stream-filter-size-bytes on 3.10, ha-* and queue-master-locator on 4.x): the broker refuses the policy, and a definitions import that holds it fails with 400.',
    level: 'error',
    help: 'Drop the key for that broker line (upgrade-check migrates a design between lines).',
  },
  'policy-apply-to-refused': {
    description:
      'A policy applies to one queue type (classic_queues, quorum_queues, streams: RabbitMQ 3.12 and later) and the broker line is 3.10, which knows only all, queues and exchanges (measured on 3.10.8: the import fails with 400 before any queue is created).',
    level: 'error',
    help: 'Use apply-to queues with a pattern that matches only the queues meant (upgrade-check --to 3.10 migrates it).',
  },
  'delayed-retry-refused': {
    description:
      'On 4.3: a policy whose delayed-retry-* values RabbitMQ 4.3 refuses (measured on 4.3.6: a type other than all, failed, returned, disabled; a min or max that is not a positive integer; a type without delayed-retry-min; a max below the min). The broker refuses the policy with 400 "Validation failed", and a definitions import that holds it fails.',
    level: 'error',
    help: DELAYED_RETRY_POLICY_FIX,
  },
  'delayed-retry-not-as-written': {
    description:
      'On 4.3: x-delayed-retry-* queue arguments that a quorum queue accepts but does not run as written (measured on 4.3.6): a bad type or a missing or bad min leaves delayed retry disabled; a bad max is the min; a max below the min makes every delay the max.',
    level: 'warning',
    help: 'Set x-delayed-retry-type with x-delayed-retry-min, a positive integer (ms), and x-delayed-retry-max not below it.',
  },
  'ttl-queue-without-exit': {
    description:
      'A queue with a TTL and neither a dead-letter exchange nor a consumer: messages expire and are dropped. In a definitions file (no consumers shown) it is info: what no consumer takes in time is dropped without a trace.',
    level: 'warning',
    help: 'Give the queue a dead-letter exchange (a wait queue) or a consumer, or remove the TTL.',
  },
  'dead-letter-cycle-unbounded': {
    description:
      'A dead-letter cycle through a work queue (work -> dead-letter exchange -> wait queue -> back) in a file without consumers: with the consumer lint assumes (it rejects what it fails on), only a consumer that counts x-death and stops ends it; a poison message otherwise cycles forever. A parking exchange that no queue dead-letters into is named: nothing in the topology leads the loop there.',
    level: 'warning',
    help: 'Make the consumer count x-death (or a header) and park the message after N attempts, or give the work queue a quorum delivery limit.',
  },
  'parked-dead-letters-expire': {
    description:
      'A queue where dead letters come to rest has a TTL (argument or policy) and no onward route: parked dead letters are discarded when it runs out.',
    level: 'warning',
    help: 'Remove the TTL from the parking queue, or give it a dead-letter exchange that keeps what expires.',
  },
  'policy-priority-tie': {
    description:
      "Two or more policies of equal priority match a queue: RabbitMQ's choice among them is unspecified (it differs between brokers and vhosts), so the queue may not get the settings you expect.",
    level: 'warning',
    help: 'Give the policies different priorities, or make their patterns disjoint.',
  },
  'dead-letter-into-stream': {
    description: 'Dead letters are routed to a stream: RabbitMQ 3.10 drops them silently (4.3 keeps them).',
    level: 'error',
    help: 'Park dead letters in a quorum or classic queue on 3.x, or republish them to the stream from a consumer.',
  },
  'requeue-rejected-forever': {
    description:
      "A framework retries nothing in process and requeues what fails (Spring's default-requeue-rejected is true unless said; the binder's requeue-rejected): a message that always fails is redelivered at once, for ever.",
    level: 'error',
    help: 'Requeue nothing once the framework has retried: default-requeue-rejected false / requeue-rejected false with a dead-letter exchange, or enable retry with a recoverer that rejects.',
  },
  'framework-key-ignored': {
    description:
      "A configuration key the framework never reads: one that does not exist (retry.max-attempt, Celery's task_max_retries), or one this version no longer reads (Spring Boot 4 reads retry.max-retries, retries after the first delivery, and ignores retry.max-attempts). Each key is checked against the framework's table of real keys; the default applies instead of what the file says.",
    level: 'warning',
    help: 'Write the key the framework reads (the finding names the likeliest one; max-retries = max-attempts - 1 on Spring Boot 4).',
  },
  'framework-setting-trap': {
    description:
      "A framework setting that loses messages in a way few expect: Spring Cloud Stream's expires deletes the group queue with its messages after its last consumer goes; dlq-expires deletes the dead letters of a DLQ nobody consumes.",
    level: 'warning',
    help: 'Remove the setting, or set it far above the longest time the application can be down.',
  },
  'framework-queue-refused': {
    description:
      "The framework declares its listener's queue with an argument the broker line refuses outright: Spring Cloud Stream's anonymous groups are Spring AMQP AnonymousQueues with x-queue-master-locator (Spring AMQP up to 3.2.10 and 4.0.3), which RabbitMQ 4.x answers by closing the channel. The queue is never declared and the binding never consumes (measured with the real binder on 4.3.6).",
    level: 'error',
    help: 'Give the binding a group (a durable group queue carries no locator), or run Spring AMQP 3.2.11+ / 4.0.4+ (Spring Boot 3.5.15+ / 4.0.7+), which declares x-queue-leader-locator.',
  },
  'app-discards-failures': {
    description:
      "The application gives up on a message that still fails and acks it (Spring's stateless retry with no recoverer, MassTransit's DiscardFaultedMessages, a Celery task out of retries): the broker forgets it and nothing keeps it. Its outcome is discarded, not acked.",
    level: 'warning',
    help: 'End the retry in a way that keeps the message: reject it to a dead-letter exchange, or publish it to an error queue.',
  },
  'immediate-retries-over-delivery-limit': {
    description:
      "Immediate retries that return the message to the broker (NServiceBus Immediate, Spring stateful retry) exceed the quorum queue's delivery limit (its own, or 4.x's default 20): the broker dead-letters or drops it before the framework's later retries run.",
    level: 'error',
    help: 'Retry through the broker fewer times than the delivery limit, or raise the limit (an x-delivery-limit argument; -1 cannot be set by policy).',
  },
  'republish-counts-x-death': {
    description:
      'A framework republishes a failed message with its headers into a queue whose dead letters come back: on RabbitMQ 4.x the broker no longer counts a republished x-death, so a loop bounded by x-death never ends.',
    level: 'warning',
    help: 'Count rounds in a header of your own (Spring AMQP retry-count) or let the broker dead-letter the message so x-death counts.',
  },
  'backoff-without-jitter': {
    description:
      'An in-process exponential back-off without jitter run by many consumers at once: every waiting message retries in the same instant when the dependency returns (a retry storm).',
    level: 'warning',
    help: "Add jitter (an ExponentialRandomBackOffPolicy, Celery's retry_jitter=True, MassTransit's Exponential) or fewer concurrent consumers.",
  },
  'backoff-over-consumer-timeout': {
    description:
      "An in-process retry holds the delivery unacked longer than the broker's consumer timeout (30 min by default): the broker takes the delivery back and the retry starts over.",
    level: 'error',
    help: 'Keep in-process waits under the consumer timeout and move long waits to the broker (TTL wait queues, delayed redelivery, quorum delayed retry).',
  },
};

/** The docs of a rule, or a neutral one for a rule that has none yet. */
export function ruleDoc(id: string, title: string): LintRuleDoc {
  return RULE_DOCS[id] ?? { description: title, level: 'warning', help: "See the finding's fix." };
}
