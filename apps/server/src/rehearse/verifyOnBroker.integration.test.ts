/**
 * --verify-on on both test brokers: a short load (15 s at 50 msg/s, a 5 s outage, 1 s waits)
 * run for real in a throwaway vhost and set beside the rehearsal of the same load.
 */
import { describe, expect, it } from 'vitest';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { rehearse, type RehearsalLoad } from '@retry-studio/topology-core/rehearse';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { verifyOnBroker, VerifyTargetError } from './verifyOnBroker.js';

const design = (() => {
  const r = buildTemplate('dlx-ttl-wait-queue', { delayMs: 1000, maxRetries: 3 });
  if (!r.ok) throw new Error('template');
  return r.template.design;
})();

const load = (profile: '3.10' | '4.3'): RehearsalLoad => ({ rate: 50, durationMs: 15_000, profile, targets: [{ target: 'worker', outages: [{ startMs: 4000, endMs: 9000 }] }] });

const within = (measured: number, predicted: number, share: number, slack = 0): boolean => Math.abs(measured - predicted) <= Math.max(slack, share * predicted);

describe.each(TEST_BROKERS)('rehearse --verify-on RabbitMQ $name', (b) => {
  it('the broker agrees with the rehearsal: depths within 10%, outcomes within 2%, amplification within 5%; the vhost is gone', async () => {
    const l = load(b.name);
    const predicted = rehearse(design, l);
    // arrivals in [4 s, 6 s) fail their 4 attempts (t .. t+3 s) inside the outage
    expect(predicted.outcomes.parked).toBe(100);
    const m = await verifyOnBroker(design, l, { url: b.amqpUrl, managementUrl: b.managementUrl, predicted });
    expect(m.messages).toBe(predicted.messages);
    expect(within(m.outcomes.acked, predicted.outcomes.acked, 0.02)).toBe(true);
    expect(within(m.outcomes.parked, predicted.outcomes.parked, 0.02)).toBe(true);
    expect(within(m.amplification, predicted.amplification, 0.05)).toBe(true);
    for (const q of predicted.queues) {
      const mq = m.queues.find((x) => x.name === q.name);
      // a queue nothing stands in (processing 0) may show a delivery in flight at a sample
      expect(within(mq?.peakDepth ?? -1, q.peakDepth, 0.1, 2), `${q.name}: measured ${mq?.peakDepth}, predicted ${q.peakDepth}`).toBe(true);
    }
    // sampled at least twice a second
    expect(m.queues[0]!.series.t.length).toBeGreaterThanOrEqual(2 * (l.durationMs / 1000));
    const mgmt = new ManagementClient(parseAmqpUrl(b.amqpUrl), { baseUrl: b.managementUrl });
    expect((await mgmt.listVhosts()).filter((v) => v.name.startsWith('rs-rehearse-run-'))).toEqual([]);
  }, 60_000);
});

describe('rehearse --verify-on a broker that is not there', () => {
  it('says so before declaring anything', async () => {
    const l = load('3.10');
    const predicted = rehearse(design, l);
    await expect(verifyOnBroker(design, l, { url: 'amqp://guest:guest@127.0.0.1:1/', predicted })).rejects.toBeInstanceOf(VerifyTargetError);
  });
});
