/**
 * `delayed-retry-refused` and `delayed-retry-not-as-written`: quorum delayed retry as RabbitMQ 4.3
 * reads it (model/delayedRetry.ts, measured on 4.3.6). A policy whose delayed-retry-* values the
 * broker's validator refuses is refused whole (HTTP 400; a definitions import that holds it fails);
 * the same values as queue arguments are accepted, and the queue runs with delayed retry disabled
 * or with other delays than written. Only a 4.3 lint: earlier lines ignore the arguments
 * (upgrade-check's delayed-retry-ignored) and refuse the policy keys (policy-key-refused).
 */
import { defineRule } from '../defineRule.js';
import { queueNodeId } from '../../model/nodeIds.js';
import {
  DELAYED_RETRY_POLICY_FIX,
  delayedRetryArgumentNotes,
  delayedRetryPolicyRefusals,
} from '../../model/delayedRetry.js';
import { governedQueues } from '../../model/policyMatch.js';
import type { LintFinding } from '../types.js';

export const delayedRetryRefused = defineRule({
  id: 'delayed-retry-refused',
  title: 'A delayed-retry policy RabbitMQ 4.3 refuses',
  description:
    'On 4.3: a policy whose delayed-retry-* values RabbitMQ 4.3 refuses (measured on 4.3.6: a type other than all, failed, returned, disabled; a min or max that is not a positive integer; a type without delayed-retry-min; a max below the min). The broker refuses the policy with 400 "Validation failed", and a definitions import that holds it fails.',
  level: 'error',
  help: DELAYED_RETRY_POLICY_FIX,
  check: (ctx, _flow, say) => {
    if (!ctx.semantics.quorumDelayedRetry) return [];
    return (ctx.design.topology.policies ?? []).flatMap((p): LintFinding[] => {
      const d = p.definition;
      const refusals = delayedRetryPolicyRefusals({
        type: d['delayed-retry-type'],
        min: d['delayed-retry-min'],
        max: d['delayed-retry-max'],
      });
      if (refusals.length === 0) return [];
      // where the policy would win, as the upgrade check names them: a queue another policy outranks it on never had it
      const queues = governedQueues(ctx.design.topology, p);
      const fields = [...new Set(refusals.map((r) => `delayed-retry-${r.setting}`))];
      return [
        say(
          'error',
          `policy ${p.name}: ${fields.join(', ')}: RabbitMQ 4.3 refuses the policy ("Validation failed: ${refusals.map((r) => r.reason).join('; ')}"), and importing a definitions file that holds it fails with 400${queues.length ? `; ${queues.join(', ')} would run without it` : ''}.`,
          queues.map(queueNodeId),
          DELAYED_RETRY_POLICY_FIX,
        ),
      ];
    });
  },
});

export const delayedRetryNotAsWritten = defineRule({
  id: 'delayed-retry-not-as-written',
  title: 'Delayed-retry arguments RabbitMQ 4.3 accepts but does not run as written',
  description:
    'On 4.3: x-delayed-retry-* queue arguments that a quorum queue accepts but does not run as written (measured on 4.3.6): a bad type or a missing or bad min leaves delayed retry disabled; a bad max is the min; a max below the min makes every delay the max.',
  level: 'warning',
  help: 'Set x-delayed-retry-type with x-delayed-retry-min, a positive integer (ms), and x-delayed-retry-max not below it.',
  check: (ctx, flow, say) => {
    if (!ctx.semantics.quorumDelayedRetry) return [];
    return ctx.design.topology.queues.flatMap((q): LintFinding[] => {
      if (!flow.config(q.name)?.quorum) return [];
      // the values in force that came from the queue's arguments (a policy's are delayed-retry-refused's)
      const s = flow.settings(q.name)?.settings ?? {};
      const arg = (k: string) => (s[k]?.source.kind === 'argument' ? s[k].value : undefined);
      const notes = delayedRetryArgumentNotes({
        type: arg('x-delayed-retry-type'),
        min: arg('x-delayed-retry-min'),
        max: arg('x-delayed-retry-max'),
      });
      return notes.map((n) =>
        say(
          'warning',
          `queue ${q.name}: ${n.message}.`,
          [queueNodeId(q.name)],
          'Set x-delayed-retry-type (all, failed or returned) with x-delayed-retry-min, a positive integer (ms), and x-delayed-retry-max not below it.',
        ),
      );
    });
  },
});
