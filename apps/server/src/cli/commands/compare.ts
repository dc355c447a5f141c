import { compareStrategies, formatComparison, type StrategyEntry } from '@retry-studio/topology-core/budget';
import { buildTemplate, getTemplate } from '@retry-studio/topology-core/templates';
import { flag, parseArgs } from './args.js';
import { CliError, loadFile, type CliIo } from './context.js';
import { failureFromArgs } from './simulate.js';
import { withAssumedActors } from './assumedActors.js';

export const COMPARE_USAGE = 'compare ID|FILE ... [--fail-first K | --always | --poison] [--json]   strategies side by side (default: every stock 3.10 template)';

export async function compareCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const a = parseArgs(argv, { values: ['fail-first'], switches: ['json', 'always', 'poison'] });
  const failure = failureFromArgs(a);
  const picks = a.positionals.length > 0 ? a.positionals : ['requeue-once', 'dlx-ttl-wait-queue', 'republish-ttl', 'delayed-exchange', 'chained-ttl', 'quorum-delivery-limit', 'binary-delay-levels'];
  const entries: StrategyEntry[] = [];
  for (const p of picks) {
    if (getTemplate(p)) {
      const r = buildTemplate(p);
      if (!r.ok) throw new CliError(`${p}: ${r.errors[0]?.message}`);
      entries.push({ label: p, design: r.template.design, workConsumers: r.template.workConsumers });
    } else {
      const doc = await loadFile(io, p);
      // a definitions file runs with the consumers and publishers lint assumes
      const { design, note } = doc.kind === 'definitions' ? withAssumedActors(doc.design) : { design: doc.design, note: undefined };
      if (note) io.err(`${p}: ${note}\n`);
      if (design.publishers.length === 0) throw new CliError(`${p}: no publisher to simulate (and none can be assumed: no exchange routes to a queue)`);
      entries.push({ label: p, design });
    }
  }
  const rows = compareStrategies(entries, failure, { maxTimeMs: 24 * 3600 * 1000 });
  if (flag(a, 'json')) io.out(JSON.stringify(rows.map(({ traces: _t, ...r }) => r), null, 2) + '\n');
  else io.out(formatComparison(rows) + '\n');
  return 0;
}
