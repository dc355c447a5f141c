/** The retry bill of materials as text: what `rehearse` prints without --json (with --verify-on, predicted next to measured). */
import { formatMs } from '@retry-studio/topology-core/budget';
import { formatBinaryBytes, formatCount } from '@retry-studio/topology-core/text';
import {
  rehearsalVerdict,
  type MeasuredRehearsal,
  type RehearsalReport,
  type RunsSummary,
} from '@retry-studio/topology-core/rehearse';

const n = (x: number): string => formatCount(Math.round(x));
const pct = (x: number, of: number): string => (of > 0 ? `${+((100 * x) / of).toFixed(1)}%` : '-');

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

function header(label: string, r: RehearsalReport): string[] {
  const out: string[] = [];
  const rate = r.messages / Math.max(1, r.durationMs / 1000);
  out.push(
    `Rehearsal of ${label}: ${n(r.messages)} messages over ${formatMs(r.durationMs)} (about ${n(rate)}/s), ${formatBinaryBytes(r.bodyBytes)} bodies, RabbitMQ ${r.profile} rules`,
  );
  for (const o of r.consumerOutages)
    out.push(
      `  consumer outage: ${o.target}${o.consumers.length > 1 || o.consumers[0] !== o.target ? ` (${o.consumers.join(', ')})` : ''} from ${formatMs(o.startMs)} to ${formatMs(o.endMs)}`,
    );
  out.push(
    r.mode.kind === 'cohorts'
      ? `  simulated as ${n(r.mode.simulated)} cohorts (${r.mode.bucketMs} ms buckets) in ${formatMs(r.wallMs)}: ${r.mode.bound}`
      : `  simulated message by message in ${formatMs(r.wallMs)}`,
  );
  const c = r.calibration;
  out.push(
    `  broker figures: RabbitMQ ${c.brokerVersion}, measured ${c.measuredAt.slice(0, 10)} (${c.source === 'shipped' ? 'the shipped calibration' : '--calibration'}; ${c.machine})`,
  );
  if (r.truncated) out.push(`  stopped at ${formatMs(r.endMs)} with work left (in flight below)`);
  for (const note of r.notes) out.push(`  note: ${note}`);
  return out;
}

function outcomes(r: RehearsalReport): string[] {
  const o = r.outcomes;
  const of = r.copies;
  const parkedIn = Object.entries(o.parkedIn)
    .map(
      ([q, c]) =>
        `${q} ${n(c)}${o.parkedExpiresAfterMs?.[q] !== undefined ? ` (parked, expires after ${formatMs(o.parkedExpiresAfterMs[q]!)})` : ''}`,
    )
    .join(', ');
  return [
    r.copies === r.messages
      ? 'Outcomes'
      : `Outcomes, of ${n(r.copies)} copies (a fan-out routes a message to several queues: ${n(r.messages)} messages)`,
    ...table([
      ['  acked', n(o.acked), pct(o.acked, of)],
      ['  parked', n(o.parked), pct(o.parked, of), parkedIn],
      ['  dropped', n(o.dropped), pct(o.dropped, of)],
      ['  expired', n(o.expired), pct(o.expired, of)],
      ['  in flight at the end', n(o.inFlight), pct(o.inFlight, of)],
    ]),
    `Deliveries: ${n(r.deliveries)} (${r.amplification} per message)`,
    r.delayMs
      ? `Delay, publish to ack: p50 ${ms(r.delayMs.p50)}, p95 ${ms(r.delayMs.p95)}, p99 ${ms(r.delayMs.p99)}, max ${ms(r.delayMs.max)}`
      : 'Delay, publish to ack: nothing acked',
    ...(r.consumerOutages.length > 0
      ? [
          `Drain: ${r.drainMs === null ? 'never: the retry queues and held messages did not come back within the band of the same load without the outage' : `${ms(r.drainMs)} after the last outage ended, the retry queues and held messages were back within the band of the same load without the outage`}`,
        ]
      : []),
  ];
}

function queues(r: RehearsalReport): string[] {
  const out = [
    'Queues (RAM and disk at the peak; depth as the broker counts it, held: waiting out a delayed retry, not counted)',
    ...table([
      ['  queue', 'storage', 'peak depth', 'held', 'at', 'RAM', 'disk'],
      ...r.queues.map((q) => [
        `  ${q.name}`,
        q.storage,
        n(q.peakDepth),
        n(q.peakHeld),
        formatMs(q.peakAtMs),
        formatBinaryBytes(q.peakMemoryBytes),
        formatBinaryBytes(q.peakDiskBytes),
      ]),
    ]),
  ];
  // one line per cost: the queues that share it named
  const byCost = new Map<string, string[]>();
  for (const q of r.queues) {
    const k = `${q.storage}: ${formatBinaryBytes(q.perMessage.ramBytes)} RAM, ${formatBinaryBytes(q.perMessage.diskBytes)} disk per message (${q.perMessage.basis})`;
    byCost.set(k, [...(byCost.get(k) ?? []), q.name]);
  }
  for (const [k, names] of byCost) out.push(`  ${names.join(', ')}, ${k}`);
  if (r.held.length > 0)
    out.push(
      '',
      'Held in exchanges (delayed-message exchange: counted in no queue)',
      ...table([
        ['  exchange', 'peak held', 'at', 'RAM', 'disk'],
        ...r.held.map((h) => [
          `  ${h.exchange}`,
          n(h.peakHeld),
          formatMs(h.peakAtMs),
          formatBinaryBytes(h.peakMemoryBytes),
          formatBinaryBytes(h.peakDiskBytes),
        ]),
      ]),
    );
  return out;
}

