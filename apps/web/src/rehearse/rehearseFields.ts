/**
 * The Rehearse tab's form: what a person types (`10m`, `500/s`, `2%`, `worker@2m+5m`) read into
 * the core's RehearsalLoad, with every problem said under the field that gave it. The words
 * are the CLI's (`retry-studio rehearse --rate --duration --outage ...`), and the core's own
 * checks (checkLoad) run before anything is rehearsed, so bad input never reaches the worker.
 */
import type { Design } from '@retry-studio/topology-core/model';
import { checkLoad, type RehearsalLoad, type TargetLoad } from '@retry-studio/topology-core/rehearse';

export interface RehearseFields {
  rate: string;
  duration: string;
  /** TARGET@START+LENGTH, one a line (or separated by commas) */
  outages: string;
  errorRate: string;
  poison: string;
  processingMs: string;
  /** empty: unbounded */
  concurrency: string;
  bodyBytes: string;
}

export type FieldKey = keyof RehearseFields;
export type FieldErrors = Partial<Record<FieldKey, string>>;
export type ReadFields = { readonly ok: true; readonly load: RehearsalLoad } | { readonly ok: false; readonly errors: FieldErrors };

/** a first rehearsal that shows something: 10 minutes at 50 msg/s, the first worker down for 2 minutes after one */
export function startFields(design: Design): RehearseFields {
  const worker = design.consumers.find((c) => c.behaviour.kind === 'worker')?.id ?? '';
  return { rate: '50', duration: '10m', outages: worker ? `${worker}@1m+2m` : '', errorRate: '0%', poison: '0%', processingMs: '0', concurrency: '', bodyBytes: '1024' };
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };
const NUMBER = '(-?[0-9]+(?:\\.[0-9]+)?)';

function duration(text: string): number | undefined {
  const m = new RegExp(`^\\s*${NUMBER}\\s*(ms|s|min|m|h)?\\s*$`).exec(text);
  return m ? Math.round(Number(m[1]) * (UNITS[m[2] ?? 's'] as number)) : undefined;
}

function share(text: string): number | undefined {
  const m = new RegExp(`^\\s*${NUMBER}\\s*(%)?\\s*$`).exec(text);
  if (!m) return undefined;
  return m[2] ? Number(m[1]) / 100 : Number(m[1]);
}

function plain(text: string, unit = ''): number | undefined {
  const m = new RegExp(`^\\s*${NUMBER}\\s*${unit}\\s*$`).exec(text);
  return m ? Number(m[1]) : undefined;
}

/** `worker@5m+10m` into a target with one outage window (undefined: not that shape) */
export function readOutage(text: string): TargetLoad | undefined {
  const at = text.lastIndexOf('@');
  const plus = text.indexOf('+', at);
  if (at <= 0 || plus < 0) return undefined;
  const start = duration(text.slice(at + 1, plus));
  const length = duration(text.slice(plus + 1));
  if (start === undefined || length === undefined) return undefined;
  return { target: text.slice(0, at).trim(), outages: [{ startMs: start, endMs: start + length }] };
}

export const outageSpecs = (text: string): string[] =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** the core's field path to the form's field */
function fieldOf(path: string): FieldKey | undefined {
  if (path.startsWith('targets')) return 'outages';
  const top = path.split(/[.[]/)[0];
  const map: Record<string, FieldKey> = { rate: 'rate', phases: 'rate', durationMs: 'duration', errorRate: 'errorRate', poison: 'poison', processingMs: 'processingMs', concurrency: 'concurrency', bodyBytes: 'bodyBytes' };
  return top === undefined ? undefined : map[top];
}

/** the form read against the design it rehearses: a load, or the fields that are wrong and why */
export function readFields(f: RehearseFields, design: Design): ReadFields {
  const errors: FieldErrors = {};
  const rate = plain(f.rate, '(?:/s)?');
  if (rate === undefined) errors.rate = `"${f.rate}" is not a rate (like 500 or 500/s)`;
  const durationMs = duration(f.duration);
  if (durationMs === undefined) errors.duration = `"${f.duration}" is not a duration (like 90s, 10m, 1h)`;
  const errorRate = share(f.errorRate);
  if (errorRate === undefined) errors.errorRate = `"${f.errorRate}" is not a percentage (like 2%)`;
  const poison = share(f.poison);
  if (poison === undefined) errors.poison = `"${f.poison}" is not a percentage (like 0.1%)`;
  const processingMs = plain(f.processingMs, '(?:ms)?');
  if (processingMs === undefined) errors.processingMs = `"${f.processingMs}" is not a time in ms`;
  const concurrency = f.concurrency.trim() === '' ? undefined : plain(f.concurrency);
  if (f.concurrency.trim() !== '' && concurrency === undefined) errors.concurrency = `"${f.concurrency}" is not a number (empty: unbounded)`;
  const bodyBytes = plain(f.bodyBytes, '(?:B)?');
  if (bodyBytes === undefined) errors.bodyBytes = `"${f.bodyBytes}" is not a size in bytes`;
  const targets: TargetLoad[] = [];
  for (const spec of outageSpecs(f.outages)) {
    const t = readOutage(spec);
    if (!t) errors.outages ??= `"${spec}" must be TARGET@START+LENGTH (like worker@5m+10m)`;
    else if ((t.outages?.[0]?.endMs ?? 0) <= (t.outages?.[0]?.startMs ?? 0)) errors.outages ??= `${spec}: the length must be above 0`;
    else targets.push(t);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const load: RehearsalLoad = {
    rate: rate as number,
    durationMs: durationMs as number,
    errorRate: errorRate as number,
    poison: poison as number,
    processingMs: processingMs as number,
    bodyBytes: bodyBytes as number,
    ...(concurrency !== undefined ? { concurrency } : {}),
    targets,
  };
  // the core's own checks (rate above 0, outage inside the duration, a known target, a share up to 100%)
  for (const issue of checkLoad(design, load)) {
    const key = fieldOf(issue.path) ?? 'rate';
    const spec = issue.path.startsWith('targets') ? `${outageSpecs(f.outages)[Number(/\d+/.exec(issue.path)?.[0] ?? 0)] ?? ''}: ` : '';
    errors[key] ??= `${spec}${issue.message}`;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, load };
}

/**
 * The same load for another design (a template compared with the open design): an outage whose
 * target that design does not have stops its worker consumers instead, so every strategy meets
 * the same failure.
 */
export function loadForDesign(load: RehearsalLoad, design: Design): RehearsalLoad {
  const known = new Set([...design.consumers.map((c) => c.id), ...design.consumers.map((c) => c.queue)]);
  const workers = design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
  const targets = (load.targets ?? []).flatMap((t) => (known.has(t.target) ? [t] : workers.map((w) => ({ ...t, target: w }))));
  return { ...load, targets };
}
