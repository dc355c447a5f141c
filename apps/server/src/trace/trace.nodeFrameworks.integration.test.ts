/**
 * Live proof of the new reader shapes on both brokers, in a throwaway vhost: a Rascal recovery
 * chain (republish after a `defer`, counted in a header, then nack into the DLX) and a Spring
 * AMQP stateless retry with no recoverer (discarded: acked after the last attempt, gone). Each is
 * read from its configuration, deployed and traced with workers that behave as read: the
 * attempts, the waits and the end match the simulation, message for message.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { appJourneys, importAppConfig } from '@retry-studio/topology-core/appconfig';
import type { Design } from '@retry-studio/topology-core/model';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { uniquePrefix } from '../http/testing.js';
import { TEST_BROKERS, type TestBroker } from '../testing/testBrokers.js';
import { useLiveServer } from '../testing/liveServer.js';

const { srv, onCleanup, runTrace } = useLiveServer();
const TOLERANCE_MS = 250;

const RASCAL = JSON.stringify({
  vhosts: {
    '/': {
      exchanges: ['orders', 'orders.dlx'],
      queues: {
        'orders.q': { options: { arguments: { 'x-dead-letter-exchange': 'orders.dlx' } } },
        'orders.dead': {},
      },
      bindings: ['orders[order.*] -> orders.q', 'orders.dlx -> orders.dead'],
      subscriptions: { orders: { queue: 'orders.q' } },
    },
  },
  recovery: {
    retry: [{ strategy: 'republish', defer: 300, attempts: 2 }, { strategy: 'nack' }],
  },
});

const SPRING = [
  'public class C {',
  '  @Bean RetryOperationsInterceptor advice() { return RetryInterceptorBuilder.stateless().maxAttempts(3).backOffOptions(200, 2.0, 1000).build(); }',
  '  @RabbitListener(queues = "payments") void on(String s) {}',
  '}',
].join('\n');

describe.each(TEST_BROKERS)('Rascal and a discarding Spring listener, live on RabbitMQ $name', (b: TestBroker) => {
  const vhost = `rs-fw-read-${randomBytes(4).toString('hex')}`;
  const mgmt = new ManagementClient(parseAmqpUrl(b.amqpUrl), { baseUrl: b.managementUrl });
  const on = { broker: `${b.amqpUrl}${encodeURIComponent(vhost)}`, managementUrl: b.managementUrl };
  let made = false;
  afterAll(async () => {
    if (made) await mgmt.deleteVhost(vhost);
  });

  const deployAndTrace = async (d: Design, tag: string) => {
    if (!made) {
      await mgmt.createVhost(vhost);
      made = true;
    }
    const prefix = uniquePrefix(tag);
    const dep = await srv.post('/api/deploy', { design: d, prefix, ...on });
    expect(dep.status, JSON.stringify(dep.body)).toBe(200);
    onCleanup(() => srv.post('/api/teardown', { designName: d.name, prefix, ...on, force: true }));
    const run = await runTrace({ design: d, prefix, messages: 2, failure: { kind: 'always' }, ...on }, 60_000);
    const pred = await srv.get(`/api/trace/${run.id}/prediction?events=0`);
    expect(pred.status).toBe(200);
    const simulated = appJourneys(d)[0]!;
    const byMsg = new Map<string, number[]>();
    for (const e of run.events) if (e.kind === 'processed') byMsg.set(e.msgId, [...(byMsg.get(e.msgId) ?? []), e.t]);
    expect(byMsg.size).toBe(2);
    for (const times of byMsg.values()) {
      const waits = times.slice(1).map((t, i) => t - times[i]!);
      expect(waits.length).toBe(simulated.delaysMs.length);
      waits.forEach((w, i) => {
        expect(w).toBeGreaterThanOrEqual(simulated.delaysMs[i]! - 20);
        expect(w).toBeLessThanOrEqual(simulated.delaysMs[i]! + TOLERANCE_MS);
      });
    }
    return { run, comparison: pred.body.comparison, simulated };
  };

  it('Rascal: republished after 300 ms twice, then nacked into the DLX (as simulated)', async () => {
    const d = importAppConfig([{ name: 'rascal.json', text: RASCAL }], { profile: b.name }).design;
    const { run, comparison, simulated } = await deployAndTrace(d, 'rascal');
    expect(simulated.attempts).toBe(3);
    expect(simulated.delaysMs).toEqual([300, 300]);
    expect(run.summary.resting).toEqual({ 'orders.dead': 2 });
    // the milestone comparison is not asserted here: a republished copy on the same queue can be delivered
    // before or after its original's ack (the confirm's timing), and the comparison orders them as it saw them
    expect(comparison.messagesCompared).toBe(2);
  });

  it('Spring AMQP stateless retry without a recoverer: 3 attempts, then acked and gone (discarded, as simulated)', async () => {
    const d = importAppConfig([{ name: 'C.java', text: SPRING }], { profile: b.name }).design;
    const { run, comparison, simulated } = await deployAndTrace(d, 'discard');
    expect(simulated.outcome.kind).toBe('discarded');
    expect(simulated.delaysMs).toEqual([200, 400]);
    expect(run.summary.resting).toEqual({});
    // the broker saw an ack; the events say it was the application giving up
    expect(run.events.filter((e) => e.kind === 'acked' && e.discarded === true)).toHaveLength(2);
    expect(comparison).toMatchObject({ messagesCompared: 2, matching: 2 });
  });
});
