/**
 * `import-app FILE...`: an application's retry configuration (Spring Boot, Spring Cloud Stream,
 * Spring AMQP Java, MassTransit, NServiceBus, Celery) as a design: the topology the framework
 * declares (or --definitions'), consumers that behave as the framework does, each with its
 * file:line. The design goes to --out (else stdout); what was read, what a failing message does,
 * the interaction findings and what was not modelled go to stderr (stdout with --out).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { APP_FRAMEWORKS, isAppFramework, type AppFramework } from '@retry-studio/topology-core/model';
import { bootLineOf, describeApp } from '@retry-studio/topology-core/appconfig';
import { writeDesignJson } from '@retry-studio/topology-core/io';
import { lintDesign } from '@retry-studio/topology-core/lint';
import { parseArgs, value } from './args.js';
import { CliError, readText, writeOutput, type CliIo } from './context.js';
import { loadAppConfig } from './appConfigFile.js';

export const IMPORT_APP_USAGE = `import-app FILE... [--framework ${APP_FRAMEWORKS.join('|')}] [--definitions FILE] [--env FILE]... [--vhost V] [--profile 3.10|4.x|4.3] [--spring-profile P]... [--spring-boot 3.5|4.0] [--name N] [--out FILE]   application retry configuration, with the environment (dotenv, a Kubernetes Deployment or Helm values file among FILE) and Spring profiles it runs with -> design JSON (exit 2 on bad input, nothing written)`;

/** `application-<p>.yml|.yaml|.properties` beside each given Spring file, for each active profile, when it exists and was not given. */
async function profileFiles(
  io: CliIo,
  given: readonly string[],
  profiles: readonly string[],
): Promise<{ name: string; text: string }[]> {
  const out: { name: string; text: string }[] = [];
  const seen = new Set(given.map((f) => path.resolve(io.cwd, f)));
  for (const f of given) {
    const m = /^(.*[\\/])?application\.(ya?ml|properties)$/i.exec(f);
    if (!m) continue;
    for (const p of profiles)
      for (const ext of ['yml', 'yaml', 'properties']) {
        const name = `${m[1] ?? ''}application-${p}.${ext}`;
        const abs = path.resolve(io.cwd, name);
        if (seen.has(abs) || !existsSync(abs)) continue;
        seen.add(abs);
        out.push({ name, text: await readText(io, name) });
      }
  }
  return out;
}

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
  'framework-setting-trap',
  'framework-queue-refused',
  'app-discards-failures',
]);

export async function importAppCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, {
    values: ['framework', 'definitions', 'env', 'vhost', 'profile', 'spring-profile', 'spring-boot', 'name', 'out'],
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
  const springProfiles = (a.flags.get('spring-profile') ?? []).flatMap((p) => p.split(',').map((x) => x.trim()));
  files.push(...(await profileFiles(io, a.positionals, springProfiles)));
  const envFiles = await Promise.all(
    (a.flags.get('env') ?? []).map(async (f) => ({ name: f, text: await readText(io, f) })),
  );
  const vhost = value(a, 'vhost');
  const name = value(a, 'name');
  const springBoot = value(a, 'spring-boot');
  if (springBoot !== undefined && bootLineOf(springBoot) === undefined)
    throw new CliError(
      `--spring-boot must be a Spring Boot release such as 3.5 or 4.0, got ${JSON.stringify(springBoot)}`,
      2,
    );
  const loaded = loadAppConfig(files, {
    ...(fw !== undefined ? { framework: fw as AppFramework } : {}),
    ...(definitions ? { definitions } : {}),
    ...(vhost !== undefined ? { vhost } : {}),
    ...(profile !== undefined ? { profile } : {}),
    ...(name !== undefined ? { name } : { name: path.basename(a.positionals[0]!).replace(/\.[^.]+$/, '') }),
    ...(springProfiles.length ? { springProfiles } : {}),
    ...(springBoot !== undefined ? { springBoot } : {}),
    ...(envFiles.length ? { envFiles } : {}),
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
      ...(loaded.environment ? { environment: loaded.environment } : {}),
    }) +
    (findings.length
      ? `findings:\n${findings.map((f) => `  ${f.severity} ${f.id} at ${f.at!.file}:${f.at!.line}: ${f.message}\n    fix: ${f.fix}`).join('\n')}\n`
      : 'findings: none\n');
  await writeOutput(io, out, writeDesignJson(design));
  (out ? io.out : io.err)(summary);
  return 0;
}
