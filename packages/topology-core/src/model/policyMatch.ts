/**
 * Which policy applies to a queue or an exchange, as RabbitMQ chooses it (rabbit_policy.erl
 * `match_all`/`matches`/`priority_comparator`): the pattern is a regular expression searched
 * (not anchored) in the name, `apply-to` filters by entity kind and queue type, and of the
 * matching policies the highest priority wins. One policy and one operator policy apply.
 *
 * Equal priorities: RabbitMQ keeps the order its parameter store lists them in, which is a
 * hash order (measured on 3.10.8 and 4.3.6: neither creation order nor name order). We pick
 * the last one listed, deterministically, and report the tie so that lint can flag it.
 */
import type { PolicyApplyTo, PolicyDef, Topology } from './definitions.js';

/** `apply-to` values RabbitMQ accepts (rabbit_policy.erl apply_to_validation + queue types' policy_apply_to_name). */
export const POLICY_APPLY_TO: readonly PolicyApplyTo[] = [
  'all',
  'queues',
  'classic_queues',
  'quorum_queues',
  'streams',
  'exchanges',
];

/**
 * `apply-to` values RabbitMQ 3.10 accepts: the per-queue-type ones came later. Measured on 3.10.8:
 * `400 Validation failed apply-to 'quorum_queues' unrecognised; should be 'queues', 'exchanges' or 'all'`.
 */
export const POLICY_APPLY_TO_3_10: readonly PolicyApplyTo[] = ['all', 'queues', 'exchanges'];

/** What a policy is matched against: an exchange, or a queue of a type. */
export type PolicyTarget = 'exchange' | 'classic' | 'quorum' | 'stream';

export function policyTargetOf(queueType: unknown): PolicyTarget {
  return queueType === 'quorum' ? 'quorum' : queueType === 'stream' ? 'stream' : 'classic';
}

const APPLIES: Readonly<Record<PolicyApplyTo, readonly PolicyTarget[]>> = {
  all: ['exchange', 'classic', 'quorum', 'stream'],
  queues: ['classic', 'quorum', 'stream'],
  classic_queues: ['classic'],
  quorum_queues: ['quorum'],
  streams: ['stream'],
  exchanges: ['exchange'],
};

const compiled = new Map<string, RegExp | null>();

/** The pattern as a RegExp (cached), or undefined when it is not a valid regular expression. */
export function policyPattern(pattern: string): RegExp | undefined {
  let re = compiled.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern);
    } catch {
      re = null;
    }
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, re);
  }
  return re ?? undefined;
}

/**
 * Keys that make a whole policy not applicable to a queue type (the type's is_policy_applicable):
 * measured on 3.10.8 and 4.3.6, a policy with `message-ttl` and `delivery-limit` gives a classic
 * queue no TTL (conformance policy-with-delivery-limit-skips-classic, found by pnpm fuzz); a policy
 * with `message-ttl` and a stream's `max-age` or `stream-max-segment-size-bytes` gives a classic or
 * a quorum queue no policy at all (management API: `policy` null; apps/server/src/cli/corpus/README.md).
 */
const NOT_FOR: Partial<Record<PolicyTarget, readonly string[]>> = {
  classic: ['delivery-limit', 'max-age', 'stream-max-segment-size-bytes'],
  quorum: ['max-age', 'stream-max-segment-size-bytes'],
};

/** The keys of a policy that keep it off a queue of this type (empty: the type may apply it). */
export const keysNotFor = (p: PolicyDef, target: PolicyTarget): string[] =>
  (NOT_FOR[target] ?? []).filter((k) => k in p.definition);

/** The pattern and apply-to match, whatever the policy's keys (policyMatches also asks the queue type). */
export function policyPatternMatches(p: PolicyDef, name: string, target: PolicyTarget): boolean {
  const applyTo = p['apply-to'] ?? 'all';
  if (!(APPLIES[applyTo] ?? []).includes(target)) return false;
  return policyPattern(p.pattern)?.test(name) ?? false;
}

