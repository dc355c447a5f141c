import { defineRule } from '../defineRule.js';
import { consumerNodeId } from '../../model/nodeIds.js';
import { allActions } from '../ruleHelpers.js';

export const largeExceptionHeaders = defineRule({
  id: 'large-exception-headers',
  title: 'Stack traces in headers',
  description:
    'A consumer copies stack traces into headers: every retry carries them, and x-death grows the message further.',
  level: 'warning',
  help: 'Keep exception headers short (a message and a type), or store the trace elsewhere.',
  check: (ctx, _flow, say) =>
    allActions(ctx)
      .filter((x) => x.action.kind === 'republish' && x.action.exceptionHeaders === true)
      .filter((x, i, arr) => arr.findIndex((y) => y.consumer === x.consumer) === i)
      .map((x) =>
        say(
          'warning',
          `${x.consumer} republishes with x-exception-stacktrace: a deep stack trace can exceed the negotiated frame_max and close the channel (Spring AMQP #2375, NServiceBus #3023).`,
          [consumerNodeId(x.consumer)],
          'Truncate the stack trace (Spring: RepublishMessageRecoverer headers size / frameMaxHeadroom) or leave it out of the headers.',
        ),
      ),
});
