/**
 * A framework's real configuration keys, each with the version that introduced it (and removed
 * it, where it was), read from the framework's own source. A key written under the framework's
 * prefix that is not in the table is one the framework never reads: the reader names it with its
 * line, and says the key it most likely meant.
 */
import type { SourceNote } from '../../model/source.js';

export interface KeyEntry {
  /** the key relative to the table's prefix; `x.*` matches every key under x, `[*]` any index */
  readonly key: string;
  /** the first version that reads it */
  readonly since: string;
  /** the first version that no longer reads it */
  readonly until?: string;
  /** what to write instead, from `until` on */
  readonly replacedBy?: string;
}

export interface KeyTable {
  /** the framework's name for the keys (`Spring Boot`, `Celery`) */
  readonly title: string;
  /** where the table is read from (the source file and the releases compared) */
  readonly cite: string;
  readonly entries: readonly KeyEntry[];
}

const matches = (pattern: string, key: string): boolean => {
  if (pattern === key) return true;
  if (pattern.endsWith('.*')) return key.startsWith(pattern.slice(0, -1));
  if (pattern.includes('[*]')) return key.replace(/\[\d+\]/g, '[*]') === pattern;
  return false;
};

export function lookupKey(t: KeyTable, key: string): KeyEntry | undefined {
  return t.entries.find((e) => matches(e.key, key));
}

/** Edit distance, bounded (keys are short): the spelling a typo most likely meant. */
function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 99;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** The real key closest to a key the table does not have (within a few letters), or undefined. */
export function suggestKey(t: KeyTable, key: string): string | undefined {
  let best: { key: string; d: number } | undefined;
  const lower = key.toLowerCase();
  for (const e of t.entries) {
    if (e.key.includes('*')) continue;
    const k = e.key.toLowerCase();
    // a real key with a word added or left off (prefetchCount for prefetch, max_retries for max-retries)
    const d =
      k === lower || (Math.min(k.length, lower.length) >= 5 && (lower.startsWith(k) || k.startsWith(lower)))
        ? 1
        : distance(key, e.key);
    if (d <= Math.max(2, Math.floor(key.length / 8)) && (!best || d < best.d)) best = { key: e.key, d };
  }
  return best?.key;
}

/**
 * The note for a key: undefined when the table has it in every version; a note when it is
 * unknown (with the likeliest spelling) or was removed. `full`: the key as written in the file.
 */
export function keyNote(t: KeyTable, rel: string, full: string, line: number, file?: string): SourceNote | undefined {
  const e = lookupKey(t, rel);
  const where = file !== undefined ? { file } : {};
  if (e && e.until === undefined) return undefined;
  if (e)
    return {
      kind: 'ignored-key',
      line,
      key: full,
      ...where,
      text: `${full} is read by ${t.title} ${e.since} until ${e.until} only${e.replacedBy ? ` (from ${e.until}: ${e.replacedBy})` : ''}`,
      fix: e.replacedBy
        ? `Write ${full.slice(0, full.length - rel.length)}${e.replacedBy} for ${t.title} ${e.until} and later.`
        : `Remove ${full}: ${t.title} ${e.until} no longer reads it.`,
    };
  const s = suggestKey(t, rel);
  const prefix = full.slice(0, full.length - rel.length);
  return {
    kind: 'ignored-key',
    line,
    key: full,
    ...where,
    text: `${full} is unknown to ${t.title}: it never reads it${s ? ` (did you mean ${prefix}${s}?)` : ''}, so the default applies`,
    fix: s
      ? `Write ${prefix}${s} (${t.title} ${lookupKey(t, s)!.since}+).`
      : `Remove ${full}, or write the ${t.title} key it stands for (${t.cite}).`,
  };
}
