/**
 * The topology part of a migration: what the target refuses or ignores is rewritten so the target
 * accepts it and the old behaviour holds where the target allows it. Mirroring keys dropped
 * (a policy left empty is deleted), mirrored classic queues become quorum queues, CQv1 / lazy /
 * master-locator arguments dropped or renamed, transient queues made durable, and an explicit
 * delivery-limit policy where the quorum default changes. Each change is listed; what cannot be
 * kept is said.
 */
import { nameList } from '../text/nameList.js';
import type { BrokerProfileId } from '../model/design.js';
import type { AmqpValue, PolicyDef, QueueDef, Topology } from '../model/definitions.js';
import { QUEUE_ARGUMENTS, queueTypeOf } from '../model/arguments.js';
import { refusedPolicyKeys } from '../model/policyKeys.js';
import {
  POLICY_APPLY_TO_3_10,
  choosePolicy,
  exactNamePattern,
  policyMatches,
  policyTargetOf,
} from '../model/policyMatch.js';
import { queueConfig } from '../sim/queueConfig.js';
import { profileFor } from '../sim/profiles.js';
import { mirroredQueues } from './mirroredQueues.js';

export interface MigrationLog {
  readonly changes: string[];
  readonly notKept: string[];
}

const LEADER_LOCATOR: Readonly<Record<string, string>> = {
  'client-local': 'client-local',
  'min-masters': 'balanced',
  random: 'balanced',
};
export const DELIVERY_LIMIT_POLICY = 'upgrade-delivery-limit';

function without(
  args: { readonly [k: string]: AmqpValue } | undefined,
  keys: (k: string) => boolean,
): { [k: string]: AmqpValue } {
  return Object.fromEntries(Object.entries(args ?? {}).filter(([k]) => !keys(k)));
}

/** A classic queue as a quorum queue: durable, classic-only arguments dropped. */
export function toQuorum(q: QueueDef, log: MigrationLog, why: string): QueueDef {
  const dropped = Object.keys(q.arguments ?? {}).filter((k) => QUEUE_ARGUMENTS[k]?.only === 'classic');
  if (dropped.includes('x-max-priority'))
    log.notKept.push(`queue ${q.name}: x-max-priority dropped (quorum queues have their own two-level priorities)`);
  if (q.arguments?.['x-overflow'] === 'reject-publish-dlx')
    log.notKept.push(
      `queue ${q.name}: x-overflow reject-publish-dlx is not supported by quorum queues (drop-head applies)`,
    );
  log.changes.push(
    `queue ${q.name}: classic -> quorum (${why})${dropped.length ? `; dropped ${dropped.join(', ')}` : ''}`,
  );
  return {
    ...q,
    durable: true,
    auto_delete: false,
    arguments: { ...without(q.arguments, (k) => dropped.includes(k)), 'x-queue-type': 'quorum' },
  };
}

function migrateQueue(q: QueueDef, to: BrokerProfileId, mirrored: ReadonlySet<string>, log: MigrationLog): QueueDef {
  if (to === '3.10') return q;
  if (mirrored.has(q.name)) return toQuorum(q, log, 'it was mirrored; quorum queues are the replicated type on 4.x');
  let args: { [k: string]: AmqpValue } = { ...(q.arguments ?? {}) };
  if (queueTypeOf(args) === 'classic') {
    if (args['x-queue-version'] === 1) {
      delete args['x-queue-version'];
      log.changes.push(`queue ${q.name}: x-queue-version 1 dropped (version 2 is the only one on 4.3)`);
    }
    if (args['x-queue-mode'] !== undefined) {
      delete args['x-queue-mode'];
      log.changes.push(`queue ${q.name}: x-queue-mode dropped (ignored since 3.12)`);
    }
    const loc = args['x-queue-master-locator'];
    if (loc !== undefined) {
      args = without(args, (k) => k === 'x-queue-master-locator');
      const leader = LEADER_LOCATOR[String(loc)] ?? 'balanced';
      args['x-queue-leader-locator'] = leader;
      log.changes.push(`queue ${q.name}: x-queue-master-locator ${String(loc)} -> x-queue-leader-locator ${leader}`);
    }
  }
  let durable = q.durable;
  if (q.durable === false) {
    durable = true;
    log.changes.push(`queue ${q.name}: made durable (transient non-exclusive queues are deprecated on 4.x)`);
    log.notKept.push(
      `queue ${q.name}: it now survives a broker restart; give it x-expires if it was transient for clean-up`,
    );
  }
  return { ...q, ...(durable !== undefined ? { durable } : {}), arguments: args };
}

