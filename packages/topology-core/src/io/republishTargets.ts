/** Where a consumer's rules republish to (exporters that list a consumer's publications use it). */
import type { ConsumerAction, ConsumerSpec } from '../model/consumer.js';

export interface RepublishTarget {
  /** index of the rule in onFailure / rules */
  readonly rule: number;
  readonly exchange: string;
  readonly routingKey?: string;
}

export function republishTargets(c: ConsumerSpec): readonly RepublishTarget[] {
  const rules = c.behaviour.kind === 'worker' ? c.behaviour.onFailure : c.behaviour.kind === 'router' ? c.behaviour.rules : [];
  return rules.flatMap((r, rule) => {
    const a: ConsumerAction = r.then.kind === 'retryInProcess' ? r.then.recover : r.then;
    return a.kind === 'republish' ? [{ rule, exchange: a.exchange, ...(a.routingKey !== undefined ? { routingKey: a.routingKey } : {}) }] : [];
  });
}
