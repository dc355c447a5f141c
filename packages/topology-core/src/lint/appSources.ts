/**
 * Findings on nodes read from an application's configuration (design.sources) point at the
 * configuration line, and say the fix in the framework's own terms where a rule's generic fix
 * would send the user to the broker side only.
 */
import type { Design } from '../model/design.js';
import type { AppFramework, NodeSource } from '../model/source.js';
import type { LintFinding } from './types.js';

/** rule id -> framework -> the fix in that framework's terms */
const FRAMEWORK_FIXES: Readonly<Record<string, Partial<Record<AppFramework, string>>>> = {
  'nack-never-reaches-delivery-limit': {
    'spring-boot':
      'Upgrade Spring AMQP to a release with the 4.3 fix (it rejects deliveries one by one: spring-amqp #3507/#3559), or enable retry (spring.rabbitmq.listener.simple.retry.enabled: true) so the recoverer rejects without requeue.',
    'spring-amqp':
      'Upgrade Spring AMQP to a release with the 4.3 fix (spring-amqp #3507/#3559), or end the retry in a recoverer that does not requeue (RejectAndDontRequeueRecoverer, RepublishMessageRecoverer).',
    'spring-cloud-stream':
      'Set requeue-rejected: false and auto-bind-dlq: true, so exhausted messages go to the DLQ instead of back to the queue.',
  },
  'requeue-without-limit': {
    'spring-boot':
      'Set spring.rabbitmq.listener.simple.default-requeue-rejected: false (and give the queue a DLX), or enable retry so RejectAndDontRequeueRecoverer ends it.',
    'spring-amqp':
      'factory.setDefaultRequeueRejected(false) with a DLX on the queue, or a retry advice whose recoverer does not requeue.',
    'spring-cloud-stream': 'Set requeue-rejected: false and auto-bind-dlq: true.',
  },
  'parked-dead-letters-expire': {
    'spring-cloud-stream':
      'Remove dlq-ttl, or set dlq-dead-letter-exchange (and dlq-dead-letter-routing-key) so expired dead letters go back to the queue or to a parking queue instead of being dropped.',
  },
  'quorum-default-delivery-limit': {
    'spring-cloud-stream':
      'Set quorum.delivery-limit explicitly (or a delivery-limit policy), and auto-bind-dlq: true so the limit dead-letters rather than drops.',
    nservicebus:
      'Give the endpoint queue an explicit delivery limit above Immediate.NumberOfRetries + 1 (a policy with delivery-limit, NServiceBus.RabbitMQ #1550), or set it to unlimited with the x-delivery-limit argument (-1 cannot be set by policy).',
    masstransit:
      'Set a delivery limit explicitly (a policy), keeping UseMessageRetry in process so redeliveries stay few.',
  },
};

/** The source of the first node of a finding that has one. */
function sourceOf(design: Design, f: LintFinding): NodeSource | undefined {
  for (const o of f.objects) {
    const s = design.sources?.[o];
    if (s) return s;
  }
  return undefined;
}

/** A generic finding the interaction rule says better, in the framework's terms, for the same consumer. */
const SAID_BETTER: Readonly<Record<string, string>> = { 'requeue-without-limit': 'requeue-rejected-forever' };

export function withAppSources(design: Design, findings: readonly LintFinding[]): LintFinding[] {
  if (!design.sources) return [...findings];
  const said = new Set(findings.map((f) => `${f.id}|${f.objects[0]}`));
  return findings
    .filter((f) => !(SAID_BETTER[f.id] && said.has(`${SAID_BETTER[f.id]}|${f.objects[0]}`)))
    .map((f) => {
      const s = sourceOf(design, f);
      if (!s) return f;
      const fix = FRAMEWORK_FIXES[f.id]?.[s.framework];
      return {
        ...f,
        ...(f.at ? {} : { at: { file: s.file, line: s.line } }),
        ...(fix ? { fix: `${fix} (${f.fix})` } : {}),
      };
    });
}
