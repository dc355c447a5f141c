/**
 * Every recorded scenario (../shared/conformance/scenarios, recorded on RabbitMQ 3.10.8, and
 * this package's conformance/scenarios, recorded with `pnpm conformance --target broker --record`)
 * must come out of the simulator exactly as the broker did it.
 */
import { describe, expect, it } from 'vitest';
import type { Scenario } from './types.js';
import { simulateScenario } from './runScenario.js';

// topology-core has no Node types (lib ES2022, types []): tests load node modules untyped
interface Fs {
  existsSync(p: string): boolean;
  readdirSync(p: string): string[];
  readFileSync(p: string, enc: 'utf8'): string;
}
interface Path {
  dirname(p: string): string;
  join(...p: string[]): string;
  resolve(...p: string[]): string;
}
const nodeFs = 'node:fs';
const nodePath = 'node:path';
const nodeUrl = 'node:url';
const { existsSync, readdirSync, readFileSync } = (await import(/* @vite-ignore */ nodeFs)) as Fs;
const { dirname, join, resolve } = (await import(/* @vite-ignore */ nodePath)) as Path;
const { fileURLToPath } = (await import(/* @vite-ignore */ nodeUrl)) as { fileURLToPath(u: string): string };
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;

const here = dirname(fileURLToPath((import.meta as unknown as { url: string }).url));
const packageRoot = resolve(here, '../..');
const repoRoot = resolve(packageRoot, '../..');
const sharedDir = env['CONFORMANCE_SHARED_DIR'] ?? resolve(repoRoot, '../shared');

function load(dir: string): { file: string; scenario: Scenario }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ file: f, scenario: JSON.parse(readFileSync(join(dir, f), 'utf8')) as Scenario }));
}

const shared = load(join(sharedDir, 'conformance', 'scenarios'));
const own = load(join(packageRoot, 'conformance', 'scenarios'));

describe('conformance: shared scenarios (RabbitMQ 3.10.8)', () => {
  it('finds the shared scenarios', () => {
    expect(shared.length).toBeGreaterThanOrEqual(9);
  });
  for (const { file, scenario } of shared) {
    it(`${file} matches the broker`, () => {
      expect(scenario.expect, 'scenario has an expect block').toBeDefined();
      const run = simulateScenario(scenario);
      expect(run.diff.join('\n')).toBe('');
      expect(run.match).toBe(true);
    });
  }
});

describe('conformance: our own recorded scenarios', () => {
  for (const { file, scenario } of own) {
    it.runIf(scenario.expect !== undefined)(`${file} matches the broker`, () => {
      const run = simulateScenario(scenario);
      expect(run.diff.join('\n')).toBe('');
      expect(run.match).toBe(true);
    });
  }
});
