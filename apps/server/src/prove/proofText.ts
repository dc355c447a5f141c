/** A proof as text: per channel, import-app's prediction beside what the framework did, and each difference. */
import { formatMs } from '@retry-studio/topology-core/budget';
import type { ChannelRun } from '@retry-studio/topology-core/prove';
import type { ProofReport } from './proveApp.js';

const MAX_WAITS = 8;

const waits = (r: ChannelRun, jitter = false): string =>
  r.end === 'unknown'
    ? '?'
    : r.delaysMs.length === 0
      ? '-'
      : r.delaysMs
          .slice(0, MAX_WAITS)
          .map((d) => (jitter ? `<=${formatMs(d)}` : formatMs(Math.round(d))))
          .join(', ') + (r.delaysMs.length > MAX_WAITS ? `, ... (${r.delaysMs.length})` : '');

// an "unknown" prediction's numbers are the guess it declines to stand by
const count = (r: ChannelRun): string => (r.end === 'unknown' ? '?' : `${r.attempts}${r.end === 'cycling' ? '+' : ''}`);

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function proofText(r: ProofReport): string {
  const failing = r.failure.kind === 'always' ? 'always' : `the first ${r.failure.n} attempts`;
  const lines = [`${r.runner}, version ${r.version}, on RabbitMQ ${r.broker.version}; the listener fails ${failing}`];
  for (const c of r.channels) {
    lines.push('', `${c.consumer} reads ${c.queue}: ${c.agree ? 'agree' : 'DIFFER'}`);
    const rows: string[][] = [['', 'attempts', 'waits', 'end']];
    rows.push(['import-app', count(c.predicted), waits(c.predicted, c.predicted.jitter), c.predicted.end]);
    rows.push([r.runner.split(' (')[0]!, count(c.observed), waits(c.observed), c.observed.end]);
    lines.push(table(rows).replace(/^/gm, '  '));
    for (const d of c.agree ? [] : c.differences) lines.push(`  - ${d}`);
    if (!c.cleanedUp) lines.push(`  ! the throwaway vhost ${c.vhost} could not be deleted: delete it by hand`);
  }
  const bad = r.channels.filter((c) => !c.agree).length;
  lines.push(
    '',
    r.channels.length === 0
      ? 'not proved: nothing was run'
      : bad === 0
        ? 'proved: import-app agrees with the framework'
        : `${bad} of ${r.channels.length} channels differ`,
  );
  return lines.join('\n') + '\n';
}

/** the --json shape: {framework, version, channels: [{consumer, queue, predicted, observed, agree}]} (and more) */
export function proofJson(r: ProofReport): string {
  return (
    JSON.stringify(
      {
        framework: r.framework,
        version: r.version,
        runner: r.runner,
        broker: r.broker,
        failure: r.failure,
        channels: r.channels.map((c) => ({
          consumer: c.consumer,
          queue: c.queue,
          predicted: c.predicted,
          observed: c.observed,
          agree: c.agree,
          differences: c.differences,
          vhost: c.vhost,
          cleanedUp: c.cleanedUp,
        })),
      },
      null,
      2,
    ) + '\n'
  );
}
