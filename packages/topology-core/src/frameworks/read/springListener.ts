/**
 * What a Spring AMQP listener container does with a failed message, as a consumer behaviour;
 * shared by the Spring Boot properties reader and the Spring AMQP Java reader.
 * - retry off: the container rejects; with `defaultRequeueRejected` (true unless said) it
 *   requeues (basic.nack requeue=true: the synchronous container's rollback, spring-amqp #3507),
 *   so a message that always fails is redelivered forever;
 * - stateless retry: RetryTemplate re-runs the listener in the thread (the message unacked),
 *   sleeping the back-off, then the recoverer;
 * - stateful retry: each failure is rethrown and the broker redelivers; the retry state is kept by
 *   message id, and after maxAttempts the recoverer runs.
 */
import type { ConsumerAction, ConsumerBehaviour, Rule } from '../../model/consumer.js';

export type SpringRecoverer =
  | { readonly kind: 'reject' }
  | { readonly kind: 'requeue' }
  /** no recoverer on a stateless interceptor: the failure is logged and the delivery acked: discarded */
  | { readonly kind: 'discard' }
  | { readonly kind: 'republish'; readonly exchange: string; readonly routingKey?: string };

export interface SpringListenerSettings {
  readonly retryEnabled: boolean;
  readonly stateless: boolean;
  /** attempts in all (the first delivery included) */
  readonly maxAttempts: number;
  readonly backoff: { readonly initialMs: number; readonly multiplier: number; readonly maxMs: number };
  readonly requeueRejected: boolean;
  readonly recoverer: SpringRecoverer;
  /** `none`: the broker auto-acks, a failure loses the message */
  readonly ackMode: 'auto' | 'manual' | 'none';
}

export function recovererAction(r: SpringRecoverer): ConsumerAction {
  if (r.kind === 'reject') return { kind: 'reject' };
  if (r.kind === 'requeue') return { kind: 'requeue' };
  if (r.kind === 'discard') return { kind: 'discard' };
  return {
    kind: 'republish',
    exchange: r.exchange,
    ...(r.routingKey !== undefined ? { routingKey: r.routingKey } : {}),
    exceptionHeaders: true,
  };
}

export function springListenerBehaviour(s: SpringListenerSettings): ConsumerBehaviour {
  const onFailure: Rule[] = [];
  if (s.ackMode === 'none') onFailure.push({ then: { kind: 'ack' } });
  else if (!s.retryEnabled) onFailure.push({ then: s.requeueRejected ? { kind: 'requeue' } : { kind: 'reject' } });
  else if (s.stateless)
    onFailure.push({
      then: {
        kind: 'retryInProcess',
        maxAttempts: s.maxAttempts,
        backoff: s.backoff,
        recover: recovererAction(s.recoverer),
      },
    });
  else {
    // stateful: the broker redelivers; the attempt count lives in the container's retry cache
    onFailure.push({
      when: { kind: 'lt', counter: { kind: 'attempt' }, value: s.maxAttempts },
      then: { kind: 'requeue' },
    });
    onFailure.push({ then: recovererAction(s.recoverer) });
  }
  return { kind: 'worker', onFailure };
}
