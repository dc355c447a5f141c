/**
 * Policy validation with RabbitMQ's own rules (rabbit_policy.erl `policy_validation`,
 * rabbit_policies.erl validators): a name, a valid regular expression, `apply-to` one of
 * RabbitMQ's values, an integer priority, a non-empty definition of recognised keys with valid
 * values. Also warns where RabbitMQ would silently pick one of two equal-priority policies.
 */
import type { AmqpValue, PolicyDef } from './definitions.js';
import { pathIndex, pathKey } from './names.js';
import { POLICY_KEYS, refusedPolicyKeys, streamReads } from './policyKeys.js';
import type { BrokerProfileId } from './design.js';
import { POLICY_APPLY_TO, choosePolicy, policyPattern, policyTargetOf } from './policyMatch.js';
import { isPlainObject, type IssueSink } from './validateResult.js';
import { checkTable } from './checkTable.js';
import { delayedRetryPolicyRefusals } from './delayedRetry.js';

/** RabbitMQ stores any number; we ask for a 32-bit integer, as `rabbitmqctl set_policy --priority` parses it. */
export const MAX_POLICY_PRIORITY = 2147483647;

/**
 * `policies`: the raw list; `queues`: the raw queue list (for the equal-priority warning);
 * `at` turns a relative path into the full one.
 */
