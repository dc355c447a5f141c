/**
 * RabbitMQ 4.3's quorum-queue delayed retry, live: the `quorum-delayed-retry` template deployed on
 * the real 4.3 broker through the API and traced. The reference notes recorded deliveries at
 * 5, 207, 609 and 1110 ms (waits 200, 400, 500 ms), then a dead-lettering with `delivery_limit`
 * (../shared/reference/rabbitmq-4.3.md).
 */
import { describe, expect, it } from 'vitest';
import { type SimEvent } from '@retry-studio/topology-core/sim';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { useLiveServer } from '../testing/liveServer.js';
import { BROKER_43 } from '../testing/testBrokers.js';
import { uniquePrefix } from './testing.js';

const live = useLiveServer({ broker: BROKER_43 });

describe('quorum-delayed-retry on RabbitMQ 4.3 (live)', () => {
  it('waits about 200, 400, 500 ms between deliveries, then dead-letters with delivery_limit', async () => {
    const built = buildTemplate('quorum-delayed-retry', { deliveryLimit: 3, minDelayMs: 200, maxDelayMs: 500 });
    if (!built.ok) throw new Error(JSON.stringify(built.errors));
    // the worker fails every time (the failure model a user picks in the inspector)
    const design = {
      ...built.template.design,
      consumers: built.template.design.consumers.map((c) =>
        c.behaviour.kind === 'worker'
          ? { ...c, behaviour: { ...c.behaviour, failure: { kind: 'always' as const } } }
          : c,
      ),
    };
    const prefix = uniquePrefix('qdr');
    await live.deploy(design, prefix);
    // the trace ends once the message is parked (about 1.2 s); 4 s of duration could cut a slow run short on a loaded machine
    const run = await live.runTrace({ design, prefix, messages: 1, durationMs: 30_000 });
    const work = design.topology.queues.find((q) => q.arguments?.['x-queue-type'] === 'quorum')!.name;
    const deliveries = run.events.filter(
      (e): e is Extract<SimEvent, { kind: 'delivered' }> => e.kind === 'delivered' && e.queue === work,
    );
    expect(deliveries).toHaveLength(4);
    const waits = deliveries.slice(1).map((d, i) => d.t - deliveries[i]!.t);
    console.log(
      `quorum-delayed-retry on ${BROKER_43.name}: deliveries at ${deliveries.map((d) => Math.round(d.t)).join(', ')} ms, waits ${waits.map(Math.round).join(', ')} ms`,
    );
    // the broker holds each return for min(200 x count, 500) ms; scheduling adds a little
    [200, 400, 500].forEach((want, i) => {
      expect(waits[i]).toBeGreaterThanOrEqual(want - 20);
      expect(waits[i]).toBeLessThan(want + 200);
    });
    expect(deliveries.slice(1).map((d) => d.headers['x-delivery-count'])).toEqual([1, 2, 3]);
    const dead = run.events.filter(
      (e): e is Extract<SimEvent, { kind: 'dead-lettered' }> => e.kind === 'dead-lettered',
    );
    expect(dead).toEqual([expect.objectContaining({ queue: work, reason: 'delivery_limit' })]);
    expect(dead[0]!.t).toBeGreaterThan(deliveries[3]!.t);
  }, 60_000);
});
