/**
 * A rehearsal's conclusion in plain words, before any figure: what peaks (messages, RAM, disk,
 * when), what the node goes through (its peak, an alarm and what it did to publishers), what is
 * lost and why, when it is back to normal, and what to change. One function for the CLI's text
 * and the browser's Rehearse tab, so both say the same.
 */
import { formatBinaryBytes } from '../text/formatBinaryBytes.js';
import { formatMs } from '../text/formatDuration.js';
import type { QueueRehearsal, RehearsalReport } from './report.js';
import { formatCount } from '../text/formatCount.js';

export type VerdictKind = 'peak' | 'node' | 'alarm' | 'loop' | 'capacity' | 'loss' | 'back' | 'change';

export interface VerdictLine {
  readonly kind: VerdictKind;
  /** bad news (a loss, an alarm, a loop, a shortfall, never back) */
  readonly bad: boolean;
  readonly text: string;
}

const n = (x: number): string => formatCount(Math.round(x));
const pct = (x: number, of: number): string => (of > 0 ? `${+((100 * x) / of).toFixed(1)}%` : '0%');
const at = (ms: number): string => formatMs(Math.round(ms));

function queueBill(q: QueueRehearsal): string {
  return `${formatBinaryBytes(q.peakMemoryBytes)} RAM, ${formatBinaryBytes(q.peakDiskBytes)} disk`;
}

function peaks(r: RehearsalReport, parkedIn: ReadonlySet<string>): VerdictLine[] {
  const byPeak = [...r.queues].sort((a, b) => b.peakDepth + b.peakHeld - (a.peakDepth + a.peakHeld));
  const retry = byPeak.find((q) => !parkedIn.has(q.name) && q.peakDepth + q.peakHeld > 0);
  const out: VerdictLine[] = [];
  if (retry) {
    const held =
      retry.peakHeld > 0 ? ` and holds ${n(retry.peakHeld)} for a delayed retry (not counted by the broker)` : '';
    out.push({
      kind: 'peak',
      bad: false,
      text: `${retry.name} peaks at ${n(retry.peakDepth)} messages${held} (${queueBill(retry)}) at ${at(retry.peakAtMs)}.`,
    });
  }
  for (const h of r.held)
    out.push({
      kind: 'peak',
      bad: false,
      text: `The delayed-message exchange ${h.exchange} holds up to ${n(h.peakHeld)} messages at ${at(h.peakAtMs)} (${formatBinaryBytes(h.peakMemoryBytes)} RAM, ${formatBinaryBytes(h.peakDiskBytes)} disk), counted in no queue.`,
    });
  if (!retry && r.held.length === 0)
    out.push({ kind: 'peak', bad: false, text: 'No retry queue holds anything: every message goes through at once.' });
  return out;
}

function node(r: RehearsalReport): VerdictLine[] {
  const nd = r.node;
  const out: VerdictLine[] = [
    {
      kind: 'node',
      bad: false,
      text: `The node peaks at ${formatBinaryBytes(nd.peakMemoryBytes)} RAM (${pct(nd.peakMemoryBytes, nd.memoryLimitBytes)} of its ${formatBinaryBytes(nd.memoryLimitBytes)} watermark on ${formatBinaryBytes(nd.brokerMemoryBytes)}) and ${formatBinaryBytes(nd.peakDiskBytes)} disk, by RabbitMQ ${r.calibration.brokerVersion}'s measured figures.`,
    },
  ];
  for (const a of nd.alarms) {
    const span = a.untilMs === null ? 'until the end of the rehearsal' : `for ${at(a.untilMs - a.fromMs)}`;
    out.push({
      kind: 'alarm',
      bad: true,
      text:
        `At ${at(a.fromMs)} the node reaches its ${a.kind === 'memory' ? 'memory watermark' : 'free-disk limit'} (${formatBinaryBytes(a.limitBytes)}): every publisher is blocked ${span}` +
        (a.messagesWaited > 0
          ? `; ${n(a.messagesWaited)} messages wait to be published, up to ${at(a.longestWaitMs)}.`
          : '.'),
    });
  }
  return out;
}

