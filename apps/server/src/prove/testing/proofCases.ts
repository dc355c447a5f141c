/**
 * The proofs CI runs: each framework on both brokers, configurations of the app corpus
 * (apps/server/src/cli/appcorpus/), each under --always and --fail-first 2. Every channel must
 * agree (attempts and end exactly, waits within the tolerance), but those import-app says it cannot
 * predict, which a case names (a failure to predict, never a silent pass). Skipped, with the
 * reason, only where the framework's runtime is absent.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProofFailure } from '@retry-studio/topology-core/prove';
import { parseAmqpUrl } from '../../broker/index.js';
import { TEST_BROKERS } from '../../testing/testBrokers.js';
import { closeRunners } from '../closeRunners.js';
import { proveApp, type ProofReport } from '../proveApp.js';
import { runnerFor } from '../frameworkRunners.js';
import { proofText } from '../proofText.js';

export const APP_CORPUS = fileURLToPath(new URL('../../cli/appcorpus/', import.meta.url));

/** the throwaway vhosts' prefix in tests (a shared machine may ask for its own) */
export const TEST_VHOST_PREFIX = process.env.RETRY_STUDIO_TEST_VHOST_PREFIX ?? 'rs-prove-test';

export const ALWAYS: ProofFailure = { kind: 'always' };
export const FAIL_FIRST_2: ProofFailure = { kind: 'failFirst', n: 2 };

export interface ProofCase {
  /** a corpus file, relative to the corpus */
  readonly file: string;
  /** what it is in the corpus: defaults, exponential back-off, a recoverer or DLQ, a trap */
  readonly what: string;
  /**
   * consumers import-app says it cannot predict (an error handler of the application's own): their
   * channels are failures to predict, said as such; every other channel must agree
   */
  readonly unknown?: readonly string[];
}

export const corpusFile = (file: string) => {
  const p = path.join(APP_CORPUS, file);
  return { name: file, path: p, text: readFileSync(p, 'utf8') };
};

const failureName = (f: ProofFailure) => (f.kind === 'always' ? 'always' : `fail-first-${f.n}`);

/** Table-driven proofs of one framework (or one of its variants) on both brokers. */
export function describeProofs(
  framework: string,
  cases: readonly ProofCase[],
  opts: { readonly springBoot?: string; readonly timeoutMs?: number } = {},
): void {
  const runner = runnerFor(framework, opts.springBoot);
  const absent = runner.absent();
  afterAll(() => closeRunners());
  describe.concurrent(`${runner.label}: prove-app on both brokers`, () => {
    for (const b of TEST_BROKERS)
      for (const c of cases)
        for (const failure of [ALWAYS, FAIL_FIRST_2]) {
          const key = `${failureName(failure)}@${b.name}`;
          it.skipIf(absent !== undefined)(
            `${c.file} (${c.what}), ${key}${absent ? `: skipped, ${absent}` : ''}`,
            async () => {
              const run = proveApp({
                files: [corpusFile(c.file)],
                framework,
                ...(opts.springBoot ? { springBoot: opts.springBoot } : {}),
                url: parseAmqpUrl(b.amqpUrl),
                managementUrl: b.managementUrl,
                failure,
                vhostPrefix: TEST_VHOST_PREFIX,
              });
              const report: ProofReport = await run;
              const text = proofText(report);
              expect(report.channels.length, text).toBeGreaterThan(0);
              for (const ch of report.channels) expect(ch.cleanedUp, text).toBe(true);
              const unknown = report.channels.filter((ch) => ch.predicted.end === 'unknown').map((ch) => ch.consumer);
              expect(unknown.sort(), text).toEqual([...(c.unknown ?? [])].sort());
              const differences = report.channels
                .filter((ch) => !unknown.includes(ch.consumer))
                .flatMap((ch) => ch.differences.map((d) => `${ch.consumer}: ${d}`));
              expect(differences, text).toEqual([]);
            },
            opts.timeoutMs ?? 300_000,
          );
        }
  });
}
