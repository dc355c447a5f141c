/**
 * `pnpm bench:import-app`: import-app on the inputs issue 42 found slow or crashing, at the size
 * the readers accept (MAX_APP_FILE_CHARS) and past it: a YAML and a properties file of many keys,
 * Java with many calls (balanced, and unclosed), and a 52 MB file refused. Prints one
 * `name: value` per line (wall time, measured here; the heap after each).
 */
import { pathToFileURL } from 'node:url';
import { importAppConfig, MAX_APP_FILE_CHARS, AppConfigFailure } from '@retry-studio/topology-core/appconfig';
import { hostileJava, manyKeysProperties, manyKeysYaml } from '@retry-studio/topology-core/testing/appconfig';

interface Case {
  readonly name: string;
  readonly file: () => { name: string; text: string };
}

/** the largest count of `make`'s keys that stays within the limit */
function atLimit(make: (n: number) => { name: string; text: string }): { name: string; text: string } {
  let n = 1000;
  while (make(n * 2).text.length <= MAX_APP_FILE_CHARS) n *= 2;
  let hi = n * 2;
  while (hi - n > 1000) {
    const mid = Math.floor((n + hi) / 2);
    if (make(mid).text.length <= MAX_APP_FILE_CHARS) n = mid;
    else hi = mid;
  }
  return make(n);
}

const CASES: readonly Case[] = [
  { name: 'yaml_at_limit', file: () => atLimit(manyKeysYaml) },
  { name: 'properties_at_limit', file: () => atLimit(manyKeysProperties) },
  {
    name: 'java_many_calls',
    file: () => ({
      name: 'Many.java',
      text: `class M {\n  Object a = RetryInterceptorBuilder.stateless().maxAttempts(3).build();\n  @RabbitListener(queues = "q") void on(String s) {}\n  void junk() { x${'.maxAttempts(1)'.repeat(Math.floor(MAX_APP_FILE_CHARS / 16))}; }\n}\n`,
    }),
  },
  { name: 'java_unclosed_650kb', file: () => hostileJava(Math.floor(650_000 / 13)) },
  {
    name: 'yaml_52mb_refused',
    file: () => ({ name: 'application.yml', text: 'k: v\n'.repeat((52 * 1024 * 1024) / 5) }),
  },
];

export function run(): void {
  console.log(`limit_bytes: ${MAX_APP_FILE_CHARS}`);
  for (const c of CASES) {
    const file = c.file();
    const t0 = performance.now();
    let result = 'read';
    try {
      importAppConfig([file]);
    } catch (e) {
      if (!(e instanceof AppConfigFailure)) throw e;
      result = `refused (${e.error.message.slice(0, 60)})`;
    }
    const ms = Math.round(performance.now() - t0);
    console.log(
      `${c.name}: ${(file.text.length / (1024 * 1024)).toFixed(1)} MB, ${result}, ${ms} ms, heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) run();