export function checkPolicies(
  sink: IssueSink,
  policies: readonly unknown[],
  queues: readonly unknown[],
  at: (p: string) => string,
): void {
  const names = new Set<string>();
  const valid: PolicyDef[] = [];
  const indexOf = new Map<PolicyDef, number>();
  policies.forEach((pol, i) => {
    const p = at(pathIndex('policies', i));
    if (!isPlainObject(pol)) return sink.error(p, 'field-type', 'policy must be an object');
    let ok = true;
    if (typeof pol.name !== 'string' || pol.name === '') {
      sink.error(`${p}.name`, 'field-type', 'policy needs a name');
      ok = false;
    } else if (names.has(pol.name)) sink.error(`${p}.name`, 'duplicate-name', `policy "${pol.name}" is listed twice`);
    else names.add(pol.name);
    if (typeof pol.pattern !== 'string') {
      sink.error(`${p}.pattern`, 'field-type', 'pattern must be a regular expression string');
      ok = false;
    } else if (!policyPattern(pol.pattern)) {
      sink.error(
        `${p}.pattern`,
        'pattern-invalid',
        `pattern ${JSON.stringify(pol.pattern)} is not a valid regular expression`,
      );
      ok = false;
    }
    const applyTo = pol['apply-to'];
    if (applyTo !== undefined && !POLICY_APPLY_TO.includes(applyTo as never)) {
      sink.error(
        `${p}.apply-to`,
        'apply-to-invalid',
        `apply-to must be one of ${POLICY_APPLY_TO.join(', ')}; got ${JSON.stringify(applyTo)}`,
      );
      ok = false;
    }
    if (
      pol.priority !== undefined &&
      !(
        typeof pol.priority === 'number' &&
        Number.isInteger(pol.priority) &&
        Math.abs(pol.priority) <= MAX_POLICY_PRIORITY
      )
    ) {
      sink.error(
        `${p}.priority`,
        'priority-range',
        `priority must be an integer between -${MAX_POLICY_PRIORITY} and ${MAX_POLICY_PRIORITY}; got ${JSON.stringify(pol.priority)}`,
      );
      ok = false;
    }
    if (!isPlainObject(pol.definition)) {
      sink.error(`${p}.definition`, 'field-type', 'definition must be an object');
      return;
    }
    if (!checkTable(sink, `${p}.definition`, pol.definition)) return;
    const d = pol.definition as Record<string, AmqpValue>;
    if (Object.keys(d).length === 0)
      sink.error(`${p}.definition`, 'policy-empty', 'a policy needs at least one key in its definition');
    for (const [k, v] of Object.entries(d)) {
      const kp = pathKey(`${p}.definition`, k);
      const spec = POLICY_KEYS[k];
      if (!spec) {
        sink.error(
          kp,
          'policy-key-unknown',
          `"${k}" is not a policy key RabbitMQ recognises (e.g. ${['message-ttl', 'dead-letter-exchange', 'max-length', 'delivery-limit'].join(', ')})`,
        );
        ok = false;
        continue;
      }
      const m = spec.check(v);
      if (m) {
        sink.error(kp, 'argument-value', `${k} ${m}`);
        ok = false;
      }
      const kind = applyTo ?? 'all';
      if (spec.appliesTo === 'exchanges' ? kind !== 'all' && kind !== 'exchanges' : kind === 'exchanges')
        sink.warn(
          kp,
          'policy-key-ignored',
          `${k} applies to ${spec.appliesTo}, but this policy applies to ${kind}: it has no effect`,
        );
      else if (kind === 'streams' && spec.appliesTo === 'queues' && !streamReads(spec))
        sink.warn(
          kp,
          'policy-key-ignored',
          `${k} has no effect on streams (a stream reads max-age, max-length-bytes, stream-max-segment-size-bytes, initial-cluster-size and queue-leader-locator)`,
        );
    }
    // the delayed-retry settings together, as 4.3.6 validates them (model/delayedRetry.ts; each value alone: its key's check)
    for (const r of delayedRetryPolicyRefusals({
      type: d['delayed-retry-type'],
      min: d['delayed-retry-min'],
      max: d['delayed-retry-max'],
    }))
      if (r.kind === 'combination') {
        sink.error(
          pathKey(`${p}.definition`, `delayed-retry-${r.setting}`),
          'delayed-retry-refused',
          `RabbitMQ 4.3 refuses this policy: "${r.reason}"`,
        );
        ok = false;
      }
    if ('dead-letter-routing-key' in d && !('dead-letter-exchange' in d))
      sink.warn(
        pathKey(`${p}.definition`, 'dead-letter-routing-key'),
        'dl-routing-key-without-dlx',
        'dead-letter-routing-key without dead-letter-exchange does nothing unless the queue sets one',
      );
    if (ok) {
      valid.push(pol as unknown as PolicyDef);
      indexOf.set(pol as unknown as PolicyDef, i);
    }
  });
  // RabbitMQ picks one of several equal-priority matches in hash order: say so, once per pair
  const said = new Set<string>();
  for (const q of queues) {
    if (!isPlainObject(q) || typeof q.name !== 'string') continue;
    const args = isPlainObject(q.arguments) ? q.arguments : {};
    const c = choosePolicy(valid, q.name, policyTargetOf(args['x-queue-type']));
    if (!c.policy || c.tiedWith.length === 0) continue;
    const key = [c.policy.name, ...c.tiedWith.map((t) => t.name)].sort().join('|');
    if (said.has(key)) continue;
    said.add(key);
    sink.warn(
      `${at(pathIndex('policies', indexOf.get(c.policy)!))}.priority`,
      'policy-priority-tie',
      `policies ${[c.policy, ...c.tiedWith].map((t) => `"${t.name}"`).join(' and ')} match queue "${q.name}" with the same priority: RabbitMQ applies one of them, which one is not defined; give them different priorities`,
    );
  }
}

/** Policy keys the design's broker line refuses: RabbitMQ would reject the whole policy. */
export function checkPolicyKeysForProfile(
  sink: IssueSink,
  policies: unknown,
  profile: BrokerProfileId,
  at: (p: string) => string,
): void {
  if (!Array.isArray(policies)) return;
  policies.forEach((pol, i) => {
    if (!isPlainObject(pol) || !isPlainObject(pol.definition)) return;
    for (const k of refusedPolicyKeys(pol.definition, profile))
      sink.warn(
        pathKey(`${at(pathIndex('policies', i))}.definition`, k),
        'policy-key-unsupported',
        `${k} is a RabbitMQ ${POLICY_KEYS[k]!.only} policy key: a ${profile} broker refuses this policy ("not recognised policy settings")`,
      );
  });
}
