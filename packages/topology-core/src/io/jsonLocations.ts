/**
 * Where each value of a JSON text starts (1-based line and column), by JSON pointer
 * (`/queues/3`), for values down to a depth: so a report (SARIF, GitHub annotations) can point at
 * the object a finding concerns in the file as the user wrote it. One pass, no second parse.
 * Returns undefined for text that is not JSON (the loader reports that).
 */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export function jsonLocations(text: string, maxDepth = 3): Map<string, SourcePosition> | undefined {
  const out = new Map<string, SourcePosition>();
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let lineStart = i;
  const n = text.length;

  const ws = (): void => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) {
        line++;
        lineStart = i + 1;
      } else if (c !== 32 && c !== 9 && c !== 13) return;
    }
  };
  const str = (): string | undefined => {
    // at the opening quote; only keys are decoded
    const start = ++i;
    let escaped = false;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 92) {
        escaped = true;
        i++;
      } else if (c === 34) {
        const raw = text.slice(start, i++);
        if (!escaped) return raw;
        try {
          return JSON.parse(`"${raw}"`) as string;
        } catch {
          return undefined;
        }
      } else if (c === 10) return undefined;
    }
    return undefined;
  };
  const value = (pointer: string, depth: number): boolean => {
    ws();
    if (i >= n) return false;
    if (depth <= maxDepth) out.set(pointer, { line, column: i - lineStart + 1 });
    const c = text.charCodeAt(i);
    if (c === 123 /* { */) {
      i++;
      ws();
      if (text.charCodeAt(i) === 125) return (i++, true);
      for (;;) {
        ws();
        if (text.charCodeAt(i) !== 34) return false;
        const key = str();
        if (key === undefined) return false;
        ws();
        if (text.charCodeAt(i) !== 58) return false;
        i++;
        if (!value(`${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1)) return false;
        ws();
        const d = text.charCodeAt(i++);
        if (d === 125) return true;
        if (d !== 44) return false;
      }
    }
    if (c === 91 /* [ */) {
      i++;
      ws();
      if (text.charCodeAt(i) === 93) return (i++, true);
      for (let k = 0; ; k++) {
        if (!value(`${pointer}/${k}`, depth + 1)) return false;
        ws();
        const d = text.charCodeAt(i++);
        if (d === 93) return true;
        if (d !== 44) return false;
      }
    }
    if (c === 34) return str() !== undefined || text.charCodeAt(i - 1) === 34;
    // a number or a literal: up to the next delimiter
    const start = i;
    while (i < n && !/[\s,\]}]/.test(text[i]!)) i++;
    return i > start;
  };
  if (!value('', 0)) return undefined;
  ws();
  return i === n ? out : undefined;
}
