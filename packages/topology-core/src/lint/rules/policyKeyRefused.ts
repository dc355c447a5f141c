/**
 * `policy-key-refused`: a policy carries a key the linted broker line does not recognise
 * (model/policyKeys.ts, each key measured on 3.10.8 and 4.3.6). The broker refuses the policy
 * ("are not recognised policy settings"), and a definitions import that holds it fails with 400.
 */
import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { POLICY_KEYS, refusedPolicyKeys } from '../../model/policyKeys.js';

export const policyKeyRefused = defineRule({
  id: 'policy-key-refused',
  title: 'A policy key the broker line refuses',
  description:
    'A policy sets a key the broker line does not recognise (measured on 3.10.8 and 4.3.6: e.g. consumer-timeout, target-group-size and stream-filter-size-bytes on 3.10, ha-* and queue-master-locator on 4.x): the broker refuses the policy, and a definitions import that holds it fails with 400.',
  level: 'error',
  help: 'Drop the key for that broker line (upgrade-check migrates a design between lines).',
  check: (ctx, flow, say) =>
    (ctx.design.topology.policies ?? []).flatMap((p) => {
      const keys = refusedPolicyKeys(p.definition, ctx.profile);
      if (keys.length === 0) return [];
      const lines = [...new Set(keys.map((k) => POLICY_KEYS[k]!.only))].join(' and ');
      // the queues it governs (where it wins on priority), not every queue its pattern matches
      const queues = flow.governedBy(p.name).queues;
      return [
        say(
          'error',
          `policy ${p.name} sets ${keys.join(', ')} (RabbitMQ ${lines} only): a ${ctx.profile} broker refuses the policy ("are not recognised policy settings"), and importing a definitions file that holds it fails with 400.`,
          queues.map(queueNodeId),
          `Drop ${keys.join(', ')} from policy ${p.name} for ${ctx.profile} (upgrade-check migrates between broker lines).`,
        ),
      ];
    }),
});
