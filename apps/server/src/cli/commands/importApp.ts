/**
 * `import-app FILE...`: an application's retry configuration (Spring Boot, Spring Cloud Stream,
 * Spring AMQP Java, MassTransit, NServiceBus, Celery) as a design: the topology the framework
 * declares (or --definitions'), consumers that behave as the framework does, each with its
 * file:line. The design goes to --out (else stdout); what was read, what a failing message does,
 * the interaction findings and what was not modelled go to stderr (stdout with --out).
 */
import path from 'node:path';
import { APP_FRAMEWORKS, isAppFramework, type AppFramework } from '@retry-studio/topology-core/model';
import { describeApp } from '@retry-studio/topology-core/appconfig';
import { writeDesignJson } from '@retry-studio/topology-core/io';
import { lintDesign } from '@retry-studio/topology-core/lint';
import { parseArgs, value } from './args.js';
import { CliError, readText, writeOutput, type CliIo } from './context.js';
import { loadAppConfig } from './appConfigFile.js';

export const IMPORT_APP_USAGE = `import-app FILE... [--framework ${APP_FRAMEWORKS.join('|')}] [--definitions FILE] [--vhost V] [--profile 3.10|4.x|4.3] [--spring-profile P] [--name N] [--out FILE]   application retry configuration -> design JSON (exit 2 on bad input, nothing written)`;

/** the rules about a framework's configuration meeting the broker */
export const INTERACTION_RULES: ReadonlySet<string> = new Set([
  'requeue-rejected-forever',
  'framework-key-ignored',
  'immediate-retries-over-delivery-limit',
  'republish-counts-x-death',
  'backoff-without-jitter',
  'backoff-over-consumer-timeout',
  'nack-never-reaches-delivery-limit',
  'parked-dead-letters-expire',
]);

export async function importAppCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, {
    values: ['framework', 'definitions', 'vhost', 'profile', 'spring-profile', 'name', 'out'],
    switches: [],
  });
  if (a.positionals.length === 0) throw new CliError(`usage: ${IMPORT_APP_USAGE}`, 2);
  const fw = value(a, 'framework');
  if (fw !== undefined && !isAppFramework(fw))
    throw new CliError(`--framework must be one of ${APP_FRAMEWORKS.join(', ')}, got ${JSON.stringify(fw)}`, 2);
  const profile = value(a, 'profile');
  if (profile !== undefined && profile !== '3.10' && profile !== '4.x' && profile !== '4.3')
    throw new CliError('--profile must be 3.10, 4.x or 4.3', 2);
  const files = await Promise.all(a.positionals.map(async (f) => ({ name: f, text: await readText(io, f) })));
  const defsFile = value(a, 'definitions');
  const definitions = defsFile !== undefined ? { name: defsFile, text: await readText(io, defsFile) } : undefined;
  const springProfiles = a.flags.get('spring-profile') ?? [];
  const vhost = value(a, 'vhost');
  const name = value(a, 'name');
  const loaded = loadAppConfig(files, {
    ...(fw !== undefined ? { framework: fw as AppFramework } : {}),
    ...(definitions ? { definitions } : {}),
    ...(vhost !== undefined ? { vhost } : {}),
    ...(profile !== undefined ? { profile } : {}),
    ...(name !== undefined ? { name } : { name: path.basename(a.positionals[0]!).replace(/\.[^.]+$/, '') }),
    ...(springProfiles.length ? { springProfiles } : {}),
  });
  const design = loaded.design;
  const out = value(a, 'out');
  const findings = lintDesign(design, profile !== undefined ? { profile } : {}).filter(
    (f) => INTERACTION_RULES.has(f.id) && f.at !== undefined,
  );
  const summary =
    describeApp({
      design,
      frameworks: [...new Set(Object.values(design.sources ?? {}).map((s) => s.framework))],
      notes: loaded.notes,
    }) +
    (findings.length
      ? `findings:\n${findings.map((f) => `  ${f.severity} ${f.id} at ${f.at!.file}:${f.at!.line}: ${f.message}\n    fix: ${f.fix}`).join('\n')}\n`
      : 'findings: none\n');
  await writeOutput(io, out, writeDesignJson(design));
  (out ? io.out : io.err)(summary);
  return 0;
}
