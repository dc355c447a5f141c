/**
 * `pnpm bench:cli`: start-to-exit time of the installed `retry-studio lint` on a small
 * definitions file (18 queues) and on a 1,000-queue file (1,002), side by side in one run with
 * `node -e 0` and with the workspace's `pnpm cli` (tsx, compiled at every start). Packs and
 * installs the package into a temporary prefix first (`pnpm package`; `--no-build` reuses
 * dist/retry-studio-VERSION.tgz). Commands run round-robin, `--runs N` times each (default 7);
 * prints each one's median, min and max in ms and the medians' ratios.
 * Targets (issue 25, tightened by issue 38): small < 300 ms, 1,000 queues <= 150 ms (medians).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servicesDefinitions } from './cliFixtures.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const runs = runsAt >= 0 ? Number(argv[runsAt + 1]) : 7;
if (!Number.isInteger(runs) || runs < 1) {
  process.stderr.write('bench:cli: --runs must be a whole number >= 1\n');
  process.exit(2);
}

const tgz = join(root, 'dist', `retry-studio-${version}.tgz`);
if (!argv.includes('--no-build') || !existsSync(tgz))
  execFileSync('node', [join(root, 'scripts/package.mjs')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
const prefix = mkdtempSync(join(tmpdir(), 'bench-cli-prefix-'));
const work = mkdtempSync(join(tmpdir(), 'bench-cli-work-'));
try {
  execFileSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--offline', tgz], {
    stdio: 'ignore',
  });
  writeFileSync(join(work, 'small.json'), servicesDefinitions(6));
  writeFileSync(join(work, 'queues-1000.json'), servicesDefinitions(334));
  const bin = join(prefix, 'bin', 'retry-studio');
  const pnpmCli = (file: string) => ['pnpm', ['-s', '--dir', root, 'cli', 'lint', join(work, file)]] as const;
  const contenders: { name: string; cmd: readonly [string, readonly string[]] }[] = [
    { name: 'node_e0', cmd: ['node', ['-e', '0']] },
    { name: 'retry_studio_lint_small', cmd: [bin, ['lint', 'small.json']] },
    { name: 'retry_studio_lint_1000_queues', cmd: [bin, ['lint', 'queues-1000.json']] },
    { name: 'pnpm_cli_lint_small', cmd: pnpmCli('small.json') },
    { name: 'pnpm_cli_lint_1000_queues', cmd: pnpmCli('queues-1000.json') },
  ];
  const times = new Map<string, number[]>(contenders.map((c) => [c.name, []]));
  for (let r = 0; r < runs; r++) {
    for (const c of contenders) {
      const t0 = process.hrtime.bigint();
      const res = spawnSync(c.cmd[0], c.cmd[1], { cwd: work, stdio: 'ignore' });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      // lint exits 1 on errors, never 2 or by a signal
      if (res.status === null || res.status > 1) throw new Error(`${c.name} exited ${res.status ?? res.signal}`);
      times.get(c.name)!.push(ms);
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const fmt = (n: number) => n.toFixed(1);
  process.stdout.write(`runs: ${runs}\n`);
  for (const [name, xs] of times)
    process.stdout.write(
      `${name}_ms: median ${fmt(median(xs))} min ${fmt(Math.min(...xs))} max ${fmt(Math.max(...xs))}\n`,
    );
  const m = (name: string) => median(times.get(name)!);
  process.stdout.write(`ratio_lint_small_over_node_e0: ${(m('retry_studio_lint_small') / m('node_e0')).toFixed(2)}\n`);
  process.stdout.write(
    `ratio_pnpm_cli_over_retry_studio_small: ${(m('pnpm_cli_lint_small') / m('retry_studio_lint_small')).toFixed(2)}\n`,
  );
  process.stdout.write(
    `ratio_pnpm_cli_over_retry_studio_1000_queues: ${(m('pnpm_cli_lint_1000_queues') / m('retry_studio_lint_1000_queues')).toFixed(2)}\n`,
  );
  process.stdout.write(`target_small_under_300ms: ${m('retry_studio_lint_small') < 300 ? 'met' : 'NOT met'}\n`);
  process.stdout.write(
    `target_1000_queues_at_most_150ms: ${m('retry_studio_lint_1000_queues') <= 150 ? 'met' : 'NOT met'}\n`,
  );
} finally {
  rmSync(prefix, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}
