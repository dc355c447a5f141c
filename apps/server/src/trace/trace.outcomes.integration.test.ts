/**
 * One truth on the real brokers: a live trace's events, read by the core's outcome function
 * (sim/eventOutcomes.ts, what the live lanes state), give the outcome the server's accounting
 * counts (the summary) and the outcome the simulator predicts for the same design and model.
 */
import { describe, expect, it } from 'vitest';
import type { Design, FailureModel } from '@retry-studio/topology-core/model';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { designToSimulation, outcomesOfEvents, outcomesOfRun, simulate } from '@retry-studio/topology-core/sim';
import { uniquePrefix } from '../http/testing.js';
import { TEST_BROKERS, type TestBroker } from '../testing/testBrokers.js';
import { useLiveServer } from '../testing/liveServer.js';

const live = useLiveServer();

function template(): Design {
  const r = buildTemplate('dlx-ttl-wait-queue', { delayMs: 200 });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.template.design;
}

describe.each(TEST_BROKERS)('live outcomes on RabbitMQ $name', (b: TestBroker) => {
  const on = { broker: b.amqpUrl, managementUrl: b.managementUrl };
  const cases: readonly [FailureModel, 'parked' | 'acked'][] = [
    [{ kind: 'always' }, 'parked'],
    [{ kind: 'failFirst', n: 1 }, 'acked'],
  ];
  it.each(cases.map(([f, k]) => [f.kind, f, k] as const))(
    '%s: every message the broker ended, stated by the core as the summary counts it and as predicted',
    async (_, failure, kind) => {
      const d = template();
      const prefix = uniquePrefix('outc');
      await live.deploy(d, prefix, on);
      const run = await live.runTrace({ design: d, prefix, messages: 3, failure, durationMs: 30_000, ...on });
      expect(run.summary).toMatchObject({ state: 'complete', published: 3, [kind]: 3, inFlight: 0, balanced: true });
      const stated = outcomesOfEvents(d, run.events, { running: false, failure }).byMsg;
      const predicted = outcomesOfRun(
        d,
        simulate({ ...designToSimulation(d, { messages: 3, failure, seed: 1 }), maxEvents: 20_000 }),
        failure,
      ).byMsg;
      expect([...stated.keys()].sort()).toEqual([...predicted.keys()].sort());
      for (const [msg, o] of stated) {
        expect(o.kind, msg).toBe(kind);
        expect(o, msg).toEqual(predicted.get(msg));
      }
      if (kind === 'parked')
        expect(run.summary.resting).toEqual(
          Object.fromEntries([[(stated.values().next().value as { queue: string }).queue, 3]]),
        );
    },
  );
});
