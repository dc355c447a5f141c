/**
 * `prove-app FILE...`: import-app's reading of an application's retry configuration checked by
 * running the real framework with it against a real broker (a throwaway vhost per channel, deleted
 * whatever happens). Exit 0 when every channel agrees, 1 when one differs, 2 for a question that is
 * wrong (a file of no known framework, a framework absent here, a configuration that does not
 * start, an unreachable broker).
 */
import path from 'node:path';
import type { ProofFailure } from '@retry-studio/topology-core/prove';
import { resolveBrokerUrl } from '../../broker/index.js';
import { proveApp } from '../../prove/proveApp.js';
import { PROVABLE_FRAMEWORKS } from '../../prove/frameworkRunners.js';
import { closeRunners } from '../../prove/closeRunners.js';
import { proofJson, proofText } from '../../prove/proofText.js';
import { flag, intValue, parseArgs, value } from './args.js';
import { CliError, readText, type CliIo } from './context.js';

export const PROVE_APP_USAGE = `prove-app FILE... [--framework ${PROVABLE_FRAMEWORKS.join('|')}] --url AMQP_URL [--management-url URL] [--fail-first K | --always] [--spring-boot 3.5|4.0] [--spring-profile P] [--max-run-ms N] [--vhost-prefix P] [--json]   run the real framework with the configuration and compare with import-app (exit 1 when they differ)`;

export async function proveAppCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, {
    values: [
      'framework',
      'url',
      'management-url',
      'fail-first',
      'spring-boot',
      'spring-profile',
      'max-run-ms',
      'vhost-prefix',
    ],
    switches: ['always', 'json'],
  });
  if (a.positionals.length === 0) throw new CliError(`usage: ${PROVE_APP_USAGE}`, 2);
  const urlArg = value(a, 'url');
  if (urlArg === undefined)
    throw new CliError('--url: the broker to run the framework against (amqp://user:pass@host:port)', 2);
  let url;
  try {
    url = resolveBrokerUrl(urlArg);
  } catch (e) {
    throw new CliError(`--url: ${(e as Error).message}`, 2);
  }
  const failFirst = intValue(a, 'fail-first', 1, 50);
  if (failFirst !== undefined && flag(a, 'always')) throw new CliError('give --fail-first K or --always, not both', 2);
  const failure: ProofFailure = failFirst !== undefined ? { kind: 'failFirst', n: failFirst } : { kind: 'always' };
  const maxRunMs = intValue(a, 'max-run-ms', 1000, 24 * 3600_000);
  const framework = value(a, 'framework');
  if (framework !== undefined && !PROVABLE_FRAMEWORKS.includes(framework))
    throw new CliError(
      `--framework must be one of ${PROVABLE_FRAMEWORKS.join(', ')}, got ${JSON.stringify(framework)}`,
      2,
    );
  const vhostPrefix = value(a, 'vhost-prefix');
  if (vhostPrefix !== undefined && !/^[\w.-]{1,40}$/.test(vhostPrefix))
    throw new CliError('--vhost-prefix: letters, digits, ".", "_" and "-" only (at most 40)', 2);
  const files = await Promise.all(
    a.positionals.map(async (f) => ({ name: f, path: path.resolve(io.cwd, f), text: await readText(io, f) })),
  );
  const springBoot = value(a, 'spring-boot');
  const managementUrl = value(a, 'management-url');
  try {
    const report = await proveApp({
      files,
      url,
      failure,
      ...(framework !== undefined ? { framework } : {}),
      ...(springBoot !== undefined ? { springBoot } : {}),
      ...(managementUrl !== undefined ? { managementUrl } : {}),
      ...(maxRunMs !== undefined ? { maxRunMs } : {}),
      ...(vhostPrefix !== undefined ? { vhostPrefix } : {}),
      springProfiles: a.flags.get('spring-profile') ?? [],
      progress: (line) => io.err(`${line}\n`),
    });
    io.out(flag(a, 'json') ? proofJson(report) : proofText(report));
    return report.channels.length > 0 && report.channels.every((c) => c.agree) ? 0 : 1;
  } catch (e) {
    // a framework that did not start, a broker that cannot be reached: the question is wrong
    throw new CliError((e as Error).message, 2, { usageHint: false });
  } finally {
    await closeRunners();
  }
}
