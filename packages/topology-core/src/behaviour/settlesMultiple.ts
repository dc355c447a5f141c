/**
 * Whether a behaviour can hold deliveries or settle several at once (`hold`, `multiple`). Only
 * such consumers need their unsettled deliveries kept in delivery-tag order (simulator, workers).
 */
import type { ConsumerAction, ConsumerBehaviour } from '../model/consumer.js';

export function actionSettlesMultiple(a: ConsumerAction): boolean {
  if (a.kind === 'hold') return true;
  if (a.kind === 'ack' || a.kind === 'reject' || a.kind === 'requeue') return a.multiple === true;
  if (a.kind === 'retryInProcess') return actionSettlesMultiple(a.recover);
  if (a.kind === 'defer') return actionSettlesMultiple(a.then);
  return false;
}

export function settlesMultiple(b: ConsumerBehaviour): boolean {
  switch (b.kind) {
    case 'script':
      return b.actions.some(actionSettlesMultiple);
    case 'worker':
      return (
        (b.onSuccess !== undefined && actionSettlesMultiple(b.onSuccess)) ||
        b.onFailure.some((r) => actionSettlesMultiple(r.then))
      );
    case 'router':
      return b.rules.some((r) => actionSettlesMultiple(r.then));
  }
}

/** the AMQP method an action goes out as (for texts: 'basic.nack multiple requeue=false') */
export function wireMethod(a: ConsumerAction): string | undefined {
  switch (a.kind) {
    case 'ack':
      return a.multiple ? 'basic.ack multiple' : 'basic.ack';
    case 'reject':
      return a.multiple ? 'basic.nack multiple requeue=false' : 'basic.reject requeue=false';
    case 'requeue':
      if (a.multiple) return 'basic.nack multiple requeue=true';
      return a.via === 'reject' ? 'basic.reject requeue=true' : 'basic.nack requeue=true';
    default:
      return undefined;
  }
}
