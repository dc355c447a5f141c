import { consumerNodeId } from '../../model/nodeIds.js';
import { finding, allActions } from '../ruleHelpers.js';
import type { LintRule } from '../types.js';

export const largeExceptionHeaders: LintRule = {
  id: 'large-exception-headers',
  title: 'Stack traces in headers',
  check: (ctx) =>
    allActions(ctx)
      .filter((x) => x.action.kind === 'republish' && x.action.exceptionHeaders === true)
      .filter((x, i, arr) => arr.findIndex((y) => y.consumer === x.consumer) === i)
      .map((x) =>
        finding(
          'large-exception-headers',
          'warning',
          `${x.consumer} republishes with x-exception-stacktrace: a deep stack trace can exceed the negotiated frame_max and close the channel (Spring AMQP #2375, NServiceBus #3023).`,
          [consumerNodeId(x.consumer)],
          'Truncate the stack trace (Spring: RepublishMessageRecoverer headers size / frameMaxHeadroom) or leave it out of the headers.',
        ),
      ),
};
