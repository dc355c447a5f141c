/**
 * Browser end-to-end tests: builds the web app, starts the real server on a free port (it
 * serves apps/web/dist), runs every flow in Debian's Chromium, keeps screenshots in
 * e2e/artifacts/, writes {passed, failed, skipped} to --results, exits non-zero on failure.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { launchChromium } from './lib/chromium.js';
import { buildWeb, startServer } from './lib/server.js';
import { runFlow, type FlowResult } from './lib/harness.js';
import { flows } from './flows/index.js';

const args = process.argv.slice(2);
const resultsAt = args.includes('--results') ? args[args.indexOf('--results') + 1] : undefined;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const skipBuild = args.includes('--no-build');

const results: FlowResult[] = [];
let fatal: string | undefined;
try {
  if (!skipBuild) {
    process.stdout.write('building apps/web… ');
    buildWeb();
    console.log('done');
  }
  const server = await startServer();
  const browser = await launchChromium();
  try {
    for (const flow of flows) {
      if (only && !flow.name.includes(only)) continue;
      const r = await runFlow(browser, server.url, flow);
      results.push(r);
      console.log(
        `${r.status === 'passed' ? '✓' : r.status === 'skipped' ? '-' : '✗'} ${r.name} (${r.ms} ms)${r.error ? `\n    ${r.error.replace(/\n/g, '\n    ')}` : ''}`,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
  }
} catch (e) {
  fatal = (e as Error).message;
  console.error(`e2e setup failed: ${fatal}`);
}

const count = (s: FlowResult['status']) => results.filter((r) => r.status === s).length;
const summary = { passed: count('passed'), failed: count('failed') + (fatal ? 1 : 0), skipped: count('skipped') };
if (resultsAt) {
  const p = resolve(process.cwd(), resultsAt);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, JSON.stringify(summary));
}
console.log(`e2e: ${summary.passed} passed, ${summary.failed} failed`);
process.exit(summary.failed > 0 ? 1 : 0);
