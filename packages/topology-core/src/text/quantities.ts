/**
 * The words people type for a load, read once for the CLI (`--duration 10m`, `--rate 500/s`,
 * `--poison 2%`, `--outage worker@5m+10m`) and the browser's Rehearse form: durations `90s`,
 * `10m`, `1h`, `500ms` (a bare number is seconds); rates `500` or `500/s`; percentages `2%`
 * (or a share `0.02`); sizes `8GiB`. undefined: not that shape (the caller names its field).
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

const BYTE_UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};

/** sizes: `512`, `4kB`, `1MB`, `8GiB` (kB = 1000, KiB = 1024); a negative size is not one */
export function readBytes(text: string): number | undefined {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([kmgt]i?b|b)?\s*$/i.exec(text);
  return m ? Math.round(Number(m[1]) * (BYTE_UNITS[(m[2] ?? 'b').toLowerCase()] as number)) : undefined;
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
