/**
 * The policy-first variant of the TTL wait-queue templates: `settings: policy` moves each
 * queue's TTL and dead-letter settings out of its `x-` arguments into a policy of its own, so
 * they can change later without redeclaring the queue (RabbitMQ recommends policies for this:
 * arguments are fixed once a queue exists). The effective settings, and so the simulation, are
 * the same either way.
 */
import type { AmqpValue, PolicyDef, QueueDef, Topology } from '../model/definitions.js';
import { exactNamePattern } from '../model/policyMatch.js';
import { POLICY_KEY_FOR_ARGUMENT } from '../model/policyKeys.js';
import type { ParamSpec } from './types.js';

export type SettingsPlacement = 'arguments' | 'policy';

export const settingsParam: ParamSpec = {
  name: 'settings',
  label: 'TTL and DLX in',
  type: 'enum',
  options: ['arguments', 'policy'],
  default: 'arguments',
  help: 'policy: one policy per queue instead of x- arguments, so a TTL can change in place later',
};

/** The arguments a policy takes over. */
const MOVED = ['x-message-ttl', 'x-dead-letter-exchange', 'x-dead-letter-routing-key'];

export function placeSettings(t: Topology, placement: SettingsPlacement): Topology {
  if (placement === 'arguments') return t;
  const policies: PolicyDef[] = [...(t.policies ?? [])];
  const queues: QueueDef[] = t.queues.map((q) => {
    const args = q.arguments ?? {};
    const moved = MOVED.filter((k) => k in args);
    if (moved.length === 0) return q;
    const definition: Record<string, AmqpValue> = {};
    for (const k of moved) definition[POLICY_KEY_FOR_ARGUMENT[k]!.key] = args[k]!;
    policies.push({
      name: `${q.name}.settings`,
      pattern: exactNamePattern(q.name),
      'apply-to': 'queues',
      priority: 0,
      definition,
    });
    return { ...q, arguments: Object.fromEntries(Object.entries(args).filter(([k]) => !moved.includes(k))) };
  });
  return { ...t, queues, policies };
}
