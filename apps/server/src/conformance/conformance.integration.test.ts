/**
 * Every shared scenario (../shared/conformance/scenarios; CONFORMANCE_SHARED_DIR overrides ../shared) and every
 * scenario of our own (packages/topology-core/conformance/scenarios) matches on the real broker.
 * `match: null` is allowed only when the broker lacks a plugin exchange type the scenario needs.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAmqpUrl } from '../broker/amqpUrl.js';
import { loadScenarioFile } from './loadScenarios.js';
import { BrokerContext, runScenario } from './runConformance.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
// CONFORMANCE_SHARED_DIR is the shared root (as in the core's conformance test and the bench);
// a folder that holds the scenarios directly is accepted too
const sharedRoot = process.env.CONFORMANCE_SHARED_DIR ?? path.resolve(repoRoot, '../shared');
const sharedDir = existsSync(path.join(sharedRoot, 'conformance/scenarios')) ? path.join(sharedRoot, 'conformance/scenarios') : sharedRoot;
const ownDir = path.join(repoRoot, 'packages/topology-core/conformance/scenarios');

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => path.join(dir, f));
}

const ctx = new BrokerContext(parseAmqpUrl(process.env.AMQP_URL));

describe.each([
  ['shared', sharedDir],
  ['own', ownDir],
])('%s scenarios on the broker target', (_label, dir) => {
  const files = jsonFiles(dir);
  it('the folder holds scenarios', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  it.each(files.map((f) => [path.basename(f), f]))('%s', async (_name, file) => {
    const { scenario } = await loadScenarioFile(file);
    const r = await runScenario(scenario, { target: 'broker' }, ctx, file);
    if (r.match === null) {
      expect(r.reason).toMatch(/lacks exchange type/);
      const probe = await ctx.getProbe();
      expect((scenario.requires ?? []).some((t) => !probe.exchangeTypes.includes(t))).toBe(true);
      return;
    }
    expect(r.error).toBeUndefined();
    expect(r.diff).toBeNull();
    expect(r.match).toBe(true);
  });
});
