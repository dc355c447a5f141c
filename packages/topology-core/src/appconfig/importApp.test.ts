import { describe, expect, it } from 'vitest';
import { lintDesign } from '../lint/lintDesign.js';
import { AppConfigFailure, type AppFile } from '../frameworks/types.js';
import { importAppConfig } from './importApp.js';
import { appJourneys } from './journey.js';
import { dlqDefinitions } from '../../testing/appConfigFixtures.js';

const f = (name: string, ...lines: string[]): AppFile => ({ name, text: lines.join('\n') + '\n' });

function failure(run: () => unknown): AppConfigFailure {
  try {
    run();
  } catch (e) {
    if (e instanceof AppConfigFailure) return e;
    throw e;
  }
  throw new Error('no failure');
}

const findings = (files: AppFile[], profile: '3.10' | '4.x' | '4.3' = '3.10') =>
  lintDesign(importAppConfig(files, { profile }).design)
    .filter((x) => x.at)
    .map((x) => `${x.id}@${x.at!.line}`);

describe('import-app: bad input names the file and line', () => {
  it('a YAML syntax error gives line and column', () => {
    const e = failure(() => importAppConfig([f('application.yml', 'spring:', '  rabbitmq:', '   listener: [')]));
    expect(e.error.file).toBe('application.yml');
    expect(e.error.line).toBe(4);
    expect(e.error.message).toMatch(/YAML syntax error/);
  });
  it('a properties line that is not key=value', () => {
    const e = failure(() =>
      importAppConfig([f('application.properties', 'spring.rabbitmq.listener.simple.retry.enabled=true', '=oops')]),
    );
    expect(e.error.line).toBe(2);
  });
  it('an unknown kind of file, a file with no listener, two frameworks', () => {
    expect(failure(() => importAppConfig([f('app.toml', 'x = 1')])).error.message).toMatch(/unknown kind of file/);
    expect(
      failure(() => importAppConfig([f('application.yml', 'spring:', '  rabbitmq:', '    host: localhost')])).error
        .message,
    ).toMatch(/no RabbitMQ listener or binding/);
    const two = failure(() =>
      importAppConfig([
        f('a.yml', 'spring.rabbitmq.listener.simple.retry.enabled: true'),
        f(
          'tasks.py',
          'from celery import shared_task',
          '@shared_task(autoretry_for=(Exception,))',
          'def t():',
          '    pass',
        ),
      ]),
    );
    expect(two.error.message).toMatch(/spring-boot and celery/);
    expect(two.error.message).toMatch(/--framework/);
  });
  it('a value of the wrong type names its line', () => {
    const e = failure(() =>
      importAppConfig([
        f('application.yml', 'spring.rabbitmq.listener.simple.retry:', '  enabled: true', '  initial-interval: soon'),
      ]),
    );
    expect(e.error.line).toBe(3);
    expect(e.error.message).toMatch(/initial-interval must be a duration/);
  });
});

