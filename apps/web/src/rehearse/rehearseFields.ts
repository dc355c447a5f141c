/**
 * The Rehearse tab's form: what a person types (`10m`, `500/s`, `2%`, `worker@2m+5m`) read into
 * the core's RehearsalLoad, with every problem said under the field that gave it. The words
 * are the CLI's (`retry-studio rehearse --rate --duration --outage ...`), and the core's own
 * checks (checkLoad) run before anything is rehearsed, so bad input never reaches the worker.
 */
import type { Design } from '@retry-studio/topology-core/model';
import {
  checkLoad,
  withTargetWorkers,
  type RehearsalLoad,
  type TargetLoad,
} from '@retry-studio/topology-core/rehearse';
import { readBytes, readDuration, readOutage, readRate, readShare } from '@retry-studio/topology-core/text';

export interface RehearseFields {
  rate: string;
  duration: string;
  /** TARGET@START+LENGTH, one a line (or separated by commas) */
  consumerOutages: string;
  errorRate: string;
  poison: string;
  processingMs: string;
  /** empty: unbounded */
  concurrency: string;
  bodyBytes: string;
  /** the broker node's RAM (its memory watermark is the version's share of it), like 4GiB */
  brokerMemory: string;
  /** the node's free disk, like 10GiB */
  diskFree: string;
}

export type FieldKey = keyof RehearseFields;
export type FieldErrors = Partial<Record<FieldKey, string>>;
export type ReadFields =
  { readonly ok: true; readonly load: RehearsalLoad } | { readonly ok: false; readonly errors: FieldErrors };

/** a first rehearsal that shows something: 10 minutes at 50 msg/s, the first worker down for 2 minutes after one */
export function startFields(design: Design): RehearseFields {
  const worker = design.consumers.find((c) => c.behaviour.kind === 'worker')?.id ?? '';
  return {
    rate: '50',
    duration: '10m',
    consumerOutages: worker ? `${worker}@1m+2m` : '',
    errorRate: '0%',
    poison: '0%',
    processingMs: '0',
    concurrency: '',
    bodyBytes: '1024',
    brokerMemory: '4GiB',
    diskFree: '10GiB',
  };
}

const NUMBER = '(-?[0-9]+(?:\\.[0-9]+)?)';

/** a plain number, with an optional unit word after it */
function plain(text: string, unit = ''): number | undefined {
  const m = new RegExp(`^\\s*${NUMBER}\\s*${unit}\\s*$`).exec(text);
  return m ? Number(m[1]) : undefined;
}

