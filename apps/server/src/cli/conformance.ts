/**
 * pnpm conformance [--target sim|broker] [--url AMQP_URL] [--management-url URL] [--profile 3.10|4.x|4.3] [--max-run-ms N] [--record] PATH...
 * One JSON line per scenario: {"scenario","target","match","observed","diff"}; exit 1 if any does not match.
 * The sim target replays each file under the profile of the broker it was recorded on
 * (`recorded_on`); --profile overrides. A run still busy after --max-run-ms ends with
 * "did not settle in N ms". Paths are resolved against the directory pnpm was started from (INIT_CWD), not apps/server.
 */
import path from 'node:path';
import { AmqpUrlError, HostNotAllowedError, resolveBrokerUrl } from '../broker/amqpUrl.js';
import { ManagementUrlError, parseManagementUrl } from '../broker/managementUrl.js';
import { isScenarioProfile, SCENARIO_PROFILES, type ScenarioProfile } from '@retry-studio/topology-core/scenario';
import { expandScenarioPaths } from '../conformance/loadScenarios.js';
import { runFiles, type ConformanceTarget } from '../conformance/runConformance.js';
import { DEFAULT_MAX_RUN_MS } from '../conformance/unsettled.js';

const USAGE =
  'usage: pnpm conformance [--target sim|broker] [--url AMQP_URL] [--management-url URL] [--profile 3.10|4.x|4.3] [--max-run-ms N] [--record] PATH...';

function fail(message: string): never {
  process.stderr.write(`conformance: ${message}\n${USAGE}\n`);
  process.exit(2);
}

async function main(argv: readonly string[]): Promise<number> {
  let target: ConformanceTarget = 'broker';
  let url: string | undefined;
  let managementUrl: string | undefined;
  let record = false;
  let profile: ScenarioProfile | undefined;
  let maxRunMs = DEFAULT_MAX_RUN_MS;
  const paths: string[] = [];
  // `--name value` or `--name=value`
  const valueOf = (a: string, name: string, i: number): [string, number] | undefined => {
    if (a === name) {
      const v = argv[i + 1];
      if (v === undefined) fail(`${name} needs a value`);
      return [v, i + 1];
    }
    return a.startsWith(`${name}=`) ? [a.slice(name.length + 1), i] : undefined;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    let v: [string, number] | undefined;
    if ((v = valueOf(a, '--profile', i))) {
      i = v[1];
      if (!isScenarioProfile(v[0])) fail(`--profile must be one of ${SCENARIO_PROFILES.join(', ')}, got ${v[0]}`);
      profile = v[0];
    } else if ((v = valueOf(a, '--management-url', i))) {
      i = v[1];
      managementUrl = v[0];
    } else if ((v = valueOf(a, '--max-run-ms', i))) {
      i = v[1];
      maxRunMs = Number(v[0]);
      if (!Number.isInteger(maxRunMs) || maxRunMs <= 0) fail(`--max-run-ms must be a positive integer, got ${v[0]}`);
    } else if (a === '--target') {
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
  if (profile !== undefined && target !== 'sim') fail('--profile is for --target sim (a broker is what it is)');
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
        if (err instanceof ManagementUrlError || err instanceof HostNotAllowedError)
          fail(`bad --management-url: ${err.message}`);
        throw err;
      }
    }
  }
  const options = {
    target,
    url: amqpUrl,
    record,
    maxRunMs,
    ...(profile ? { profile } : {}),
    ...(managementUrl ? { managementUrl } : {}),
  };
  const results = await runFiles(files, options, (r) => {
    const line = {
      scenario: r.scenario,
      target: r.target,
      ...(r.profile ? { profile: r.profile } : {}),
      match: r.match,
      ...(r.settled === false ? { settled: false } : {}),
      observed: r.observed ?? null,
      diff: r.diff,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.error ? { error: r.error } : {}),
      ...(r.recorded ? { recorded: path.relative(cwd, r.file ?? '') } : {}),
    };
    process.stdout.write(JSON.stringify(line) + '\n');
  });
  const count = (m: boolean | null): number => results.filter((r) => r.match === m).length;
  const byProfile = new Map<string, number>();
  for (const r of results) if (r.profile) byProfile.set(r.profile, (byProfile.get(r.profile) ?? 0) + 1);
  const profiles = byProfile.size > 0 ? `; profiles ${[...byProfile].map(([p, n]) => `${p}: ${n}`).join(', ')}` : '';
  process.stderr.write(
    `conformance (${target}): ${count(true)} match, ${count(false)} differ or failed, ${count(null)} not run (null)${profiles}\n`,
  );
  return count(false) > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`conformance: ${(err as Error).message}\n`);
    process.exit(2);
  },
);
