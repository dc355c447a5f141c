/**
 * The words people type for a load, read once for the CLI (`--duration 10m`, `--rate 500/s`,
 * `--poison 2%`, `--outage worker@5m+10m`) and the browser's Rehearse form: durations `90s`,
 * `10m`, `1h`, `500ms` (a bare number is seconds); rates `500` or `500/s`; percentages `2%`
 * (or a share `0.02`). undefined: not that shape (the caller names its field).
 */
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000 };
const NUMBER = '(-?[0-9]+(?:\\.[0-9]+)?)';

export function readDuration(text: string): number | undefined {
  const m = new RegExp(`^\\s*${NUMBER}\\s*(ms|s|min|m|h)?\\s*$`).exec(text);
  return m ? Math.round(Number(m[1]) * (UNITS[m[2] ?? 's'] as number)) : undefined;
}

export function readRate(text: string): number | undefined {
  const m = new RegExp(`^\\s*${NUMBER}\\s*(/s)?\\s*$`).exec(text);
  return m ? Number(m[1]) : undefined;
}

/** `2%` or a share `0.02`, as a share */
export function readShare(text: string): number | undefined {
  const m = new RegExp(`^\\s*${NUMBER}\\s*(%)?\\s*$`).exec(text);
  if (!m) return undefined;
  return m[2] ? Number(m[1]) / 100 : Number(m[1]);
}

/** `TARGET@START+LENGTH` (like `worker@5m+10m`) as a target and its window; undefined: not that shape */
export function readOutage(
  text: string,
): { readonly target: string; readonly startMs: number; readonly lengthMs: number } | undefined {
  const at = text.lastIndexOf('@');
  const plus = text.indexOf('+', at);
  if (at <= 0 || plus < 0) return undefined;
  const startMs = readDuration(text.slice(at + 1, plus));
  const lengthMs = readDuration(text.slice(plus + 1));
  return startMs === undefined || lengthMs === undefined ? undefined : { target: text.slice(0, at), startMs, lengthMs };
}
