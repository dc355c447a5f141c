/**
 * pnpm conformance [--target sim|broker] [--url AMQP_URL] [--management-url URL] [--record] PATH...
 * Without --management-url the broker's management API is RETRY_STUDIO_MANAGEMENT_URL or
 * discovered (port 15672, then the AMQP port + 10000) and must be the same broker as --url.
 * One JSON line per scenario: {"scenario","target","match","observed","diff"}; exit 1 if any does not match.
 * Paths are resolved against the directory pnpm was started from (INIT_CWD), not apps/server.
 */
import path from 'node:path';
import { AmqpUrlError, HostNotAllowedError, resolveBrokerUrl } from '../broker/amqpUrl.js';
import { ManagementUrlError, parseManagementUrl } from '../broker/managementUrl.js';
import { expandScenarioPaths } from '../conformance/loadScenarios.js';
import { runFiles, type ConformanceTarget } from '../conformance/runConformance.js';

const USAGE = 'usage: pnpm conformance [--target sim|broker] [--url AMQP_URL] [--management-url URL] [--record] PATH...';

function fail(message: string): never {
  process.stderr.write(`conformance: ${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(argv: readonly string[]): Promise<number> {
  let target: ConformanceTarget = 'broker';
  let url: string | undefined;
  let managementUrl: string | undefined;
  let record = false;
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--target') {
      const t = argv[++i];
      if (t !== 'sim' && t !== 'broker') fail(`--target must be sim or broker, got ${t ?? 'nothing'}`);
      target = t;
    } else if (a.startsWith('--target=')) {
      const t = a.slice('--target='.length);
      if (t !== 'sim' && t !== 'broker') fail(`--target must be sim or broker, got ${t}`);
      target = t;
    } else if (a === '--url') {
      url = argv[++i];
      if (url === undefined) fail('--url needs a value');
    } else if (a.startsWith('--url=')) url = a.slice('--url='.length);
    else if (a === '--management-url') {
      managementUrl = argv[++i];
      if (managementUrl === undefined) fail('--management-url needs a value');
    } else if (a.startsWith('--management-url=')) managementUrl = a.slice('--management-url='.length);
    else if (a === '--record') record = true;
    else if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE + '\n');
      return 0;
    } else if (a === '--') continue;
    else if (a.startsWith('--')) fail(`unknown option ${a}`);
    else paths.push(a);
  }
  if (paths.length === 0) fail('give at least one scenario file or folder');
  if (record && target !== 'broker') fail('--record needs --target broker (expect is what the real broker did)');
  if (managementUrl !== undefined && target !== 'broker') fail('--management-url needs --target broker');
  const cwd = process.env.INIT_CWD ?? process.cwd();
  let files: string[];
  try {
    files = await expandScenarioPaths(paths.map((p) => path.resolve(cwd, p)));
  } catch (err) {
    fail((err as Error).message);
  }
  let amqpUrl;
  if (target === 'broker') {
    try {
      amqpUrl = resolveBrokerUrl(url);
    } catch (err) {
      if (err instanceof AmqpUrlError || err instanceof HostNotAllowedError) fail(`bad broker URL: ${err.message}`);
      throw err;
    }
    if (managementUrl !== undefined) {
      try {
        managementUrl = parseManagementUrl(managementUrl);
      } catch (err) {
        if (err instanceof ManagementUrlError || err instanceof HostNotAllowedError) fail(`bad --management-url: ${err.message}`);
        throw err;
      }
    }
  }
  const results = await runFiles(files, { target, url: amqpUrl, record, ...(managementUrl !== undefined ? { managementUrl } : {}) }, (r) => {
    const line = { scenario: r.scenario, target: r.target, match: r.match, observed: r.observed ?? null, diff: r.diff, ...(r.reason ? { reason: r.reason } : {}), ...(r.error ? { error: r.error } : {}), ...(r.recorded ? { recorded: path.relative(cwd, r.file ?? '') } : {}) };
    process.stdout.write(JSON.stringify(line) + '\n');
  });
  const count = (m: boolean | null): number => results.filter((r) => r.match === m).length;
  process.stderr.write(`conformance (${target}): ${count(true)} match, ${count(false)} differ or failed, ${count(null)} not run (null)\n`);
  return count(false) > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`conformance: ${(err as Error).message}\n`);
    process.exit(2);
  },
);
