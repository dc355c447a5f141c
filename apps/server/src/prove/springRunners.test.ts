import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importAppConfig } from '@retry-studio/topology-core/appconfig';
import { consumerNodeId } from '@retry-studio/topology-core/model';
import { javaConfigArgs, streamFunctionArgs } from './springRunners.js';

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
  /** the corpus file's reading, as prove-app hands it to the runner */
  const args = (file: string): string[] => {
    const text = readFileSync(fileURLToPath(new URL(`../cli/appcorpus/spring-amqp/${file}`, import.meta.url)), 'utf8');
    const d = importAppConfig([{ name: file, text }]).design;
    const c = d.consumers[0]!;
    return javaConfigArgs(c, d.sources?.[consumerNodeId(c.id)]);
  };

  it('stateless retry with its back-off and the reject recoverer, the numbers through the constants', () => {
    expect(args('WrittenOrdersRetryConfig.java')).toEqual([
      '--prove.javaconfig.retry=stateless',
      '--prove.javaconfig.maxAttempts=4',
      '--prove.javaconfig.backOff=500,2,2000',
      '--prove.javaconfig.recoverer=reject',
      '--prove.javaconfig.prefetch=10',
    ]);
  });

  it('no back-off call and no recoverer stay absent (the framework defaults apply), requeue-rejected as set', () => {
    const a = args('RabbitMQExceptionHandling.java');
    expect(a).toContain('--prove.javaconfig.recoverer=none');
    expect(a).toContain('--prove.javaconfig.defaultRequeueRejected=false');
    expect(a.some((x) => x.includes('backOff'))).toBe(false);
  });

  it('a republishing recoverer bean keeps its exchange and routing key, resolved through the constants', () => {
    expect(args('WrittenInventoryErrorRoutingConfig.java')).toEqual([
      '--prove.javaconfig.retry=stateless',
      '--prove.javaconfig.maxAttempts=3',
      '--prove.javaconfig.backOff=1000,1,1000',
      '--prove.javaconfig.recoverer=republish',
      '--prove.javaconfig.republishExchange=inventory.errors',
      '--prove.javaconfig.republishRoutingKey=stock-adjusted.failed',
    ]);
  });

  it('a factory with no advice is no retry', () => {
    expect(args('WrittenPaymentsListenerConfig.java')).toEqual([
      '--prove.javaconfig.retry=none',
      '--prove.javaconfig.prefetch=25',
    ]);
  });
});
