/**
 * The template scenarios (packages/topology-core/src/templates/scenarios, recorded with
 * `pnpm conformance --target broker --record`) replayed on the live broker: each template that
 * a stock RabbitMQ 3.10 can run still does on the broker what its scenario recorded.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAmqpUrl } from '../broker/amqpUrl.js';
import { loadScenarioFile } from '../conformance/loadScenarios.js';
import { BrokerContext, runScenario } from '../conformance/runConformance.js';

const dir = path.resolve(__dirname, '../../../../packages/topology-core/src/templates/scenarios');
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort();
const ctx = new BrokerContext(parseAmqpUrl(process.env.AMQP_URL));

describe('template scenarios on the broker', () => {
  it('there are recorded template scenarios', () => expect(files.length).toBeGreaterThanOrEqual(13));
  it.each(files)('%s', async (f) => {
    const file = path.join(dir, f);
    const { scenario } = await loadScenarioFile(file);
    const r = await runScenario(scenario, { target: 'broker' }, ctx, file);
    expect(r.error).toBeUndefined();
    expect(r.diff).toBeNull();
    expect(r.match).toBe(true);
  });
});
