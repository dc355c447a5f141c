/**
 * The quantities a load is written in (the CLI's options and the browser's form read them the
 * same way): durations `90s`, `10m`, `1h`, `250ms` (a bare number is ms); rates `500` or `500/s`
 * (`/m`, `/h`); percentages `2%` (a bare `2` is 2% too); sizes `512`, `4kB`, `1MB`, `2GiB`. Each returns a number or a message saying what is wrong.
 */
export type Parsed = { readonly ok: true; readonly value: number } | { readonly ok: false; readonly message: string };

const ok = (value: number): Parsed => ({ ok: true, value });
const bad = (message: string): Parsed => ({ ok: false, message });

const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `10m`, `1h30m`, `250ms`, `1.5h`; a bare number is milliseconds. */
export function parseDuration(raw: string): Parsed {
  const s = raw.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(s)) return ok(Number(s));
  const parts = [...s.matchAll(/([0-9]+(?:\.[0-9]+)?)(ms|min|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== s) return bad(`not a duration: ${JSON.stringify(raw)} (write e.g. 90s, 10m, 1h, 250ms)`);
  return ok(Math.round(parts.reduce((t, p) => t + Number(p[1]) * DURATION_UNITS[p[2]!]!, 0)));
}

const RATE_UNITS: Readonly<Record<string, number>> = { s: 1, sec: 1, m: 1 / 60, min: 1 / 60, h: 1 / 3600 };

/** Messages per second: `500`, `500/s`, `30000/m`, `1e6/h`. */
export function parseRate(raw: string): Parsed {
  const m = /^([0-9]+(?:\.[0-9]+)?(?:e[0-9]+)?)(?:\s*(?:\/|per\s*)(s|sec|m|min|h))?$/i.exec(raw.trim());
  if (!m) return bad(`not a rate: ${JSON.stringify(raw)} (write e.g. 500 or 500/s)`);
  return ok(Number(m[1]) * RATE_UNITS[(m[2] ?? 's').toLowerCase()]!);
}

/** A share as a fraction 0..1: `2%` is 0.02, and so is a bare `2` (a percentage, as the option says). */
export function parsePercent(raw: string): Parsed {
  const m = /^([0-9]+(?:\.[0-9]+)?)\s*%?$/.exec(raw.trim());
  if (!m) return bad(`not a percentage: ${JSON.stringify(raw)} (write e.g. 2% or 0.1%)`);
  const v = Number(m[1]);
  if (v > 100) return bad(`must be at most 100%, got ${raw.trim()}`);
  return ok(v / 100);
}

const BYTE_UNITS: Readonly<Record<string, number>> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4 };

/** Bytes: `512`, `4kB`, `1MB`, `2GiB` (kB = 1000, KiB = 1024). */
export function parseBytes(raw: string): Parsed {
  const m = /^([0-9]+(?:\.[0-9]+)?)\s*([kmgt]i?b|b)?$/i.exec(raw.trim());
  if (!m) return bad(`not a size: ${JSON.stringify(raw)} (write e.g. 512, 4kB, 1GB)`);
  return ok(Math.round(Number(m[1]) * BYTE_UNITS[(m[2] ?? 'b').toLowerCase()]!));
}
