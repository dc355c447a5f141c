/**
 * Live proof of import-app: a Spring Boot listener (retry in process, then the
 * RejectAndDontRequeueRecoverer into the queue's DLX) and a Spring Cloud Stream binding (retry in
 * process, then republished to `<destination>.<group>.dlq` through the binder's DLX), each read
 * from its configuration, deployed and traced on both brokers with workers that behave as the
 * configuration says: the attempts, the waits between them and the final queue match the
 * simulation, message for message.
 */
import { describe, expect, it } from 'vitest';
import { appJourneys, importAppConfig } from '@retry-studio/topology-core/appconfig';
import type { Design } from '@retry-studio/topology-core/model';
import { dlqDefinitions, springBootYml } from '@retry-studio/topology-core/testing/appconfig';
import { uniquePrefix } from '../http/testing.js';
import { TEST_BROKERS, type TestBroker } from '../testing/testBrokers.js';
import { useLiveServer } from '../testing/liveServer.js';

const { srv, onCleanup, runTrace } = useLiveServer();

/** how far a live wait may be from the simulated one (timers, the broker round trip, a loaded CI machine) */
const TOLERANCE_MS = 250;

const BOOT_YML = springBootYml({
  appName: 'orders',
  enabled: true,
  maxAttempts: 3,
  initialInterval: '200ms',
  multiplier: 2,
  maxInterval: '1s',
  defaultRequeueRejected: false,
});

const BOOT_DEFINITIONS = dlqDefinitions('orders.q', { dlx: 'orders.dlx', dlq: 'orders.dlq' });

const STREAM_YML = [
  'spring.cloud.stream:',
  '  bindings:',
  '    orders-in-0:',
  '      destination: orders',
  '      group: billing',
  '      consumer:',
  '        max-attempts: 3',
  '        back-off-initial-interval: 200',
  '        back-off-multiplier: 2',
  '        back-off-max-interval: 1000',
  '  rabbit.bindings.orders-in-0.consumer:',
  '    auto-bind-dlq: true',
  '',
].join('\n');

describe.each(TEST_BROKERS)('import-app, live on RabbitMQ $name', (b: TestBroker) => {
  const on = { broker: b.amqpUrl, managementUrl: b.managementUrl };
  const deployAndTrace = async (d: Design, tag: string, messages: number) => {
    const prefix = uniquePrefix(tag);
    const dep = await srv.post('/api/deploy', { design: d, prefix, ...on });
    expect(dep.status, JSON.stringify(dep.body)).toBe(200);
    onCleanup(() => srv.post('/api/teardown', { designName: d.name, prefix, ...on, force: true }));
    const run = await runTrace({ design: d, prefix, messages, failure: { kind: 'always' }, ...on }, 60_000);
    const pred = await srv.get(`/api/trace/${run.id}/prediction?events=0`);
    expect(pred.status).toBe(200);
    // the waits between one message's processing attempts, live, against the simulated ones
    const simulated = appJourneys(d)[0]!.delaysMs;
    const byMsg = new Map<string, number[]>();
    for (const e of run.events) if (e.kind === 'processed') byMsg.set(e.msgId, [...(byMsg.get(e.msgId) ?? []), e.t]);
    expect(byMsg.size).toBe(messages);
    for (const times of byMsg.values()) {
      const waits = times.slice(1).map((t, i) => t - times[i]!);
      expect(waits.length).toBe(simulated.length);
      waits.forEach((w, i) => {
        expect(w).toBeGreaterThanOrEqual(simulated[i]! - 20);
        expect(w).toBeLessThanOrEqual(simulated[i]! + TOLERANCE_MS);
      });
    }
    return { summary: run.summary, comparison: pred.body.comparison, simulated };
  };

  // each read from its configuration, as import-app reads it; both end parked in their DLQ after 3 attempts
  const APPS = [
    {
      what: 'Spring Boot: 3 attempts 200 ms and 400 ms apart, then rejected into the DLX',
      tag: 'appboot',
      read: () =>
        importAppConfig([{ name: 'application.yml', text: BOOT_YML }], {
          definitions: { name: 'definitions.json', text: BOOT_DEFINITIONS },
          profile: b.name,
        }),
      dlq: 'orders.dlq',
    },
    {
      what: 'Spring Cloud Stream: 3 attempts, then republished to orders.billing.dlq with the exception headers',
      tag: 'appscs',
      read: () => importAppConfig([{ name: 'application.yml', text: STREAM_YML }], { profile: b.name }),
      dlq: 'orders.billing.dlq',
    },
  ];

  for (const app of APPS)
    it(`${app.what}: as simulated`, async () => {
      const { summary, comparison, simulated } = await deployAndTrace(app.read().design, app.tag, 2);
      expect(simulated).toEqual([200, 400]);
      expect(summary).toMatchObject({
        state: 'complete',
        published: 2,
        acked: 0,
        parked: 2,
        inFlight: 0,
        dropped: 0,
        balanced: true,
      });
      expect(summary.resting).toEqual({ [app.dlq]: 2 });
      expect(summary.eventCounts.processed).toBe(6);
      expect(comparison).toMatchObject({ messagesCompared: 2, matching: 2 });
      expect(comparison.firstDifference).toBeUndefined();
    });
});
