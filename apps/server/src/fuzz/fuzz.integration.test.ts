/**
 * `pnpm fuzz` in CI: a fixed-seed batch of random retry topologies on both brokers (3.10.8 and
 * 4.3.6), each run through the conformance runner and compared with the simulator's prediction.
 * Every topology must agree; a disagreement names the topology (`pnpm fuzz --seed S --print I`
 * prints it) and the first differences. The batch runs a few topologies at once, each in its own
 * throwaway vhost; no shrinking here (that is for `pnpm fuzz`).
 */
import { describe, expect, it } from 'vitest';
import { parseAmqpUrl } from '../broker/amqpUrl.js';
import { TEST_BROKERS, type TestBroker } from '../testing/testBrokers.js';
import { runFuzz, type FuzzLine } from './runFuzz.js';

/** the CI batch: fixed, so a failure is reproducible with `pnpm fuzz --seed 29 --count 40` */
const SEED = 29;
const COUNT = 40;

describe.each(TEST_BROKERS)('pnpm fuzz, a fixed batch on RabbitMQ $name', (b: TestBroker) => {
  it(
    `seed ${SEED}: ${COUNT} random topologies, the simulator and the broker agree on every one`,
    { timeout: 240_000 },
    async () => {
      const lines: FuzzLine[] = [];
      const summary = await runFuzz(
        {
          target: 'broker',
          url: parseAmqpUrl(b.amqpUrl),
          managementUrl: b.managementUrl,
          seed: SEED,
          count: COUNT,
          concurrency: 4,
          shrink: false,
        },
        (l) => lines.push(l),
      );
      const disagreements = lines
        .filter((l) => l.verdict === 'disagree')
        .map(
          (l) => `${l.name} (pnpm fuzz --seed ${SEED} --print ${l.index} --profile ${summary.profile}): ${l.detail}`,
        );
      expect(disagreements).toEqual([]);
      expect(summary).toMatchObject({ topologies: COUNT, agree: COUNT, disagree: 0 });
      expect(lines.map((l) => l.index)).toEqual([...Array(COUNT).keys()]);
    },
  );
});