function migratePolicies(
  policies: readonly PolicyDef[],
  queues: readonly QueueDef[],
  to: BrokerProfileId,
  log: MigrationLog,
): PolicyDef[] {
  const out: PolicyDef[] = [];
  for (const given of policies) {
    let p = given;
    if (
      !profileFor(to).perTypePolicyApplyTo &&
      p['apply-to'] !== undefined &&
      !POLICY_APPLY_TO_3_10.includes(p['apply-to'])
    ) {
      const widened: PolicyDef = { ...p, 'apply-to': 'queues' };
      // the queues of the file the policy reaches only once it applies to every type (rabbitmqadmin-ng's ^cq on classic_queues reaches none)
      const gained = queues
        .filter(
          (q) =>
            policyMatches(widened, q.name, policyTargetOf(q.arguments?.['x-queue-type'])) &&
            !policyMatches(p, q.name, policyTargetOf(q.arguments?.['x-queue-type'])),
        )
        .map((q) => `${q.name} (${queueTypeOf(q.arguments)})`);
      log.changes.push(`policy ${p.name}: apply-to ${p['apply-to']} -> queues (3.10 has no per-type apply-to)`);
      log.notKept.push(
        gained.length > 0
          ? `policy ${p.name}: now applies to ${nameList(gained)} too, which its pattern matches and ${p['apply-to']} kept out`
          : `policy ${p.name}: applies to every queue type its pattern matches: in this file still only the ${p['apply-to']} it had, but a queue of another type declared later with a matching name gets it too`,
      );
      p = widened;
    }
    const refused = refusedPolicyKeys(p.definition, to);
    if (refused.length === 0) {
      out.push(p);
      continue;
    }
    const definition = without(p.definition, (k) => refused.includes(k));
    if (Object.keys(definition).length === 0) {
      log.changes.push(`policy ${p.name}: deleted (only ${refused.join(', ')}, which ${to} refuses)`);
      continue;
    }
    log.changes.push(`policy ${p.name}: dropped ${refused.join(', ')}`);
    if (refused.some((k) => k.startsWith('delayed-retry-')))
      log.notKept.push(
        `policy ${p.name}: delayed retry (${refused.join(', ')}) has no equivalent on ${to}; delay with a TTL wait queue`,
      );
    out.push({ ...p, definition });
  }
  return out;
}

/**
 * Quorum queues whose effective delivery limit would change get the old one back, explicitly:
 * added to the policy that applies to them, or one new policy naming them (apply-to quorum_queues).
 * -1 is 4.x's "unlimited"; 3.x takes the 4.x default (20) as a number.
 */
function keepDeliveryLimits(
  t: Topology,
  original: Topology,
  from: BrokerProfileId,
  to: BrokerProfileId,
  log: MigrationLog,
): PolicyDef[] {
  const policies = [...(t.policies ?? [])];
  const orphans: { name: string; limit: number }[] = [];
  // each policy changed once, with every queue it keeps the old limit for (said in one line)
  const kept = new Map<string, { limit: number; old: number | undefined; now: number | undefined; queues: string[] }>();
  for (const q of t.queues) {
    if (queueTypeOf(q.arguments) !== 'quorum') continue;
    const before = original.queues.find((o) => o.name === q.name);
    // a queue that was classic had no delivery limit at all: it requeued forever
    const old =
      before && queueTypeOf(before.arguments) === 'quorum'
        ? queueConfig(before, original.policies, profileFor(from)).deliveryLimit
        : undefined;
    const now = queueConfig(q, t.policies, profileFor(to)).deliveryLimit;
    if (old === now) continue;
    const limit = old ?? -1;
    const applying = choosePolicy(t.policies, q.name, policyTargetOf('quorum')).policy;
    if (applying && applying.name !== DELIVERY_LIMIT_POLICY) {
      const k = kept.get(applying.name);
      if (k && k.limit !== limit) {
        orphans.push({ name: q.name, limit });
        continue;
      }
      if (k) k.queues.push(q.name);
      else {
        kept.set(applying.name, { limit, old, now, queues: [q.name] });
        const i = policies.findIndex((p) => p.name === applying.name);
        policies[i] = { ...applying, definition: { ...applying.definition, 'delivery-limit': limit } };
      }
    } else orphans.push({ name: q.name, limit });
  }
  for (const [name, k] of kept)
    log.changes.push(
      `policy ${name}: delivery-limit ${k.limit} (keeps ${k.old ?? 'unlimited'} where ${to} would apply ${k.now ?? 'none'}, on ${nameList(k.queues)})`,
    );
  for (const limit of [...new Set(orphans.map((o) => o.limit))]) {
    const names = orphans.filter((o) => o.limit === limit).map((o) => o.name);
    const name = limit === -1 ? DELIVERY_LIMIT_POLICY : `${DELIVERY_LIMIT_POLICY}-${limit}`;
    // 3.10 has no per-type apply-to; the pattern names the queues exactly, so `queues` reaches the same ones
    policies.push({
      name,
      pattern: names.map((n) => exactNamePattern(n)).join('|'),
      'apply-to': profileFor(to).perTypePolicyApplyTo ? 'quorum_queues' : 'queues',
      priority: 0,
      definition: { 'delivery-limit': limit },
    });
    log.changes.push(
      `policy ${name}: new, delivery-limit ${limit} on ${nameList(names)} (${limit === -1 ? 'unlimited, as before the 4.0 default of 20' : 'the 4.x default, now explicit'})`,
    );
  }
  return policies;
}

export function migrateTopology(t: Topology, from: BrokerProfileId, to: BrokerProfileId, log: MigrationLog): Topology {
  const mirrored = new Set(to === '3.10' ? [] : mirroredQueues(t));
  const queues = t.queues.map((q) => migrateQueue(q, to, mirrored, log));
  for (const q of queues)
    if (
      !profileFor(to).quorumDelayedRetry &&
      Object.keys(q.arguments ?? {}).some((k) => k.startsWith('x-delayed-retry-'))
    )
      log.notKept.push(
        `queue ${q.name}: quorum delayed retry (x-delayed-retry-*) is ignored on ${to}; returns come back at once (delay with a TTL wait queue and a DLX)`,
      );
  const policies = migratePolicies(t.policies ?? [], t.queues, to, log);
  const next: Topology = { ...t, queues, ...(t.policies !== undefined || policies.length > 0 ? { policies } : {}) };
  const withLimits = keepDeliveryLimits(next, t, from, to, log);
  return { ...next, ...(withLimits.length > 0 || t.policies !== undefined ? { policies: withLimits } : {}) };
}
