/** What the application-configuration rules share: consumers with their source, the in-process retries they run. */
import type { ConsumerAction, ConsumerSpec } from '../model/consumer.js';
import type { NodeSource } from '../model/source.js';
import { consumerNodeId } from '../model/nodeIds.js';
import { backoffMs } from '../behaviour/evaluate.js';
import type { LintContext } from './types.js';

export type InProcessRetry = Extract<ConsumerAction, { kind: 'retryInProcess' }>;

/** Consumers read from an application's configuration, with where they came from. */
export function appConsumers(ctx: LintContext): { consumer: ConsumerSpec; source: NodeSource }[] {
  const s = ctx.design.sources;
  if (!s) return [];
  return ctx.design.consumers.flatMap((c) => {
    const src = s[consumerNodeId(c.id)];
    return src ? [{ consumer: c, source: src }] : [];
  });
}

/** The in-process retries a consumer may run on failure. */
export function inProcessRetries(c: ConsumerSpec): InProcessRetry[] {
  const b = c.behaviour;
  if (b.kind !== 'worker') return [];
  return b.onFailure.flatMap((r) => (r.then.kind === 'retryInProcess' ? [r.then] : []));
}

/** The waits of an in-process retry, in order (maxAttempts - 1 of them). */
export const retryWaits = (r: InProcessRetry): number[] =>
  Array.from({ length: Math.max(0, r.maxAttempts - 1) }, (_, i) => backoffMs(r.backoff, i + 1));

/** The line of a setting of the source whose key ends with one of these, else the source's line. */
export function settingLine(s: NodeSource, ...keys: string[]): number {
  for (const k of keys) {
    const st = s.settings?.filter((x) => x.key.endsWith(k) && x.line !== undefined).at(-1);
    if (st) return st.line!;
  }
  return s.line;
}