export const outageSpecs = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** the core's field path to the form's field */
function fieldOf(path: string): FieldKey | undefined {
  if (path.startsWith('targets')) return 'consumerOutages';
  const top = path.split(/[.[]/)[0];
  const map: Record<string, FieldKey> = {
    rate: 'rate',
    phases: 'rate',
    durationMs: 'duration',
    errorRate: 'errorRate',
    poison: 'poison',
    processingMs: 'processingMs',
    concurrency: 'concurrency',
    bodyBytes: 'bodyBytes',
    brokerMemoryBytes: 'brokerMemory',
    diskFreeBytes: 'diskFree',
  };
  return top === undefined ? undefined : map[top];
}

/** the form read against the design it rehearses: a load, or the fields that are wrong and why */
export function readFields(f: RehearseFields, design: Design): ReadFields {
  const errors: FieldErrors = {};
  const rate = readRate(f.rate);
  if (rate === undefined) errors.rate = `"${f.rate}" is not a rate (like 500 or 500/s)`;
  const durationMs = readDuration(f.duration);
  if (durationMs === undefined) errors.duration = `"${f.duration}" is not a duration (like 90s, 10m, 1h)`;
  const errorRate = readShare(f.errorRate);
  if (errorRate === undefined) errors.errorRate = `"${f.errorRate}" is not a percentage (like 2%)`;
  const poison = readShare(f.poison);
  if (poison === undefined) errors.poison = `"${f.poison}" is not a percentage (like 0.1%)`;
  const processingMs = plain(f.processingMs, '(?:ms)?');
  if (processingMs === undefined) errors.processingMs = `"${f.processingMs}" is not a time in ms`;
  const concurrency = f.concurrency.trim() === '' ? undefined : plain(f.concurrency);
  if (f.concurrency.trim() !== '' && concurrency === undefined)
    errors.concurrency = `"${f.concurrency}" is not a number (empty: unbounded)`;
  const bodyBytes = plain(f.bodyBytes, '(?:B)?');
  if (bodyBytes === undefined) errors.bodyBytes = `"${f.bodyBytes}" is not a size in bytes`;
  const brokerMemoryBytes = readBytes(f.brokerMemory);
  if (brokerMemoryBytes === undefined) errors.brokerMemory = `"${f.brokerMemory}" is not a size (like 4GiB)`;
  const diskFreeBytes = readBytes(f.diskFree);
  if (diskFreeBytes === undefined) errors.diskFree = `"${f.diskFree}" is not a size (like 10GiB)`;
  const targets: TargetLoad[] = [];
  for (const spec of outageSpecs(f.consumerOutages)) {
    const o = readOutage(spec);
    if (!o) errors.consumerOutages ??= `"${spec}" must be TARGET@START+LENGTH (like worker@5m+10m)`;
    else if (o.lengthMs <= 0) errors.consumerOutages ??= `${spec}: the length must be above 0`;
    else
      targets.push({
        target: o.target.trim(),
        consumerOutages: [{ startMs: o.startMs, endMs: o.startMs + o.lengthMs }],
      });
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const load: RehearsalLoad = {
    rate: rate as number,
    durationMs: durationMs as number,
    errorRate: errorRate as number,
    poison: poison as number,
    processingMs: processingMs as number,
    bodyBytes: bodyBytes as number,
    brokerMemoryBytes: brokerMemoryBytes as number,
    diskFreeBytes: diskFreeBytes as number,
    ...(concurrency !== undefined ? { concurrency } : {}),
    targets,
  };
  // the core's own checks (rate above 0, outage inside the duration, a known target, a share up to 100%),
  // with a worker on a queue target nobody consumes, as the CLI does
  for (const issue of checkLoad(withTargetWorkers(design, load).design, load)) {
    const key = fieldOf(issue.path) ?? 'rate';
    const spec = issue.path.startsWith('targets')
      ? `${outageSpecs(f.consumerOutages)[Number(/\d+/.exec(issue.path)?.[0] ?? 0)] ?? ''}: `
      : '';
    errors[key] ??= `${spec}${issue.message}`;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, load };
}

/**
 * The same load for another design (a template compared with the open design), by the CLI's
 * rules: a target that design has (a consumer, or a queue: a queue nobody consumes gets a worker)
 * is kept; one it does not have stops that design's worker consumers instead, and says so.
 */
export function loadForDesign(
  load: RehearsalLoad,
  design: Design,
  label: string,
): { readonly load: RehearsalLoad; readonly design: Design; readonly notes: readonly string[] } {
  const queues = new Set(design.topology.queues.map((q) => q.name));
  const known = new Set([...design.consumers.map((c) => c.id), ...design.consumers.map((c) => c.queue), ...queues]);
  const workers = design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
  const notes: string[] = [];
  const targets = (load.targets ?? []).flatMap((t) => {
    if (known.has(t.target)) return [t];
    notes.push(
      `${label} has no "${t.target}": its worker${workers.length === 1 ? '' : 's'} ${workers.join(', ')} stop${workers.length === 1 ? 's' : ''} instead`,
    );
    return workers.map((w) => ({ ...t, target: w }));
  });
  const mapped = { ...load, targets };
  const withWorkers = withTargetWorkers(design, mapped);
  return {
    load: mapped,
    design: withWorkers.design,
    notes: [...notes, ...withWorkers.notes.map((n) => `${label}: ${n}`)],
  };
}
