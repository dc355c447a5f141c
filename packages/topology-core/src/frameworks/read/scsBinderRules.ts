/**
 * What the Spring Cloud Stream Rabbit binder does around a group queue beyond its settings' plain
 * meaning: its error handler once the retries give up, and the settings that lose messages in a
 * way few expect (named as traps with their line).
 */
import type { ConsumerAction } from '../../model/consumer.js';
import { formatMs } from '../../text/formatDuration.js';
import type { ConfigEntry } from './configText.js';
import type { SourceBuilder } from './sourceBuilder.js';

/** Settings that do what few expect: named with their line (the framework object's traps). */
export function traps(
  src: SourceBuilder,
  get: (k: string) => ConfigEntry | undefined,
  queue: string,
  dlq: string | undefined,
): void {
  const expires = get('expires');
  if (expires && Number(expires.value) > 0)
    src.note(
      'trap',
      expires.line,
      `${expires.key}: ${expires.value}: RabbitMQ deletes ${queue}, with every message in it, ${formatMs(Number(expires.value))} after its last consumer goes (a deploy, a crash, scaling to zero); messages waiting for a retry vanish with it`,
      expires.key,
      {
        file: expires.file,
        fix: `Remove ${expires.key} from a durable group's queue (it suits anonymous queues), or set it far above the longest time the application can be down.`,
      },
    );
  const dlqExpires = get('dlq-expires');
  if (dlq && dlqExpires && Number(dlqExpires.value) > 0)
    src.note(
      'trap',
      dlqExpires.line,
      `${dlqExpires.key}: ${dlqExpires.value}: RabbitMQ deletes ${dlq}, with every dead letter in it, once it has had no consumer for ${formatMs(Number(dlqExpires.value))}; a DLQ is rarely consumed, so its dead letters are lost`,
      dlqExpires.key,
      { file: dlqExpires.file, fix: `Remove ${dlqExpires.key}: keep dead letters until someone looks at them.` },
    );
}

/**
 * The binder's error handler once the RetryTemplate gives up (RabbitMessageChannelBinder
 * getErrorMessageHandler, 4.x): with republish-to-dlq (true by default) it republishes to the DLX,
 * if that exchange exists (auto-bind-dlq declares it; else a passive declare looks), and the
 * delivery is acked; when the DLX is absent it logs "disabling 'republishToDlq'" and returns, so the
 * failed message is acked and gone. Without republish, more than one attempt ends in
 * RejectAndDontRequeueRecoverer; a single attempt leaves it to requeue-rejected.
 */
export function binderRecovery(r: {
  republishToDlq: boolean;
  dlxPresent: boolean;
  dlx: string;
  dlRoutingKey: string;
  maxAttempts: number;
  requeueRejected: boolean;
}): ConsumerAction {
  if (r.republishToDlq && r.dlxPresent)
    return { kind: 'republish', exchange: r.dlx, routingKey: r.dlRoutingKey, exceptionHeaders: true };
  // the DLX is absent: the binder disables republishing and acks (app-discards-failures names it)
  if (r.republishToDlq) {
    return { kind: 'discard' };
  }
  if (r.maxAttempts > 1) return { kind: 'reject' };
  return r.requeueRejected ? { kind: 'requeue' } : { kind: 'reject' };
}
