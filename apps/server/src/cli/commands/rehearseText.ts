/** The retry bill of materials as text: what `rehearse` prints without --json (with --verify-on, predicted next to measured). */
import { formatMs } from '@retry-studio/topology-core/budget';
import type { MeasuredRehearsal, RehearsalReport } from '@retry-studio/topology-core/rehearse';

const n = (x: number): string => Math.round(x).toLocaleString('en-US');
const pct = (x: number, of: number): string => (of > 0 ? `${+((100 * x) / of).toFixed(1)}%` : '-');

export function formatBytes(b: number): string {
  if (b < 1024) return `${b} B`;
  if (b < 1024 ** 2) return `${+(b / 1024).toFixed(1)} KiB`;
  if (b < 1024 ** 3) return `${+(b / 1024 ** 2).toFixed(1)} MiB`;
  return `${+(b / 1024 ** 3).toFixed(2)} GiB`;
}

const ms = (x: number | null | undefined): string =>
  x === null || x === undefined ? 'never' : formatMs(Math.round(x));

function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) =>
    r
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}

export function formatRehearsal(label: string, r: RehearsalReport): string {
  const out: string[] = [];
  const rate = r.messages / Math.max(1, r.durationMs / 1000);
  out.push(
    `Rehearsal of ${label}: ${n(r.messages)} messages over ${formatMs(r.durationMs)} (about ${n(rate)}/s), ${formatBytes(r.bodyBytes)} bodies, RabbitMQ ${r.profile} rules`,
  );
  for (const o of r.outages)
    out.push(
      `  outage: ${o.target}${o.consumers.length > 1 || o.consumers[0] !== o.target ? ` (${o.consumers.join(', ')})` : ''} from ${formatMs(o.startMs)} to ${formatMs(o.endMs)}`,
    );
  out.push(
    r.mode.kind === 'cohorts'
      ? `  simulated as ${n(r.mode.simulated)} cohorts (${r.mode.bucketMs} ms buckets) in ${formatMs(r.wallMs)}: ${r.mode.bound}`
      : `  simulated message by message in ${formatMs(r.wallMs)}`,
  );
  if (r.truncated) out.push(`  stopped at ${formatMs(r.endMs)} with work left (in flight below)`);
  for (const note of r.notes) out.push(`  note: ${note}`);
  out.push('');
  out.push('Outcomes');
  const o = r.outcomes;
  const parkedIn = Object.entries(o.parkedIn)
    .map(([q, c]) => `${q} ${n(c)}`)
    .join(', ');
  out.push(
    ...table([
      ['  acked', n(o.acked), pct(o.acked, r.messages)],
      ['  parked', n(o.parked), pct(o.parked, r.messages), parkedIn],
      ['  dropped', n(o.dropped), pct(o.dropped, r.messages)],
      ['  expired', n(o.expired), pct(o.expired, r.messages)],
      ['  in flight at the end', n(o.inFlight), pct(o.inFlight, r.messages)],
    ]),
  );
  out.push(`Deliveries: ${n(r.deliveries)} (${r.amplification} per message)`);
  out.push(
    r.delayMs
      ? `Delay, publish to ack: p50 ${ms(r.delayMs.p50)}, p95 ${ms(r.delayMs.p95)}, p99 ${ms(r.delayMs.p99)}, max ${ms(r.delayMs.max)}`
      : 'Delay, publish to ack: nothing acked',
  );
  if (r.outages.length > 0)
    out.push(
      `Drain: ${r.drainMs === null ? 'the retry queues never came back to their steady depth' : `${ms(r.drainMs)} after the last outage ended, every retry queue was back to its steady depth`}`,
    );
  out.push('');
  out.push('Queues');
  out.push(
    ...table([
      ['  queue', 'peak depth', 'at', 'memory at peak'],
      ...r.queues.map((q) => [`  ${q.name}`, n(q.peakDepth), formatMs(q.peakAtMs), formatBytes(q.peakMemoryBytes)]),
    ]),
  );
  const sources = [...new Set(r.queues.map((q) => q.memoryBasis?.source).filter((s): s is string => s !== undefined))];
  for (const s of sources) out.push(`  memory: depth x (per-message overhead + body); ${s}`);
  out.push('');
  const b = r.brokerOps;
  out.push(
    `Broker work, peak per second: ${n(b.publishesPerSec)} publishes, ${n(b.deadLettersPerSec)} dead-letterings, ${n(b.deliveriesPerSec)} deliveries`,
  );
  out.push(
    `Retry storm: ${n(b.retriesPerSec)} retries/s back at the failing consumer${b.retriesPerSec > 0 ? ` (the second from ${formatMs(b.retriesPeakAtMs)})` : ''}`,
  );
  if (r.broker) out.push('', ...formatMeasured(r, r.broker));
  return out.join('\n') + '\n';
}

/** predicted next to measured, figure by figure */
export function formatMeasured(p: RehearsalReport, m: MeasuredRehearsal): string[] {
  const rows: string[][] = [['  figure', 'predicted', 'measured']];
  const row = (name: string, a: string, b: string): void => void rows.push([`  ${name}`, a, b]);
  row('messages', n(p.messages), n(m.messages));
  row('acked', n(p.outcomes.acked), n(m.outcomes.acked));
  row('parked', n(p.outcomes.parked), n(m.outcomes.parked));
  row('dropped', n(p.outcomes.dropped), n(m.outcomes.dropped));
  row('expired', n(p.outcomes.expired), n(m.outcomes.expired));
  row('in flight', n(p.outcomes.inFlight), n(m.outcomes.inFlight));
  row('deliveries', n(p.deliveries), n(m.deliveries));
  row('amplification', String(p.amplification), String(m.amplification));
  row('delay p50', ms(p.delayMs?.p50), ms(m.delayMs?.p50));
  row('delay p95', ms(p.delayMs?.p95), ms(m.delayMs?.p95));
  row('delay max', ms(p.delayMs?.max), ms(m.delayMs?.max));
  row('drain', ms(p.drainMs), ms(m.drainMs));
  for (const q of p.queues) {
    const mq = m.queues.find((x) => x.name === q.name);
    row(`peak depth ${q.name}`, n(q.peakDepth), mq ? n(mq.peakDepth) : '-');
  }
  return [
    `Measured on ${m.url}${m.brokerVersion ? ` (RabbitMQ ${m.brokerVersion})` : ''} in ${formatMs(m.wallMs)}`,
    ...table(rows),
  ];
}
