import { writeDesignJson } from '@retry-studio/topology-core/io';
import { formatIssues } from '@retry-studio/topology-core/model';
import { importBroker } from '../../operate/importBroker.js';
import { flag, parseArgs, value } from './args.js';
import { CliError, writeOutput, type CliIo } from './context.js';
import { TARGET_FLAGS, cliFailure, targetFromArgs } from './operateArgs.js';

export const IMPORT_BROKER_USAGE =
  'import-broker --url AMQP_URL [--vhost V] [--management-url URL] [--name N] [--out FILE] [--json]   a live vhost -> design JSON (scaffolded, laid out, linted)';

export async function importBrokerCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: [...TARGET_FLAGS, 'name', 'out'], switches: ['json'] });
  if (a.positionals.length > 0) throw new CliError(`usage: ${IMPORT_BROKER_USAGE}`, 2);
  const t = await targetFromArgs(a);
  const r = await importBroker(t, { name: value(a, 'name') }).catch((e: unknown) => {
    throw cliFailure(e);
  });
  if (!r.ok)
    throw new CliError(
      `vhost '${t.vhost}' cannot be read as a design:\n${formatIssues(r.errors).replace(/^/gm, '  ')}`,
    );
  const tp = r.design.topology;
  const parking = Object.entries(r.roles)
    .filter(([, role]) => role === 'parking')
    .map(([q]) => q);
  io.err(
    `RabbitMQ ${r.rabbitVersion}, vhost '${r.vhost}' (profile ${r.design.profile}${r.v43 ? ', 4.3 rules' : ''}): ${tp.exchanges.length} exchanges, ${tp.queues.length} queues, ${tp.bindings.length} bindings; ` +
      `${r.design.consumers.length} workers and ${r.design.publishers.length} publishers scaffolded; read ${r.timings.readMs} ms, design ${r.timings.scaffoldMs} ms\n` +
      (parking.length ? `parking queues (where dead letters pile up): ${parking.join(', ')}\n` : '') +
      (r.skipped.length
        ? `skipped ${r.skipped.length}: ${r.skipped
            .slice(0, 5)
            .map((s) => `${s.kind} ${s.name} (${s.reason})`)
            .join('; ')}\n`
        : '') +
      (r.lint.length
        ? `lint: ${r.lint.length} finding(s): ${r.lint
            .slice(0, 5)
            .map((f) => `${f.severity} ${f.id}`)
            .join(', ')}\n`
        : ''),
  );
  const text = flag(a, 'json')
    ? JSON.stringify(
        {
          rabbitVersion: r.rabbitVersion,
          vhost: r.vhost,
          roles: r.roles,
          skipped: r.skipped,
          lint: r.lint,
          design: r.design,
        },
        null,
        2,
      ) + '\n'
    : writeDesignJson(r.design);
  await writeOutput(io, value(a, 'out'), text);
  return 0;
}
