/**
 * Check the tuner's answer on a real broker, once per profile version: a short profile (20 s at
 * 20 msg/s, a 6 s outage of the workers 2 s in, 99% acked within 20 s), tuned, and its best
 * design run for real (--verify-on's verifyOnBroker, a throwaway vhost) under the same load:
 * nothing that can succeed is parked or dropped, and the measured figures meet the goals.
 */
import { describe, expect, it } from 'vitest';
import { resolveTuneInput, tune, tuneLoad } from '@retry-studio/topology-core/tune';
import { rehearse } from '@retry-studio/topology-core/rehearse';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { brokerTarget, verifyOnBroker } from './verifyOnBroker.js';

const STRATEGIES = {
  '3.10': ['dlx-ttl-wait-queue', 'chained-ttl'],
  '4.3': ['quorum-delayed-retry', 'dlx-ttl-wait-queue'],
} as const;

describe.each(TEST_BROKERS)('tune, then the answer on RabbitMQ $name', (b) => {
  it('the recommended design meets the goals on the broker', async () => {
    const input = resolveTuneInput({
      rate: 20,
      durationMs: 20_000,
      outageLengthsMs: [6_000],
      profile: b.name,
      strategies: [...STRATEGIES[b.name]],
      deadlineMs: 20_000,
      deadlineShare: 0.99,
      maxAmplification: 3,
    });
    if (!input.ok) throw new Error(JSON.stringify(input.issues));
    const r = tune({ profile: input.profile, goals: input.goals, templates: input.templates, limit: 1 });
    expect(r.feasible).toBe(true);
    const best = r.recommendations[0]!;
    const load = tuneLoad(best.design, input.profile, 6_000, 0);
    const predicted = rehearse(best.design, load);
    const target = await brokerTarget(b.amqpUrl, b.managementUrl);
    const m = await verifyOnBroker(best.design, load, { target, predicted });
    expect(m.messages).toBe(predicted.messages);
    expect(m.outcomes.parked + m.outcomes.dropped).toBe(0);
    expect(m.outcomes.acked).toBe(m.messages);
    expect(m.amplification).toBeLessThanOrEqual(3);
    expect(m.delayMs!.p99).toBeLessThanOrEqual(20_000);
  }, 120_000);
});
