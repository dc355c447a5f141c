/** `pnpm fuzz` end to end: one line per topology, the closing line, exit codes, --help, --print, bad options. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BROKER_310 } from '../testing/testBrokers.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const repoRoot = path.resolve(serverDir, '../..');

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      path.join(repoRoot, 'node_modules/.bin/tsx'),
      ['src/cli/fuzz.ts', ...args],
      { cwd: serverDir, timeout: 120_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('pnpm fuzz (CLI)', () => {
  it('--target sim: one line per topology, then exactly the closing line; exit 0', async () => {
    const r = await run(['--target', 'sim', '--seed', '5', '--count', '4']);
    const out = r.stdout.trim().split('\n');
    expect(out).toHaveLength(5);
    expect(out.slice(0, 4).map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual([
      'fuzz-5-0 agree',
      'fuzz-5-1 agree',
      'fuzz-5-2 agree',
      'fuzz-5-3 agree',
    ]);
    expect(out[4]).toBe('fuzz: 4 topologies, 4 agree, 0 disagree');
    expect(r.stderr).toMatch(/the generator avoids/);
    expect(r.code).toBe(0);
  });

  it("a simulator profile that is not the broker's disagrees: the lines say what differs and the exit code is 1", async () => {
    // 4.3 writes x-last-death-* headers on every death, 3.10.8 does not
    const r = await run([
      '--target',
      'broker',
      '--url',
      BROKER_310.amqpUrl,
      '--profile',
      '4.3',
      '--seed',
      '7',
      '--count',
      '6',
      '--no-shrink',
    ]);
    const last = r.stdout.trim().split('\n').at(-1)!;
    const m = /^fuzz: 6 topologies, (\d+) agree, (\d+) disagree$/.exec(last);
    expect(m, r.stdout + r.stderr).not.toBeNull();
    expect(Number(m![2])).toBeGreaterThan(0);
    expect(r.stdout).toMatch(/ disagree .*x-last-death/);
    expect(r.code).toBe(1);
  });

  it('--help lists what the generator avoids and why; --print prints one topology as a scenario', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/policy ties/);
    expect(help.stdout).toMatch(/per-message TTL behind a longer one/);
    const p = await run(['--seed', '5', '--print', '2']);
    expect(p.code).toBe(0);
    const s = JSON.parse(p.stdout) as { format: string; name: string; start_consumers: string; expect: unknown };
    expect(s).toMatchObject({ format: 'retry-scenario/1', name: 'fuzz-5-2', start_consumers: 'after' });
    expect(s.expect).toBeDefined();
  });

  it('bad options exit 2 naming the option', async () => {
    const cases = [
      [['--count', '0'], /--count must be an integer >= 1/],
      [['--target', 'nope'], /--target must be sim or broker/],
      [['--profile', '9'], /--profile must be one of/],
      [['--frobnicate'], /unknown option --frobnicate/],
    ] as const;
    const results = await Promise.all(cases.map(([args]) => run([...args])));
    results.forEach((r, i) => {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(cases[i]![1]);
    });
  });
});
