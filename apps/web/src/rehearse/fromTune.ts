/**
 * The tuner's failure profile as the Rehearse form's fields ("Compare" on a recommendation): the
 * same rate, duration, processing, errors and poison, and the longest outage (the one the
 * recommendation's figures are under) on every worker of the open design.
 */
import type { Design } from '@retry-studio/topology-core/model';
import type { FailureProfile } from '@retry-studio/topology-core/tune';
import type { RehearseFields } from './rehearseFields';

/** in the largest unit that says it exactly: 600000 ms is `10m` */
function dur(ms: number): string {
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const)
    if (ms > 0 && ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}

const pct = (share: number) => `${+(share * 100).toPrecision(6)}%`;

export function fieldsFromProfile(p: FailureProfile, design: Design): RehearseFields {
  const longest = Math.max(0, ...p.outageLengthsMs);
  const workers = design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
  return {
    rate: String(p.rate),
    duration: dur(p.durationMs),
    consumerOutages: longest > 0 ? workers.map((w) => `${w}@${dur(p.outageStartMs)}+${dur(longest)}`).join('\n') : '',
    errorRate: pct(p.errorRate),
    poison: pct(p.poison),
    processingMs: String(p.processingMs),
    concurrency: p.concurrency === undefined ? '' : String(p.concurrency),
    bodyBytes: String(p.bodyBytes),
    brokerMemory: p.brokerMemoryBytes !== undefined ? `${p.brokerMemoryBytes}B` : '4GiB',
    diskFree: p.diskFreeBytes !== undefined ? `${p.diskFreeBytes}B` : '10GiB',
  };
}
