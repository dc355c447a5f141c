/**
 * The dry run's honesty (issue 26 point 8): will the copies stay where they go, or bounce back?
 * Predicted from the destination's effective settings (arguments and policies) and its live
 * consumers and depth, before anything moves:
 * - a TTL and no consumer, its dead letters routed back to the source: they expire back;
 * - at its x-max-length: the overflow is refused (reject-publish) or pushed out (drop-head,
 *   dead-lettered: back, when that routes to the source);
 * - nobody consumes it (and no TTL): they wait there, and nothing can judge them.
 */
import type { Topology } from '../model/definitions.js';
import { effectiveArguments, queueEffectiveSettings } from '../model/effectiveSettings.js';
import { route } from '../routing/route.js';
import type { RedriveContext, RedrivePlan } from './redrive.js';

export interface DestinationState {
  readonly name: string;
  /** live consumers; undefined: unknown (no warning about consumers) */
  readonly consumers?: number;
  /** messages in it now */
  readonly depth?: number;
}

export type BounceKind = 'expires-back' | 'over-max-length' | 'no-consumer';

export interface BounceWarning {
  readonly queue: string;
  readonly kind: BounceKind;
  /** how many of the copies it concerns */
  readonly copies: number;
  readonly message: string;
}

export function predictBounce(
  plan: Pick<RedrivePlan, 'items'>,
  topology: Pick<Topology, 'queues' | 'policies'>,
  live: readonly DestinationState[],
  source: string,
  ctx: RedriveContext,
): BounceWarning[] {
  const copies = new Map<string, { n: number; routingKey: string }>();
  for (const i of plan.items)
    if (i.decision.kind === 'move')
      for (const q of i.decision.queues)
        copies.set(q, { n: (copies.get(q)?.n ?? 0) + 1, routingKey: i.decision.routingKey });
  const byName = new Map(live.map((d) => [d.name, d]));
  const out: BounceWarning[] = [];
  for (const [name, { n, routingKey }] of copies) {
    const def = topology.queues.find((q) => q.name === name);
    if (!def) continue;
    const args = effectiveArguments(
      queueEffectiveSettings(def, { policies: topology.policies ?? [] }, { profile: ctx.broker.profile }),
    );
    const ttl = typeof args['x-message-ttl'] === 'number' ? args['x-message-ttl'] : undefined;
    const dlx = typeof args['x-dead-letter-exchange'] === 'string' ? args['x-dead-letter-exchange'] : undefined;
    const dlrk = typeof args['x-dead-letter-routing-key'] === 'string' ? args['x-dead-letter-routing-key'] : routingKey;
    const maxLen = typeof args['x-max-length'] === 'number' ? args['x-max-length'] : undefined;
    const overflow = typeof args['x-overflow'] === 'string' ? args['x-overflow'] : 'drop-head';
    const backToSource =
      dlx !== undefined &&
      route(
        ctx.index,
        dlx,
        { routingKeys: [dlrk], headers: {}, xDeath: [] },
        { strictHeaders: ctx.broker.profile === '4.x', delayDone: false },
      ).queues.includes(source);
    const st = byName.get(name);
    if (st?.consumers === 0 && ttl !== undefined && backToSource)
      out.push({
        queue: name,
        kind: 'expires-back',
        copies: n,
        message: `'${name}' has x-message-ttl ${ttl} ms and no consumer: the ${n} copies expire and dead-letter back into '${source}' within ${ttl} ms`,
      });
    else if (st?.consumers === 0 && ttl === undefined)
      out.push({
        queue: name,
        kind: 'no-consumer',
        copies: n,
        message: `nobody consumes '${name}': the ${n} copies will wait there, and nothing can judge them (a canary would stop on a timeout)`,
      });
    if (maxLen !== undefined && st?.depth !== undefined && st.depth + n > maxLen) {
      const over = Math.min(n, st.depth + n - maxLen);
      const fate =
        overflow === 'reject-publish'
          ? `refused (x-overflow reject-publish): they stay in '${source}'`
          : backToSource
            ? `pushed out (x-overflow ${overflow}) and dead-lettered back into '${source}'`
            : `pushed out (x-overflow ${overflow}): ${dlx !== undefined ? 'dead-lettered' : 'dropped'}`;
      out.push({
        queue: name,
        kind: 'over-max-length',
        copies: over,
        message: `'${name}' holds ${st.depth} of its x-max-length ${maxLen}: ${over} of the ${n} copies would be ${fate}`,
      });
    }
  }
  return out;
}
