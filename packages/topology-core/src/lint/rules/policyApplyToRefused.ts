/**
 * `policy-apply-to-refused`: a policy applies to one queue type (`classic_queues`,
 * `quorum_queues`, `streams`, RabbitMQ 3.12 and later) and the linted broker line is 3.10, which
 * knows only all, queues and exchanges. Measured on 3.10.8 (corpus: rabbitmqadmin-ng's 4.0.5
 * vhost export): `POST /api/definitions/VHOST` answers 400 "apply-to 'classic_queues'
 * unrecognised; should be 'queues', 'exchanges' or 'all'" and creates none of the file's queues;
 * 4.3.6 loads the same file. upgrade-check's rule of the same id says it for a move to 3.10.
 */
import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import { POLICY_APPLY_TO_3_10 } from '../../model/policyMatch.js';

export const policyApplyToRefused = defineRule({
  id: 'policy-apply-to-refused',
  title: 'A policy apply-to the broker line does not know',
  description:
    'A policy applies to one queue type (classic_queues, quorum_queues, streams: RabbitMQ 3.12 and later) and the broker line is 3.10, which knows only all, queues and exchanges (measured on 3.10.8: the import fails with 400 before any queue is created).',
  level: 'error',
  help: 'Use apply-to queues with a pattern that matches only the queues meant (upgrade-check --to 3.10 migrates it).',
  check: (ctx, flow, say) =>
    ctx.semantics.perTypePolicyApplyTo
      ? []
      : (ctx.design.topology.policies ?? [])
          .filter((p) => p['apply-to'] !== undefined && !POLICY_APPLY_TO_3_10.includes(p['apply-to']))
          .map((p) => {
            // the queues it governs (where it wins on priority), not every queue its pattern matches
            const queues = flow.governedBy(p.name).queues;
            return say(
              'error',
              `policy ${p.name} applies to ${p['apply-to']} (RabbitMQ 3.12 and later): a 3.10 broker knows only all, queues and exchanges and refuses the policy ("apply-to '${p['apply-to']}' unrecognised"); importing a definitions file that holds it fails with 400 before any of its queues is created.`,
              queues.map(queueNodeId),
              `Use apply-to queues with a pattern that matches only the ${p['apply-to']!.replace('_queues', '')} queues meant (upgrade-check --to 3.10 migrates it).`,
            );
          }),
});
