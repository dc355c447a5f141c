/** The tuner's answer as text: the best few and why, the Pareto front, or what rules everything out. */
import { formatBinaryBytes } from '../text/formatBinaryBytes.js';
import { formatMs } from '../text/formatDuration.js';
import { paramsText } from './infeasibility.js';
import type { FailureProfile, TuneGoals, TuneMetrics, TuneResult } from './types.js';
import { formatCount } from '../text/formatCount.js';

const mb = formatBinaryBytes;
const n = (x: number): string => formatCount(Math.round(x));

/** one rehearsal's figures on one line, with units */
export function metricsLine(o: TuneMetrics, g: TuneGoals): string {
  return (
    `${formatMs(o.outageLengthMs)} outage: ${n(o.messages)} messages, acked ${n(o.outcomes.acked)}, parked ${n(o.outcomes.parked)}, dropped ${n(o.outcomes.dropped)}; ` +
    `amplification ${o.amplification.toFixed(2)}; delay p50 ${formatMs(Math.round(o.delayMs.p50))} p99 ${formatMs(Math.round(o.delayMs.p99))} max ${formatMs(Math.round(o.delayMs.max))}` +
    `${o.withinDeadline !== undefined && g.deadlineMs !== undefined ? ` (${pct(o.withinDeadline)} within ${formatMs(g.deadlineMs)})` : ''}; ` +
    `peak depth ${n(o.peakDepth)}${o.peakHeld > 0 ? ` (held ${n(o.peakHeld)})` : ''}, RAM ${mb(o.peakMemoryBytes)}, disk ${mb(o.peakDiskBytes)}; ` +
    `${o.drainMs === null ? 'never back to normal' : `back to normal ${formatMs(Math.round(o.drainMs))} after the outage`}`
  );
}
const pct = (x: number): string => `${+(x * 100).toFixed(3)}%`;

export function describeProblem(p: FailureProfile, g: TuneGoals): string {
  const load = `${p.rate} msg/s for ${formatMs(p.durationMs)}, outage${p.outageLengthsMs.length > 1 ? 's' : ''} of ${p.outageLengthsMs.map(formatMs).join(', ')} from ${formatMs(p.outageStartMs)}`;
  const failures = [
    p.errorRate > 0 ? `${pct(p.errorRate)} errors` : '',
    p.poison > 0 ? `${pct(p.poison)} poison` : '',
    p.processingMs > 0 ? `${p.processingMs} ms processing` : '',
    p.concurrency ? `concurrency ${p.concurrency}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const goals = [
    'nothing that can succeed parked or dropped',
    g.deadlineMs !== undefined ? `${pct(g.deadlineShare)} acked within ${formatMs(g.deadlineMs)}` : '',
    g.maxAmplification !== undefined ? `amplification <= ${g.maxAmplification}` : '',
    g.maxMemoryBytes !== undefined ? `memory <= ${mb(g.maxMemoryBytes)}` : '',
    g.maxDepth !== undefined ? `depth <= ${g.maxDepth}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return `Failure profile: ${load}${failures ? `; ${failures}` : ''}; broker ${p.profile}.\nGoals: ${goals}.`;
}

export function formatTune(r: TuneResult, p: FailureProfile, g: TuneGoals): string {
  const lines = [describeProblem(p, g), ''];
  const searched = `${r.stats.candidates} candidates, ${r.stats.pruned} cut before rehearsal, ${r.stats.rehearsals} rehearsals, ${formatMs(r.stats.wallMs)}`;
  if (!r.feasible) {
    lines.push(`No feasible design (${searched}).`);
    for (const b of r.infeasibleBecause ?? [])
      lines.push(
        b.goal === 'capacity' ? `  capacity shortfall: ${b.message}` : `  ruled out by ${b.goal}: ${b.message}`,
      );
    return lines.join('\n');
  }
  lines.push(`Recommended, best first (cost: broker operations, then RAM, then disk, then objects; ${searched}):`);
  r.recommendations.forEach((rec, i) => {
    lines.push(`${i + 1}. ${rec.strategy} ${paramsText(rec.params)}`);
    lines.push(`   why: ${rec.why}`);
    if (rec.caveat) lines.push(`   caveat: ${rec.caveat}`);
    for (const o of rec.byOutage) lines.push(`   ${metricsLine(o, g)}`);
    const rb = rec.robustness;
    if (rb)
      lines.push(
        `   robustness, at twice the outage (${formatMs(rb.outageLengthMs)}): ${rb.misses.length === 0 ? 'still meets every goal' : `misses ${rb.misses.map((m) => m.message.replace(/^[^:]*outage: /, '')).join('; ')}`}`,
        `     ${metricsLine(rb.metrics, g)}`,
      );
  });
  lines.push('', 'Pareto front (p99 delay against amplification and peak RAM, longest outage):');
  for (const pt of r.pareto)
    lines.push(
      `  p99 ${formatMs(Math.round(pt.p99DelayMs)).padEnd(9)} amplification ${pt.amplification.toFixed(2).padEnd(6)} RAM ${mb(pt.peakMemoryBytes).padEnd(10)} ${pt.strategy} ${paramsText(pt.params)}${pt.equivalent ? ` and ${pt.equivalent.length} equivalent` : ''}`,
    );
  return lines.join('\n');
}
