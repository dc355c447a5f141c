/**
 * Every recorded scenario (../shared/conformance/scenarios on RabbitMQ 3.10.8, scenarios-4.3 on
 * 4.3.6, and this package's conformance/scenarios and scenarios-4.3, recorded with
 * `pnpm conformance --target broker --record`) must come out of the simulator exactly as the
 * broker did it, under the profile of the broker it was recorded on.
 */
import { describe, expect, it } from 'vitest';
import type { Scenario } from './types.js';
import { simulateScenario } from './runScenario.js';
import { profileFromRecordedOn } from './scenarioProfile.js';

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
const shared43 = load(join(sharedDir, 'conformance', 'scenarios-4.3'));
const own = load(join(packageRoot, 'conformance', 'scenarios'));
const own43 = load(join(packageRoot, 'conformance', 'scenarios-4.3'));

// each file replays under the profile of the broker it was recorded on (recorded_on)
describe.each([
  ['shared scenarios (RabbitMQ 3.10.8)', shared, 9, '3.10'],
  ['shared scenarios (RabbitMQ 4.3.6)', shared43, 7, '4.3'],
  ['our own recorded scenarios (RabbitMQ 3.10.8)', own, 45, '3.10'],
  ['our own recorded scenarios (RabbitMQ 4.3.6)', own43, 1, '4.3'],
] as const)('conformance: %s', (_label, files, atLeast, profile) => {
  it(`finds at least ${atLeast} scenarios, each recorded on a ${profile} broker`, () => {
    expect(files.length).toBeGreaterThanOrEqual(atLeast);
    for (const { scenario } of files) expect(profileFromRecordedOn(scenario.recorded_on)).toBe(profile);
  });
  for (const { file, scenario } of files) {
    it(`${file} matches the broker`, () => {
      expect(scenario.expect, 'scenario has an expect block').toBeDefined();
      const run = simulateScenario(scenario);
      expect(run.diff.join('\n')).toBe('');
      expect(run.match).toBe(true);
    });
  }
});