describe('Spring Boot', () => {
  it('reads the retry count as the Boot line told (--spring-boot), Boot 2/3 by default, and names the key the line ignores', () => {
    // max-retries (Boot 4) beside max-attempts (Boot 2/3) in one listener block
    const both = (...more: string[]) =>
      f(
        'application.yml',
        'spring.rabbitmq.listener.simple:',
        '  retry:',
        '    enabled: true',
        '    max-retries: 2',
        '    max-attempts: 9',
        ...more,
      );
    const more = [
      '    initial-interval: 100ms',
      '    multiplier: 3',
      '    max-interval: 1s',
      '  default-requeue-rejected: false',
    ];
    const boot4 = importAppConfig([both(...more)], { springBoot: '4.0' });
    const [j4] = appJourneys(boot4.design);
    expect(j4!.attempts).toBe(3);
    expect(j4!.delaysMs).toEqual([100, 300]);
    expect(j4!.endsIn.kind).toBe('dropped');
    const said = (app: typeof boot4) =>
      app.design.sources!['consumer:app-listener']!.settings!.find((s) => s.key === 'Spring Boot');
    expect(said(boot4)).toMatchObject({ value: '4.0 (read as Boot 4)', via: '--spring-boot 4.0' });
    expect(boot4.notes.map((n) => `${n.line}: ${n.text}`)).toContain(
      '5: spring.rabbitmq.listener.simple.retry.max-attempts is ignored next to max-retries (Spring Boot 4 reads max-retries only)',
    );
    // not told: Boot 2/3, said aloud; max-retries is the key it ignores
    const boot3 = importAppConfig([both(...more)]);
    expect(appJourneys(boot3.design)[0]!.attempts).toBe(9);
    expect(said(boot3)?.value).toBe('2/3');
    expect(said(boot3)?.via).toMatch(/default; --spring-boot 4\.0/);
    expect(boot3.notes.map((n) => n.line)).toContain(4);
    expect(findings([both()])).toContain('framework-key-ignored@4');
    // only Boot 4's key written: read as Boot 4 unless told otherwise
    const only4 = f('application.yml', 'spring.rabbitmq.listener.simple.retry:', '  enabled: true', '  max-retries: 1');
    expect(appJourneys(importAppConfig([only4]).design)[0]!.attempts).toBe(2);
    expect(appJourneys(importAppConfig([only4], { springBoot: '3.5' }).design)[0]!.attempts).toBe(3);
    // a default file: Boot 4's max-retries default is one attempt more than Boot 3's max-attempts
    const plain = f('application.yml', 'spring.rabbitmq.listener.simple.retry.enabled: true');
    expect(appJourneys(importAppConfig([plain]).design)[0]!.attempts).toBe(3);
    expect(appJourneys(importAppConfig([plain], { springBoot: '4' }).design)[0]!.attempts).toBe(4);
    expect(failure(() => importAppConfig([plain], { springBoot: 'five' })).message).toMatch(
      /--spring-boot must be a Spring Boot release such as 3\.5 or 4\.0, got "five"/,
    );
  });
  it('profiles: a document applies when its profile is active', () => {
    const file = f(
      'application.yml',
      'spring.rabbitmq.listener.simple.retry:',
      '  enabled: true',
      '  max-attempts: 2',
      '---',
      'spring.config.activate.on-profile: prod',
      'spring.rabbitmq.listener.simple.retry.max-attempts: 5',
    );
    expect(appJourneys(importAppConfig([file]).design)[0]!.attempts).toBe(2);
    expect(appJourneys(importAppConfig([file], { springProfiles: ['prod'] }).design)[0]!.attempts).toBe(5);
  });
  it('with definitions, the listener reads each work queue and dead-letters through the queue DLX', () => {
    const defs = dlqDefinitions('orders', { dlx: 'dlx' });
    const app = importAppConfig(
      [
        f(
          'application.properties',
          'spring.rabbitmq.listener.simple.retry.enabled=true',
          'spring.rabbitmq.listener.simple.retry.max-attempts=2',
        ),
      ],
      { definitions: { name: 'defs.json', text: defs } },
    );
    expect(app.design.consumers.map((c) => c.queue)).toEqual(['orders']);
    const [j] = appJourneys(app.design);
    expect(j!.endsIn).toEqual({ kind: 'queue', queue: 'orders.dlq' });
  });
  it('a back-off longer than the consumer timeout is an error, except on 4.3 classic queues', () => {
    const file = f(
      'application.yml',
      'spring.rabbitmq.listener.simple.retry:',
      '  enabled: true',
      '  max-attempts: 5',
      '  initial-interval: 10m',
      '  max-interval: 20m',
      '  multiplier: 2',
    );
    expect(findings([file])).toContain('backoff-over-consumer-timeout@5');
    expect(findings([file], '4.3').some((x) => x.startsWith('backoff-over-consumer-timeout'))).toBe(false);
  });
});

