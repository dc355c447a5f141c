/**
 * pnpm fuzz [--target broker|sim] [--url AMQP_URL] [--management-url URL] [--profile 3.10|4.x|4.3]
 *           [--seed S] [--count N] [--concurrency C] [--no-shrink] [--out DIR] [--max-run-ms N] [--print INDEX]
 * Differential testing of the simulator against a real broker on seeded random retry topologies
 * (src/fuzz/). One line per topology, then exactly `fuzz: N topologies, M agree, K disagree`;
 * exit 1 when K > 0, 2 on bad options. Each disagreement is shrunk on the broker and written,
 * recorded, to --out (default fuzz-found/, relative to where pnpm was started). --print INDEX
 * prints topology INDEX of the seed as a scenario (the simulator's prediction under --profile as expect).
 */
import path from 'node:path';
import { AmqpUrlError, HostNotAllowedError, resolveBrokerUrl } from '../broker/amqpUrl.js';
import { ManagementUrlError, parseManagementUrl } from '../broker/managementUrl.js';
import { isScenarioProfile, SCENARIO_PROFILES, type ScenarioProfile } from '@retry-studio/topology-core/scenario';
import { avoidedText } from '../fuzz/fuzzAvoided.js';
import { Fuzzer, runFuzz, type FuzzOptions } from '../fuzz/runFuzz.js';

const USAGE =
  'usage: pnpm fuzz [--target broker|sim] [--url AMQP_URL] [--management-url URL] [--profile 3.10|4.x|4.3] [--seed S] [--count N] [--concurrency C] [--no-shrink] [--out DIR] [--max-run-ms N] [--print INDEX]';

function fail(message: string): never {
  process.stderr.write(`fuzz: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function positiveInt(name: string, v: string, min = 1): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) fail(`${name} must be an integer >= ${min}, got ${v}`);
  return n;
}

async function main(argv: readonly string[]): Promise<number> {
  let target: 'sim' | 'broker' = 'broker';
  let url: string | undefined;
  let managementUrl: string | undefined;
  let profile: ScenarioProfile | undefined;
  let seed = 1;
  let count = 20;
  let concurrency: number | undefined;
  let shrink = true;
  let out = 'fuzz-found';
  let maxRunMs: number | undefined;
  let print: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    if (raw === '--') continue;
    const eq = raw.indexOf('=');
    const [name, inline] = raw.startsWith('--') && eq > 0 ? [raw.slice(0, eq), raw.slice(eq + 1)] : [raw, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) fail(`${name} needs a value`);
      return v;
    };
    switch (name) {
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n\n${avoidedText()}\n`);
        return 0;
      case '--target': {
        const t = value();
        if (t !== 'sim' && t !== 'broker') fail(`--target must be sim or broker, got ${t}`);
        target = t;
        break;
      }
      case '--url':
        url = value();
        break;
      case '--management-url':
        managementUrl = value();
        break;
      case '--profile': {
        const p = value();
        if (!isScenarioProfile(p)) fail(`--profile must be one of ${SCENARIO_PROFILES.join(', ')}, got ${p}`);
        profile = p;
        break;
      }
      case '--seed':
        seed = positiveInt('--seed', value(), 0);
        break;
      case '--count':
        count = positiveInt('--count', value());
        break;
      case '--concurrency':
        concurrency = positiveInt('--concurrency', value());
        break;
      case '--max-run-ms':
        maxRunMs = positiveInt('--max-run-ms', value());
        break;
      case '--out':
        out = value();
        break;
      case '--print':
        print = positiveInt('--print', value(), 0);
        break;
      case '--no-shrink':
        shrink = false;
        break;
      default:
        fail(`unknown option ${raw}`);
    }
  }
  if (managementUrl !== undefined && target !== 'broker') fail('--management-url needs --target broker');
  if (print !== undefined) {
    const f = new Fuzzer({ target: 'sim', seed, count: 1, ...(profile ? { profile } : {}) });
    await f.start();
    process.stdout.write(JSON.stringify(f.generate(print).scenario, null, 2) + '\n');
    return 0;
  }
  const cwd = process.env.INIT_CWD ?? process.cwd();
  let options: FuzzOptions = {
    target,
    seed,
    count,
    shrink,
    outDir: path.resolve(cwd, out),
    ...(profile ? { profile } : {}),
    ...(concurrency ? { concurrency } : {}),
    ...(maxRunMs ? { maxRunMs } : {}),
  };
  if (target === 'broker') {
    try {
      options = { ...options, url: resolveBrokerUrl(url) };
      if (managementUrl !== undefined) options = { ...options, managementUrl: parseManagementUrl(managementUrl) };
    } catch (err) {
      if (err instanceof AmqpUrlError || err instanceof HostNotAllowedError || err instanceof ManagementUrlError)
        fail(err.message);
      throw err;
    }
  }
  process.stderr.write(`${avoidedText()}\n`);
  const s = await runFuzz(options, (l) => {
    const file = l.file ? ` -> ${path.relative(cwd, l.file)}` : '';
    process.stdout.write(`${l.name} ${l.verdict} ${(l.ms / 1000).toFixed(1)} s: ${l.detail}${file}\n`);
  });
  const skipped = [...s.avoided].map(([k, n]) => `${k} ${n}`).join(', ');
  process.stderr.write(
    `(${target}, simulator profile ${s.profile}, ${(s.ms / 1000).toFixed(1)} s; skipped as races: ${skipped || 'none'})\n`,
  );
  process.stdout.write(`fuzz: ${s.topologies} topologies, ${s.agree} agree, ${s.disagree} disagree\n`);
  return s.disagree > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`fuzz: ${(err as Error).message}\n`);
    process.exit(2);
  },
);
