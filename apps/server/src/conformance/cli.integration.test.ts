/** `pnpm conformance` end to end: output lines, exit codes, URL checks, --record, path resolution. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const repoRoot = path.resolve(serverDir, '../..');
const ownDir = path.join(repoRoot, 'packages/topology-core/conformance/scenarios');

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      path.join(repoRoot, 'node_modules/.bin/tsx'),
      ['src/cli/conformance.ts', ...args],
      { cwd: serverDir, env: { ...process.env, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const lines = (s: string): Record<string, unknown>[] =>
  s
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('pnpm conformance (CLI)', () => {
  it('prints one JSON line per scenario and exits 0 when all match; paths resolve against INIT_CWD', async () => {
    const r = await run(
      [
        '--target',
        'broker',
        'packages/topology-core/conformance/scenarios/ttl-zero.json',
        'packages/topology-core/conformance/scenarios/headers-all-any.json',
      ],
      { INIT_CWD: repoRoot },
    );
    expect(r.stderr).toMatch(/^conformance \(broker\): 2 match, 0 differ or failed, 0 not run/);
    const out = lines(r.stdout);
    expect(out.map((l) => [l.scenario, l.target, l.match])).toEqual([
      ['ttl-zero', 'broker', true],
      ['headers-all-any', 'broker', true],
    ]);
    expect(out[0]).toHaveProperty('observed.final.dead');
    expect(r.code).toBe(0);
  });

  it('exits 1 and shows a diff when a scenario does not match', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'conformance-'));
    const s = JSON.parse(readFileSync(path.join(ownDir, 'ttl-zero.json'), 'utf8'));
    s.name = 'ttl-zero-tampered';
    s.expect.final = {};
    writeFileSync(path.join(dir, 'tampered.json'), JSON.stringify(s));
    const r = await run(['--target', 'sim', dir]);
    const [line] = lines(r.stdout);
    expect(line?.match).toBe(false);
    expect(String((line?.diff as string[])[0])).toMatch(/^final\.dead/);
    expect(r.code).toBe(1);
  });

  it('refuses a bad URL and a foreign host with a clear message, without the password', async () => {
    const bad = await run(['--target', 'broker', '--url', 'amqp://u:pa@ss@localhost/', ownDir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/%40/);
    expect(bad.stderr).not.toContain('pa@ss');
    const foreign = await run(['--target', 'broker', '--url', 'amqp://u:secret@db.example.com/', ownDir], {
      RETRY_STUDIO_ALLOWED_HOSTS: '',
    });
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toMatch(/'db\.example\.com' is not allowed/);
    expect(foreign.stderr).not.toContain('secret');
  });

  it('--record writes what the broker did into expect, with recorded_on from the probe', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'conformance-'));
    const file = path.join(dir, 'drop-head.json');
    copyFileSync(path.join(ownDir, 'overflow-drop-head.json'), file);
    const s = JSON.parse(readFileSync(file, 'utf8'));
    delete s.expect;
    delete s.recorded_on;
    writeFileSync(file, JSON.stringify(s));
    const r = await run(['--target', 'broker', '--record', file]);
    expect(r.code).toBe(0);
    const rec = JSON.parse(readFileSync(file, 'utf8'));
    expect(rec.recorded_on).toMatch(/^RabbitMQ \d+\.\d+\.\d+$/);
    expect(rec.expect.final.jobs.map((m: { body: string }) => m.body)).toEqual(['m2', 'm3']);
    expect(rec.expect.final.dead[0]['x-death'][0]).toMatchObject({ queue: 'jobs', reason: 'maxlen', count: 1 });
  });

  it('rejects --record on the sim target and unknown options', async () => {
    expect((await run(['--target', 'sim', '--record', ownDir])).code).toBe(2);
    expect((await run(['--frobnicate', ownDir])).code).toBe(2);
  });

  it('the sim target replays each file under its recorded_on profile; --profile overrides; a run that never settles says so', async () => {
    const shared = path.join(process.env.CONFORMANCE_SHARED_DIR ?? path.resolve(repoRoot, '../shared'), 'conformance');
    const both = [
      path.join(shared, 'scenarios/nanit-1-reject-requeue.json'),
      path.join(shared, 'scenarios-4.3/nanit-1-reject-requeue.json'),
    ];
    const r = await run(['--target', 'sim', ...both]);
    expect(lines(r.stdout).map((l) => [l.profile, l.match])).toEqual([
      ['3.10', true],
      ['4.3', true],
    ]);
    expect(r.stderr).toMatch(/profiles 3\.10: 1, 4\.3: 1/);
    expect(r.code).toBe(0);
    // the 4.3.6 recording of chained TTL tiers does not come out of the 3.10 profile (x-death order, x-last-death-*)
    const forced = await run([
      '--target',
      'sim',
      '--profile=3.10',
      path.join(shared, 'scenarios-4.3/chained-ttl-tiers.json'),
    ]);
    expect(lines(forced.stdout)[0]).toMatchObject({ profile: '3.10', match: false });
    expect(forced.code).toBe(1);
    const endless = await run([
      '--target',
      'sim',
      '--profile',
      '4.3',
      '--max-run-ms',
      '2000',
      path.join(shared, 'scenarios/quorum-delivery-limit.json'),
    ]);
    expect(lines(endless.stdout)[0]).toMatchObject({ match: false, settled: false });
    expect(String(lines(endless.stdout)[0]?.reason)).toMatch(/^did not settle in 2000 ms/);
    expect(endless.code).toBe(1);
  });

  it('refuses a bad --profile, --max-run-ms or --management-url, and --profile on the broker target', async () => {
    const bad = await run(['--target', 'sim', '--profile', '5.0', ownDir]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--profile must be one of 3\.10, 4\.x, 4\.3, got 5\.0/);
    expect((await run(['--target', 'sim', '--max-run-ms', '-1', ownDir])).stderr).toMatch(
      /--max-run-ms must be a positive integer/,
    );
    expect((await run(['--target', 'broker', '--management-url', 'localhost:15673', ownDir])).stderr).toMatch(
      /bad --management-url: the management URL must start with http/,
    );
    expect((await run(['--target', 'broker', '--profile', '4.3', ownDir])).code).toBe(2);
  });
});
