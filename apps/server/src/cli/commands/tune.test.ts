/**
 * `retry-studio tune`: bad input (exit 2, the option named, nothing written), the JSON's names,
 * --out writing the best design, and the infeasible answer naming the goal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliCaptured } from '../cliHarness.js';

let dir = '';
const cli = (...argv: string[]) => runCliCaptured(dir, argv);
const SMALL = ['--rate', '2', '--duration', '10m', '--outage-length', '2m'];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rs-tune-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('retry-studio tune: bad input', () => {
  it.each([
    [['--deadline', '0'], /--deadline: must be above 0/],
    [['--deadline', '10m', '--deadline-share', '120%'], /--deadline-share: must be between 0% and 100%/],
    [['--strategies', 'nope'], /--strategies: unknown strategy "nope"/],
    [
      ['--profile', '3.10', '--strategies', 'quorum-delayed-retry'],
      /--profile: no requested strategy runs on profile 3\.10/,
    ],
    [['--deadline-share', '99%'], /--deadline-share: needs --deadline/],
    [['--outage-length', '2h'], /--outage-length: 2 h does not fit/],
    [['--rate', 'fast'], /--rate: "fast" is not a rate/],
    [['--profile', '5.0'], /--profile must be one of/],
  ])('%j is refused with exit 2, naming the option', async (args, message) => {
    const r = await cli('tune', ...SMALL, ...args, '--out', 'best.json');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(existsSync(path.join(dir, 'best.json'))).toBe(false);
  });
});

describe('retry-studio tune', () => {
  it('--json lists feasible recommendations best first with the rehearsal names, and --out writes the best design', async () => {
    const r = await cli(
      'tune',
      ...SMALL,
      '--strategies',
      'dlx-ttl-wait-queue,chained-ttl',
      '--deadline',
      '4m',
      '--json',
      '--out',
      'best.json',
    );
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as {
      feasible: boolean;
      recommendations: {
        strategy: string;
        params: object;
        metrics: { outcomes: { acked: number }; amplification: number; delayMs: { p99: number } };
        design: { name: string };
      }[];
    };
    expect(j.feasible).toBe(true);
    expect(j.recommendations[0]!.metrics.delayMs.p99).toBeLessThanOrEqual(240_000);
    expect(['dlx-ttl-wait-queue', 'chained-ttl']).toContain(j.recommendations[0]!.strategy);
    const written = JSON.parse(await readFile(path.join(dir, 'best.json'), 'utf8')) as { name: string };
    expect(written.name).toBe(j.recommendations[0]!.design.name);
  }, 120_000);
  it('says when nothing is feasible and which goal rules it out (exit 1)', async () => {
    const r = await cli('tune', ...SMALL, '--strategies', 'dlx-ttl-wait-queue', '--deadline', '30s');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/No feasible design/);
    expect(r.out).toMatch(/ruled out by deadline: the deadline 30 s is shorter than the 2 min outage/);
  });
});
