/**
 * Spring AMQP Java read through its constants and expressions, as the JVM evaluates them, and its
 * two retry generations: Spring Retry's maxAttempts (3.x) and Spring Framework's maxRetries (4.0).
 */
import { describe, expect, it } from 'vitest';
import { importAppConfig } from '../appconfig/importApp.js';
import { appJourneys } from '../appconfig/journey.js';
import { sourceSetting } from '../model/source.js';

const java = (...lines: string[]) => ({ name: 'RabbitConfig.java', text: lines.join('\n') + '\n' });

/** a @RabbitListener on `orders` with the advice built from `chain` (the lines of the builder) */
function config(fields: string[], chain: string[]): ReturnType<typeof java> {
  return java(
    'package com.example;',
    '@Configuration',
    'public class RabbitConfig {',
    ...fields.map((f) => `    ${f}`),
    '    @Bean',
    '    public RetryOperationsInterceptor retryInterceptor() {',
    '        return RetryInterceptorBuilder.stateless()',
    ...chain.map((c) => `            ${c}`),
    '            .build();',
    '    }',
    '    @RabbitListener(queues = "orders")',
    '    public void onOrder(String body) {}',
    '}',
  );
}

const journeyOf = (f: ReturnType<typeof java>) => {
  const app = importAppConfig([f]);
  return { app, j: appJourneys(app.design)[0]! };
};

describe('Spring AMQP Java: constants and expressions', () => {
  it('the issue case: Long and int fields, a Duration: 5 attempts, waits 5, 10, 20, 30 s (the max interval caps each wait)', () => {
    const { app, j } = journeyOf(
      config(
        [
          'private static final int RETRY_MAX_ATTEMPTS = 5;',
          'private final Long RETRY_INITIAL_INTERVAL = 5000L;',
          'private final Double RETRY_MULTIPLIER = 2.0;',
          'private final long RETRY_MAX_INTERVAL = Duration.ofSeconds(30).toMillis();',
        ],
        [
          '.maxAttempts(RETRY_MAX_ATTEMPTS)',
          '.backOffOptions(RETRY_INITIAL_INTERVAL, RETRY_MULTIPLIER, RETRY_MAX_INTERVAL)',
          '.recoverer(new RejectAndDontRequeueRecoverer())',
        ],
      ),
    );
    expect(j.attempts).toBe(5);
    expect(j.delaysMs).toEqual([5000, 10000, 20000, 30000]);
    const s = app.design.sources!['consumer:listener-orders'];
    // where the value came from: the call's line and the constant it was written as
    expect(sourceSetting(s, 'maxAttempts')).toMatchObject({
      value: '5',
      line: 11,
      via: 'RETRY_MAX_ATTEMPTS = 5 (line 4)',
    });
    expect(sourceSetting(s, 'backOffOptions')?.via).toContain('RETRY_MAX_INTERVAL = 30000 (line 7)');
  });

  it('TimeUnit, arithmetic, underscores and a constant of another class', () => {
    const { j } = journeyOf(
      config(
        [
          'static final long BASE = TimeUnit.SECONDS.toMillis(2);',
          'static final int TRIES = 2 + 1;',
          'static final long CAP = 60_000L / 4;',
        ],
        ['.maxAttempts(RetryConstants.TRIES)', '.backOffOptions(BASE, 3, CAP)'],
      ),
    );
    expect(j.attempts).toBe(3);
    expect(j.delaysMs).toEqual([2000, 6000]);
  });

  it('@Value fields: the property given beside, else their default', () => {
    const cfg = config(['@Value("${app.retry.max:4}")', 'private int maxAttempts;'], ['.maxAttempts(maxAttempts)']);
    expect(journeyOf(cfg).j.attempts).toBe(4);
    const withYml = importAppConfig([cfg, { name: 'application.yml', text: 'app:\n  retry:\n    max: 6\n' }], {
      framework: 'spring-amqp',
    });
    expect(appJourneys(withYml.design)[0]!.attempts).toBe(6);
  });

  it('an expression it cannot read is named with its line, and the default applies', () => {
    const { app, j } = journeyOf(config([], ['.maxAttempts(props.getRetry().getMax())']));
    expect(j.attempts).toBe(3);
    expect(app.notes.map((n) => `${n.line}: ${n.text}`).join('\n')).toMatch(
      /^7: maxAttempts\(props\.getRetry\(\)\.getMax\(\)\): not a value read here/m,
    );
  });

  it('stateless with no recoverer: discarded; no back-off on Spring Retry (3.x), 1 s apart on Spring AMQP 4 (maxRetries)', () => {
    const old = journeyOf(config([], ['.maxAttempts(3)'])).j;
    expect(old.delaysMs).toEqual([0, 0]);
    expect(old.outcome.kind).toBe('discarded');
    const v4 = journeyOf(config([], ['.maxRetries(2)'])).j;
    expect(v4.attempts).toBe(3);
    expect(v4.delaysMs).toEqual([1000, 1000]);
    const built = journeyOf(
      config(
        [],
        [
          '.configureRetryPolicy(b -> b.maxRetries(3).delay(Duration.ofMillis(500)).multiplier(2).maxDelay(Duration.ofSeconds(1)))',
        ],
      ),
    ).j;
    expect(built.delaysMs).toEqual([500, 1000, 1000]);
  });

  it('a recoverer bean method is followed to the class it returns', () => {
    const f = java(
      'public class C {',
      '  @Bean MessageRecoverer recoverer() { return new RepublishMessageRecoverer(template, "errors", "orders.failed"); }',
      '  @Bean RetryOperationsInterceptor advice() { return RetryInterceptorBuilder.stateless().maxAttempts(2).recoverer(recoverer()).build(); }',
      '  @RabbitListener(queues = "orders") void on(String s) {}',
      '}',
    );
    const { app, j } = journeyOf(f);
    expect(app.design.topology.exchanges.map((x) => x.name)).toContain('errors');
    expect(j.attempts).toBe(2);
  });

  it('@RabbitListener(bindings = @QueueBinding(...)) declares its queue, exchange and key', () => {
    const f = java(
      'public class L {',
      '  @RabbitListener(bindings = @QueueBinding(value = @Queue(value = "audit", arguments = @Argument(name = "x-message-ttl", value = "60000", type = "java.lang.Integer")),',
      '      exchange = @Exchange(value = "events", type = ExchangeTypes.TOPIC), key = {"order.*", "invoice.#"}))',
      '  public void on(String s) {}',
      '}',
    );
    const t = importAppConfig([f]).design.topology;
    expect(t.queues.find((q) => q.name === 'audit')?.arguments).toEqual({ 'x-message-ttl': 60000 });
    expect(t.exchanges.find((x) => x.name === 'events')?.type).toBe('topic');
    expect(t.bindings.filter((b) => b.source === 'events').map((b) => b.routing_key)).toEqual(['order.*', 'invoice.#']);
  });
});
