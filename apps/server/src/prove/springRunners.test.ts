import { describe, expect, it } from 'vitest';
import type { NodeSource } from '@retry-studio/topology-core/model';
import { javaConfigArgs, streamFunctionArgs } from './springRunners.js';

const source = (settings: Record<string, string>): NodeSource => ({
  framework: 'spring-amqp',
  file: 'Config.java',
  line: 1,
  settings: Object.entries(settings).map(([key, value], i) => ({ key, value, line: i + 2 })),
});

describe('Spring Cloud Stream: the functions its bindings name', () => {
  it("`<fn>-in-<n>` bindings name their function; a bare binding is mapped onto a function of its own (the binding names the binder's channel bean)", () => {
    expect(streamFunctionArgs(['sink1-in-0', 'sink2-in-0'])).toEqual([
      '--prove.functions=sink1;sink2',
      '--spring.cloud.function.definition=sink1;sink2',
    ]);
    expect(streamFunctionArgs(['input'])).toEqual([
      '--prove.functions=inputFunction',
      '--spring.cloud.function.definition=inputFunction',
      '--spring.cloud.stream.function.bindings.inputFunction-in-0=input',
    ]);
  });
});

describe('Spring AMQP Java configuration: the container factory as read', () => {
  it('stateless retry with its back-off and the reject recoverer', () => {
    expect(
      javaConfigArgs(
        source({
          RetryInterceptorBuilder: 'stateless',
          maxAttempts: '3',
          backOffOptions: '2000, 2, 10000',
          recoverer: 'RejectAndDontRequeueRecoverer',
        }),
      ),
    ).toEqual([
      '--prove.javaconfig.retry=stateless',
      '--prove.javaconfig.maxAttempts=3',
      '--prove.javaconfig.backOff=2000,2,10000',
      '--prove.javaconfig.recoverer=reject',
    ]);
  });

  it('no back-off call and no recoverer stay absent (the framework defaults apply), requeue-rejected as set', () => {
    const args = javaConfigArgs(
      source({ RetryInterceptorBuilder: 'stateless', maxAttempts: '3', setDefaultRequeueRejected: 'false' }),
    );
    expect(args).toContain('--prove.javaconfig.recoverer=none');
    expect(args).toContain('--prove.javaconfig.defaultRequeueRejected=false');
    expect(args.some((a) => a.includes('backOff'))).toBe(false);
  });

  it('a republishing recoverer keeps its exchange and routing key; no builder is no retry', () => {
    expect(javaConfigArgs(source({ recoverer: 'RepublishMessageRecoverer(template, "dlx", "failed")' }))).toEqual([
      '--prove.javaconfig.retry=none',
      '--prove.javaconfig.recoverer=republish',
      '--prove.javaconfig.republishExchange=dlx',
      '--prove.javaconfig.republishRoutingKey=failed',
    ]);
  });
});