function nodeLines(r: RehearsalReport): string[] {
  const nd = r.node;
  const out = [
    'Node',
    `  RAM: peak ${formatBinaryBytes(nd.peakMemoryBytes)} at ${formatMs(nd.peakMemoryAtMs)} (idle ${formatBinaryBytes(nd.idleMemoryBytes)}${nd.walMemoryBytes > 0 ? `, quorum write-ahead log ${formatBinaryBytes(nd.walMemoryBytes)}` : ''}${nd.uncollectedMemoryBytes > 0 ? `, not yet collected under the flow ${formatBinaryBytes(nd.uncollectedMemoryBytes)}` : ''}); memory watermark ${formatBinaryBytes(nd.memoryLimitBytes)} (${nd.watermark} of ${formatBinaryBytes(nd.brokerMemoryBytes)}, --broker-memory)`,
    `  disk: peak ${formatBinaryBytes(nd.peakDiskBytes)} at ${formatMs(nd.peakDiskAtMs)} of ${formatBinaryBytes(nd.diskFreeBytes)} free (--disk-free; the alarm at ${formatBinaryBytes(nd.diskFreeLimitBytes)} left)`,
  ];
  for (const a of nd.alarms)
    out.push(
      `  ${a.kind} alarm from ${formatMs(a.fromMs)} ${a.untilMs === null ? 'to the end' : `to ${formatMs(a.untilMs)}`}: publishers blocked; ${n(a.messagesWaited)} messages waited, up to ${formatMs(a.longestWaitMs)}`,
    );
  if (nd.alarms.length === 0) out.push('  alarms: none');
  for (const l of r.loops)
    out.push(
      `Hot loop: ${l.queue} redelivers ${n(l.deliveriesPerSecond)}/s (the measured requeue ceiling) for ${formatMs(l.forMs)}`,
    );
  for (const c of r.capacity)
    out.push(
      `Capacity: ${c.queue} ${c.operation} ${n(c.peakPerSec)}/s, ceiling ${n(c.ceilingPerSec)}/s${c.waitedMs !== undefined ? ` (waited up to ${formatMs(c.waitedMs)})` : ''}`,
    );
  return out;
}

function runLines(runs: RunsSummary): string[] {
  const rows: string[][] = [['  figure', 'p5', 'p50', 'p95']];
  for (const [name, s] of Object.entries(runs.figures)) {
    const fmt = (x: number): string =>
      /Bytes$/.test(name) ? formatBinaryBytes(x) : /Ms$|delayMs/.test(name) ? ms(x) : String(+x.toFixed(3));
    rows.push([`  ${name}`, fmt(s.p5), fmt(s.p50), `${fmt(s.p95)}${s.never ? ` (never in ${s.never} runs)` : ''}`]);
  }
  return [`Over ${runs.count} seeds (${runs.seeds.join(', ')})`, ...table(rows)];
}

export function formatRehearsal(label: string, r: RehearsalReport): string {
  const out: string[] = [...header(label, r), '', 'Verdict'];
  for (const v of rehearsalVerdict(r)) out.push(`  ${v.text}`);
  out.push('', ...outcomes(r), '', ...queues(r), '', ...nodeLines(r), '');
  const b = r.brokerOps;
  out.push(
    `Broker work, peak per second: ${n(b.publishesPerSec)} publishes, ${n(b.deadLettersPerSec)} dead-letterings, ${n(b.deliveriesPerSec)} deliveries`,
  );
  out.push(
    `Retry storm: ${n(b.retriesPerSec)} retries/s back at the failing consumer${b.retriesPerSec > 0 ? ` (the second from ${formatMs(b.retriesPeakAtMs)})` : ''}`,
  );
  if (r.runs) out.push('', ...runLines(r.runs));
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
  if (m.node) {
    const above = formatBinaryBytes(p.node.peakMemoryBytes - p.node.idleMemoryBytes);
    row('node RAM of messages, peak', above, formatBinaryBytes(m.node.peakMessageMemoryBytes));
    row('node RSS above the start, peak', above, formatBinaryBytes(m.node.peakMemoryBytes));
    row('node disk, peak', formatBinaryBytes(p.node.peakDiskBytes), formatBinaryBytes(m.node.peakDiskBytes));
    row('alarms', p.node.alarms.map((a) => a.kind).join(', ') || 'none', m.node.alarms.join(', ') || 'none');
  }
  for (const q of p.queues) {
    const mq = m.queues.find((x) => x.name === q.name);
    if (mq?.peakMemoryBytes !== undefined)
      row(`RAM ${q.name} (queue process)`, formatBinaryBytes(q.peakMemoryBytes), formatBinaryBytes(mq.peakMemoryBytes));
  }
  return [
    `Measured on ${m.url}${m.brokerVersion ? ` (RabbitMQ ${m.brokerVersion})` : ''} in ${formatMs(m.wallMs)}${m.node ? ` (node read ${n(m.node.samples)} times, at least twice a second: the memory categories that hold messages and the RSS, each above the start, beside the predicted RAM above the idle node; a queue process holds its index, not a classic queue's bodies)` : ''}`,
    ...table(rows),
  ];
}
