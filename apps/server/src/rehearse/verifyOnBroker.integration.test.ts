/**
 * --verify-on on both test brokers: a short load (20 s at 50 msg/s, a 12 s outage, 2 s waits,
 * 2 retries) run for real in a throwaway vhost and set beside the rehearsal of the same load.
 * Each real hop takes a few ms (more on a loaded machine): the fate of a message arriving within
 * that lag of an outage's edge can differ, and a lagging worker settles in bursts; so the outage
 * is long next to the retries' span (4 s), few hops add their lag up, and the wait queue holds
 * enough (200) that a burst of a few is within its 10%.
 */
import { describe, expect, it } from 'vitest';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { rehearse, type RehearsalLoad } from '@retry-studio/topology-core/rehearse';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { brokerTarget, verifyOnBroker, VerifyTargetError } from './verifyOnBroker.js';

const design = (() => {
  const r = buildTemplate('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 2 });
  if (!r.ok) throw new Error('template');
  return r.template.design;
})();

const load = (profile: '3.10' | '4.3'): RehearsalLoad => ({
  rate: 50,
  durationMs: 20_000,
  profile,
  targets: [{ target: 'worker', consumerOutages: [{ startMs: 3000, endMs: 15_000 }] }],
});

const within = (measured: number, predicted: number, share: number, slack = 0): boolean =>
  Math.abs(measured - predicted) <= Math.max(slack, share * predicted);

describe.each(TEST_BROKERS)('rehearse --verify-on RabbitMQ $name', (b) => {
  it('the broker agrees with the rehearsal: depths within 10%, outcomes within 2%, amplification within 5%; the vhost is gone', async () => {
    const l = load(b.name);
    const predicted = rehearse(design, l);
    // arrivals in [3 s, 11 s) fail their 3 attempts (t .. t+4 s) inside the outage
    expect(predicted.outcomes.parked).toBe(400);
    expect(predicted.queues.find((q) => q.name === 'orders.wait')?.peakDepth).toBe(200);
    const target = await brokerTarget(b.amqpUrl, b.managementUrl);
    expect(target.profile).toBe(b.name);
    const m = await verifyOnBroker(design, l, { target, predicted });
    expect(m.messages).toBe(predicted.messages);
    const seen = `measured ${JSON.stringify(m.outcomes)} x${m.amplification}, predicted ${JSON.stringify(predicted.outcomes)} x${predicted.amplification}`;
    expect(within(m.outcomes.acked, predicted.outcomes.acked, 0.02), seen).toBe(true);
    expect(within(m.outcomes.parked, predicted.outcomes.parked, 0.02), seen).toBe(true);
    expect(within(m.amplification, predicted.amplification, 0.05), seen).toBe(true);
    for (const q of predicted.queues) {
      const mq = m.queues.find((x) => x.name === q.name);
      // nothing stands in the work queue (processing 0) but the workers' real lag: a sample may see
      // what was delivered in the last quarter second at the busiest rate
      const slack = q.name === 'orders.q' ? predicted.brokerOps.deliveriesPerSec / 4 : 2;
      expect(
        within(mq?.peakDepth ?? -1, q.peakDepth, 0.1, slack),
        `${q.name}: measured ${mq?.peakDepth}, predicted ${q.peakDepth}`,
      ).toBe(true);
    }
    // sampled at least twice a second
    expect(m.queues[0]!.series.t.length).toBeGreaterThanOrEqual(2 * (l.durationMs / 1000));
    const mgmt = new ManagementClient(parseAmqpUrl(b.amqpUrl), { baseUrl: b.managementUrl });
    expect((await mgmt.listVhosts()).filter((v) => v.name.startsWith('rs-rehearse-run-'))).toEqual([]);
  }, 60_000);
});

describe('rehearse --verify-on a broker that is not there', () => {
  it('says so before declaring anything', async () => {
    await expect(brokerTarget('amqp://guest:guest@127.0.0.1:1/')).rejects.toBeInstanceOf(VerifyTargetError);
  });
});