export function policyMatches(p: PolicyDef, name: string, target: PolicyTarget): boolean {
  return policyPatternMatches(p, name, target) && keysNotFor(p, target).length === 0;
}

export interface PolicyChoice {
  /** the policy that applies (undefined: none matches) */
  readonly policy: PolicyDef | undefined;
  /** other matching policies with the same priority: RabbitMQ may pick any of them */
  readonly tiedWith: readonly PolicyDef[];
  /** the policy is the one the broker reported applying (a pin), not the core's pick */
  readonly pinned?: true;
}

/** The one policy (of `policies`, which are either all policies or all operator policies) that applies. */
export function choosePolicy(
  policies: readonly PolicyDef[] | undefined,
  name: string,
  target: PolicyTarget,
  pin?: string,
): PolicyChoice {
  let best: PolicyDef | undefined;
  let tied: PolicyDef[] = [];
  for (const p of policies ?? []) {
    if (!policyMatches(p, name, target)) continue;
    const pr = p.priority ?? 0;
    const bp = best?.priority ?? 0;
    if (!best || pr > bp) {
      best = p;
      tied = [];
    } else if (pr === bp) {
      tied.push(best);
      best = p;
    }
  }
  // the broker's reported choice wins (a live vhost): it is the truth where priorities tie
  const pinned = pin === undefined ? undefined : (policies ?? []).find((p) => p.name === pin);
  if (pinned && pinned !== best) {
    const others =
      best && (best.priority ?? 0) === (pinned.priority ?? 0) ? [best, ...tied].filter((p) => p !== pinned) : [];
    return { policy: pinned, tiedWith: others, pinned: true };
  }
  return pinned ? { policy: best, tiedWith: tied, pinned: true } : { policy: best, tiedWith: tied };
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A pattern that matches exactly this name. */
export function exactNamePattern(name: string): string {
  return `^${escapeRegExp(name)}$`;
}

/**
 * A design policy's pattern moved onto prefixed broker names (`orders.q` -> `rs.demo.orders.q`):
 * anchored at the prefix, so it never matches another deployment's or anyone else's objects.
 * `^P` becomes `^PREFIX(?:P)`, an unanchored `P` becomes `^PREFIX.*?(?:P)`. Where that would
 * match a different set of the design's own `names` (a top-level `|` with `^` inside, ...),
 * the pattern lists the matched prefixed names instead.
 */
export function prefixedPolicyPattern(
  p: PolicyDef,
  prefix: string,
  names: readonly { name: string; target: PolicyTarget }[],
): string {
  if (prefix === '') return p.pattern;
  const re = policyPattern(p.pattern);
  const candidate = p.pattern.startsWith('^')
    ? `^${escapeRegExp(prefix)}(?:${p.pattern.slice(1)})`
    : `^${escapeRegExp(prefix)}.*?(?:${p.pattern})`;
  const moved = policyPattern(candidate);
  if (re && moved && names.every((n) => re.test(n.name) === moved.test(prefix + n.name))) return candidate;
  const matched = names.filter((n) => policyMatches(p, n.name, n.target)).map((n) => escapeRegExp(prefix + n.name));
  return matched.length > 0 ? `^(?:${[...new Set(matched)].join('|')})$` : `^${escapeRegExp(prefix)}$(?!)`;
}

/**
 * Queues the policy governs: where RabbitMQ applies it (it wins on priority, choosePolicy),
 * or may apply it (tied at the top). A queue it matches but a higher-priority policy wins is not one.
 */
export function governedQueues(
  topology: Topology,
  p: PolicyDef,
  policies: readonly PolicyDef[] | undefined = topology.policies,
): string[] {
  return topology.queues
    .filter((q) => {
      const c = choosePolicy(policies, q.name, policyTargetOf(q.arguments?.['x-queue-type']));
      return c.policy === p || c.tiedWith.includes(p);
    })
    .map((q) => q.name);
}