function losses(r: RehearsalReport): VerdictLine[] {
  const o = r.outcomes;
  const base = r.copies;
  const out: VerdictLine[] = [];
  const fanOut =
    r.copies !== r.messages ? ` (of ${n(r.copies)} copies: fan-out routes a message to several queues)` : '';
  if (o.parked > 0) {
    const parked = Object.entries(o.parkedIn);
    const expires = (q: string): string => {
      const ttl = o.parkedExpiresAfterMs?.[q];
      return ttl !== undefined ? ` (parked, expires after ${formatMs(ttl)})` : '';
    };
    const where =
      parked.length === 1
        ? `${parked[0]![0]}${expires(parked[0]![0])}`
        : parked.map(([q, c]) => `${q} ${n(c)}${expires(q)}`).join(', ');
    const f = r.failingAttempts;
    const longest = Math.max(0, ...r.consumerOutages.map((x) => x.endMs - x.startMs));
    const reasons: string[] = [];
    if (f && longest > 0)
      reasons.push(
        f.spanMs === null
          ? `retries that never end still park what the outage catches`
          : `${f.attempts} attempt${f.attempts === 1 ? '' : 's'} over ${formatMs(f.spanMs)} cover less than the ${formatMs(longest)} outage`,
      );
    if (r.poisoned) reasons.push(`about ${n(r.poisoned)} are poison and always fail`);
    out.push({
      kind: 'loss',
      bad: true,
      text: `${n(o.parked)} (${pct(o.parked, base)}) end parked${fanOut} in ${where}${reasons.length > 0 ? ` because ${reasons.join(', and ')}` : ''}.`,
    });
  }
  if (o.dropped > 0)
    out.push({
      kind: 'loss',
      bad: true,
      text: `${n(o.dropped)} (${pct(o.dropped, base)}) are dropped by the broker (no route, no dead-letter exchange, overflow or a dead-letter cycle).`,
    });
  if (o.expired > 0)
    out.push({
      kind: 'loss',
      bad: true,
      text: `${n(o.expired)} (${pct(o.expired, base)}) expire where no dead-letter exchange takes them.`,
    });
  if (out.length === 0)
    out.push({
      kind: 'loss',
      bad: false,
      text: `Nothing is lost: ${n(o.acked)} of ${n(base)} are acked${o.inFlight > 0 ? `, ${n(o.inFlight)} still on their way at the end` : ''}.`,
    });
  return out;
}

function back(r: RehearsalReport): VerdictLine[] {
  if (r.consumerOutages.length === 0) return [];
  if (r.drainMs === null)
    return [
      {
        kind: 'back',
        bad: true,
        text: `Not back to normal by the end (${at(r.endMs)}): ${n(r.outcomes.inFlight)} messages are still retrying or held.`,
      },
    ];
  return [
    {
      kind: 'back',
      bad: false,
      text: `Back to normal ${formatMs(Math.round(r.drainMs))} after the last outage ends: the retry queues and held messages are within the band of the same load without the outage.`,
    },
  ];
}

function changes(r: RehearsalReport, lines: readonly VerdictLine[]): VerdictLine[] {
  const out: string[] = [];
  if (r.loops.length > 0)
    out.push(
      'give the failing consumer a delay before it requeues (a wait queue, or 4.3 delayed retry) or a delivery limit that counts its requeues (basic.reject)',
    );
  if (r.node.alarms.some((a) => a.kind === 'memory'))
    out.push(
      `give the node more RAM than ${formatBinaryBytes(r.node.brokerMemoryBytes)} (--broker-memory), or keep bodies off RAM (quorum queues, or classic v2 from 3.13)`,
    );
  if (r.node.alarms.some((a) => a.kind === 'disk'))
    out.push(`free more disk than ${formatBinaryBytes(r.node.diskFreeBytes)} (--disk-free) or park fewer messages`);
  if (r.capacity.length > 0)
    out.push(
      'spread the work over more queues, or lower the rate: a queue is asked for more than its measured ceiling',
    );
  if (r.outcomes.parked > 0 && r.consumerOutages.length > 0)
    out.push(
      'make the retries span the outage (more attempts or longer waits; `tune --outage-length` finds the cheapest)',
    );
  if (out.length === 0 && lines.every((l) => !l.bad))
    return [{ kind: 'change', bad: false, text: 'Nothing to change for this load.' }];
  return out.length > 0 ? [{ kind: 'change', bad: false, text: `To change: ${out.join('; ')}.` }] : [];
}

export function rehearsalVerdict(r: RehearsalReport): VerdictLine[] {
  const parkedIn = new Set(Object.keys(r.outcomes.parkedIn));
  for (const q of r.queues) if (q.peakDepth > 0 && r.outcomes.parkedIn[q.name] !== undefined) parkedIn.add(q.name);
  const lines: VerdictLine[] = [...peaks(r, parkedIn), ...node(r)];
  for (const l of r.loops)
    lines.push({
      kind: 'loop',
      bad: true,
      text: `${l.queue} runs a hot loop: messages are redelivered at ${n(l.deliveriesPerSecond)}/s, the broker's measured rate, for ${formatMs(l.forMs)}.`,
    });
  for (const c of r.capacity)
    lines.push({
      kind: 'capacity',
      bad: true,
      text:
        c.operation === 'publish'
          ? `The load publishes ${n(c.peakPerSec)}/s, above the measured ${n(c.ceilingPerSec)}/s a publisher reaches: publishes wait up to ${formatMs(c.waitedMs ?? 0)}.`
          : `${c.queue} is asked for ${n(c.peakPerSec)} ${c.operation === 'deliver' ? 'deliveries' : 'dead-letterings'}/s, above its measured ${n(c.ceilingPerSec)}/s${c.waitedMs !== undefined ? `: deliveries wait up to ${formatMs(c.waitedMs)} for their turn` : ''}.`,
    });
  lines.push(...losses(r), ...back(r));
  return [...lines, ...changes(r, lines)];
}
