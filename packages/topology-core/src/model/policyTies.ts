/**
 * Equal-priority policy ties: queues that two or more policies of the same (highest) priority
 * match. RabbitMQ applies one of them, in the hash order of its parameter store: unspecified
 * (measured: for the same two policies over the same queues, 3.10.8 and 4.3.6 choose
 * differently, and the vhost's name changes the choice). The core assumes one (policyMatch.ts:
 * the last one listed) unless the broker's own choice is pinned (a live vhost's import).
 * Lint names the ties, simulate says which policy it assumed.
 */
import type { AmqpValue, Topology } from './definitions.js';
import { choosePolicy, policyTargetOf } from './policyMatch.js';

export interface PolicyTie {
  /** every tied policy, in the order the file lists them */
  readonly policies: readonly string[];
  readonly priority: number;
  /** the one the core applies (the simulator and the linter read it) */
  readonly assumed: string;
  /** the broker's choice was read and pinned for these queues (policyPins) */
  readonly pinned: boolean;
  readonly queues: readonly string[];
  /** keys the tied policies set differently: what changes with RabbitMQ's choice (undefined: not set) */
  readonly atStake: readonly {
    readonly key: string;
    readonly values: Readonly<Record<string, AmqpValue | undefined>>;
  }[];
}

export function policyTies(topology: Topology): PolicyTie[] {
  const policies = topology.policies ?? [];
  if (policies.length < 2) return [];
  const byKey = new Map<string, { tie: Omit<PolicyTie, 'queues' | 'atStake'>; queues: string[] }>();
  for (const q of topology.queues) {
    const c = choosePolicy(
      policies,
      q.name,
      policyTargetOf(q.arguments?.['x-queue-type']),
      topology.policyPins?.[q.name],
    );
    if (!c.policy || c.tiedWith.length === 0) continue;
    const names = new Set([c.policy.name, ...c.tiedWith.map((t) => t.name)]);
    const ordered = policies.filter((p) => names.has(p.name)).map((p) => p.name);
    const pinned = c.pinned === true;
    const key = `${ordered.join('\u0000')}\u0001${c.policy.name}\u0001${pinned}`;
    const g = byKey.get(key) ?? {
      tie: { policies: ordered, priority: c.policy.priority ?? 0, assumed: c.policy.name, pinned },
      queues: [],
    };
    g.queues.push(q.name);
    byKey.set(key, g);
  }
  return [...byKey.values()].map(({ tie, queues }) => {
    const defs = tie.policies.map((n) => policies.find((p) => p.name === n)!);
    const keys = [...new Set(defs.flatMap((d) => Object.keys(d.definition)))];
    const atStake = keys
      .map((key) => ({ key, values: Object.fromEntries(defs.map((d) => [d.name, d.definition[key]])) }))
      .filter((s) => new Set(Object.values(s.values).map((v) => JSON.stringify(v))).size > 1);
    return { ...tie, queues, atStake };
  });
}

/** "dead-letter-exchange (dead-letter: dlx; ha-all: not set)" */
export function describeStake(s: PolicyTie['atStake'][number]): string {
  return `${s.key} (${Object.entries(s.values)
    .map(([p, v]) => `${p}: ${v === undefined ? 'not set' : JSON.stringify(v)}`)
    .join('; ')})`;
}

/**
 * The broker's own choice of policy per queue (GET /api/queues `policy`), as `Topology.policyPins`:
 * only where it reports one and the policy is among those read (a name it reports for a policy
 * we did not read pins nothing). A live vhost's settings then follow the broker, ties included.
 */
export function brokerPolicyPins(
  queues: readonly { readonly name: string; readonly policy?: string | undefined }[],
  policies: readonly { readonly name: string }[],
): Record<string, string> | undefined {
  const known = new Set(policies.map((p) => p.name));
  const pins = Object.fromEntries(
    queues
      .filter((q) => typeof q.policy === 'string' && q.policy !== '' && known.has(q.policy))
      .map((q) => [q.name, q.policy!]),
  );
  return Object.keys(pins).length > 0 ? pins : undefined;
}
