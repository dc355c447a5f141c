import { compareStrategies, formatComparison, type StrategyEntry } from '@retry-studio/topology-core/budget';
import { buildTemplate, getTemplate } from '@retry-studio/topology-core/templates';
import { flag, parseArgs } from './args.js';
import { CliError, loadFileVhosts, type CliIo } from './context.js';
import { failureFromArgs } from './simulate.js';
import { withAssumedActors } from './assumedActors.js';
import { answered } from '../exitCodes.js';
import { isMoving } from '@retry-studio/topology-core/sim';

export const COMPARE_USAGE =
  'compare ID|FILE ... [--fail-first K | --always | --poison] [--json]   strategies side by side (default: every stock 3.10 template)';

export async function compareCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['fail-first'], switches: ['json', 'always', 'poison'] });
  const failure = failureFromArgs(a);
  const picks =
    a.positionals.length > 0
      ? a.positionals
      : [
          'requeue-once',
          'dlx-ttl-wait-queue',
          'republish-ttl',
          'delayed-exchange',
          'chained-ttl',
          'quorum-delivery-limit',
          'binary-delay-levels',
        ];
  const entries: StrategyEntry[] = [];
  for (const p of picks) {
    if (getTemplate(p)) {
      const r = buildTemplate(p);
      if (!r.ok) throw new CliError(`${p}: ${r.errors[0]?.message}`);
      entries.push({ label: p, design: r.template.design, workConsumers: r.template.workConsumers });
    } else {
      // a whole-broker file: one strategy per vhost that holds queues (a vhost of policies alone has nothing to run)
      const all = await loadFileVhosts(io, p);
      const docs = all.length > 1 ? all.filter((d) => d.design.topology.queues.length > 0) : all;
      for (const doc of docs.length > 0 ? docs : all) {
        const label = docs.length > 1 && doc.vhost !== undefined ? `${p} (${doc.vhost})` : p;
        // a definitions file runs with the consumers and publishers lint assumes
        const { design, note } =
          doc.kind === 'definitions' ? withAssumedActors(doc.design) : { design: doc.design, note: undefined };
        if (note) io.err(`${label}: ${note}\n`);
        if (design.publishers.length === 0)
          throw new CliError(`${label}: no publisher to simulate (and none can be assumed: the file has no queue)`, 2);
        entries.push({ label, design });
      }
    }
  }
  // each strategy runs to its own horizon (its longest TTL chain: sim/retryHorizon.ts), as simulate and the budget do
  const rows = compareStrategies(entries, failure);
  if (flag(a, 'json'))
    io.out(
      JSON.stringify(
        rows.map(({ traces: _t, ...r }) => r),
        null,
        2,
      ) + '\n',
    );
  else io.out(formatComparison(rows) + '\n');
  // a strategy whose failing message never ends is bad news (cli/exitCodes.ts)
  return answered(rows.some((r) => isMoving(r.outcome)));
}