describe('Spring Cloud Stream', () => {
  const binder = (...extra: string[]) =>
    f(
      'application.yml',
      'spring.cloud.stream:',
      '  bindings:',
      '    orders-in-0:',
      '      destination: orders',
      '      group: billing',
      '      consumer.max-attempts: 2',
      '  rabbit.bindings.orders-in-0.consumer:',
      '    auto-bind-dlq: true',
      ...extra.map((l) => `    ${l}`),
    );
  it('declares the binder topology and republishes to the DLQ after the retries', () => {
    const app = importAppConfig([binder()]);
    expect(app.design.topology.queues.map((q) => q.name).sort()).toEqual(['orders.billing', 'orders.billing.dlq']);
    expect(app.design.topology.exchanges.map((x) => `${x.name}:${x.type}`).sort()).toEqual([
      'DLX:direct',
      'orders:topic',
    ]);
    const [j] = appJourneys(app.design);
    expect(j!.attempts).toBe(2);
    expect(j!.endsIn).toEqual({ kind: 'queue', queue: 'orders.billing.dlq' });
  });
  it('dlq-ttl back to the queue with republish-to-dlq: x-death counted on 3.10, not on 4.x', () => {
    const file = binder('dlq-ttl: 5000', "dlq-dead-letter-exchange: ''");
    expect(findings([file], '3.10').filter((x) => x.startsWith('republish-counts-x-death'))).toHaveLength(1);
    const on4 = lintDesign(importAppConfig([file], { profile: '4.x' }).design).find(
      (x) => x.id === 'republish-counts-x-death',
    );
    expect(on4?.severity).toBe('warning');
    expect(on4?.fix).toMatch(/republish-to-dlq: false/);
  });
  it('a DLQ with a TTL and nowhere to go: the parked finding points at the binder line, in the binder terms', () => {
    const on = lintDesign(importAppConfig([binder('dlq-ttl: 60000')]).design).find(
      (x) => x.id === 'parked-dead-letters-expire',
    );
    expect(on?.at?.file).toBe('application.yml');
    expect(on?.fix).toMatch(/dlq-dead-letter-exchange/);
  });
  it('no DLX for republish-to-dlq: the binder disables it and acks the failed message (discarded)', () => {
    // RabbitMessageChannelBinder's error handler: a passive declare of DLX fails, "disabling 'republishToDlq'", return
    const file = f('application.yml', 'spring.cloud.stream.bindings.in-in-0:', '  destination: d', '  group: g');
    const [j] = appJourneys(importAppConfig([file]).design);
    expect([j!.attempts, j!.delaysMs, j!.outcome.kind]).toEqual([3, [1000, 2000], 'discarded']);
    expect(findings([file])).toEqual(['app-discards-failures@2']);
    // without republishing, the RejectAndDontRequeueRecoverer rejects: dropped (no DLX on the queue)
    const off = f(
      'application.yml',
      'spring.cloud.stream.bindings.in-in-0:',
      '  destination: d',
      '  group: g',
      'spring.cloud.stream.rabbit.bindings.in-in-0.consumer.republish-to-dlq: false',
    );
    expect(appJourneys(importAppConfig([off]).design)[0]!.outcome.kind).toBe('dropped');
  });

  it("an anonymous group's queue carries x-queue-master-locator: 4.x refuses it, the binding never consumes", () => {
    // Spring AMQP's AnonymousQueue (up to 3.2.10 / 4.0.3) adds the locator; measured with the real binder on 4.3.6
    const file = f('application.yml', 'spring.cloud.stream.bindings.sink-in-0.destination: d');
    const design = importAppConfig([file]).design;
    expect(design.topology.queues[0]).toMatchObject({
      name: 'd.anonymous',
      arguments: { 'x-queue-master-locator': 'client-local' },
    });
    expect(findings([file], '3.10')).not.toContain('framework-queue-refused@1');
    for (const profile of ['4.x', '4.3'] as const)
      expect(findings([file], profile)).toContain('framework-queue-refused@1');
    const f43 = lintDesign(importAppConfig([file], { profile: '4.3' }).design).find(
      (x) => x.id === 'framework-queue-refused',
    )!;
    expect(f43.message).toMatch(/sink-in-0 never consumes/);
    expect(f43.fix).toMatch(/Give the binding a group/);
    // a group queue carries none
    const grouped = f('application.yml', 'spring.cloud.stream.bindings.sink-in-0:', '  destination: d', '  group: g');
    expect(findings([grouped], '4.3')).not.toContain('framework-queue-refused@2');
  });

  it('requeue-rejected with one attempt and no DLQ loops', () => {
    const file = f(
      'application.yml',
      'spring.cloud.stream.bindings.in-in-0:',
      '  destination: d',
      '  group: g',
      '  consumer.max-attempts: 1',
      'spring.cloud.stream.rabbit.bindings.in-in-0.consumer:',
      '  requeue-rejected: true',
      '  republish-to-dlq: false',
    );
    expect(findings([file]).some((x) => x.startsWith('requeue-rejected-forever'))).toBe(true);
    // the generic finding is said better by the framework's own
    expect(lintDesign(importAppConfig([file]).design).some((x) => x.id === 'requeue-without-limit')).toBe(false);
  });
});

describe('NServiceBus and MassTransit', () => {
  it('immediate retries above the quorum delivery limit of 4.x', () => {
    const file = f(
      'Program.cs',
      'var c = new EndpointConfiguration("Sales");',
      'var r = c.Recoverability();',
      'r.Immediate(i => i.NumberOfRetries(25));',
    );
    expect(findings([file], '4.x')).toContain('immediate-retries-over-delivery-limit@3');
    expect(findings([file], '3.10').some((x) => x.startsWith('immediate-retries-over-delivery-limit'))).toBe(false);
  });
  it('MassTransit: in-process retries, then delayed redelivery through <queue>_delay, then <queue>_error', () => {
    const file = f(
      'Program.cs',
      'cfg.ReceiveEndpoint("orders", e =>',
      '{',
      '    e.UseDelayedRedelivery(r => r.Intervals(TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(15)));',
      '    e.UseMessageRetry(r => r.Incremental(2, TimeSpan.FromMilliseconds(100), TimeSpan.FromMilliseconds(200)));',
      '});',
    );
    const app = importAppConfig([file]);
    const [j] = appJourneys(app.design);
    expect(j!.attempts).toBe(9);
    expect(j!.delaysMs).toEqual([100, 300, 5000, 100, 300, 15000, 100, 300]);
    expect(j!.endsIn).toEqual({ kind: 'queue', queue: 'orders_error' });
  });
  it('code it cannot read is named with its line, not guessed', () => {
    const app = importAppConfig([
      f(
        'Program.cs',
        'cfg.ReceiveEndpoint("orders", e =>',
        '{',
        '    e.UseMessageRetry(r => r.Interval(retryCount, delay));',
        '});',
      ),
    ]);
    expect(app.notes.find((n) => n.line === 3)?.text).toMatch(/Interval\(retryCount, delay\)/);
  });
});
