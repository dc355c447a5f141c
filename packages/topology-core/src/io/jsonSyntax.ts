/**
 * Where a text stops being JSON, as line and column: V8's JSON.parse says "Unexpected token"
 * without a position for many errors, and a user with a Terraform template (`${var}`) or a
 * trailing comma needs to know where to look.
 */

export interface JsonSyntaxError {
  /** 1-based */
  readonly line: number;
  /** 1-based, in UTF-16 code units */
  readonly column: number;
  readonly message: string;
}

const WS = new Set([' ', '\t', '\n', '\r']);

/** The offset of the first character that is not valid JSON (text.length: it ended too early); -1 if valid. */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && WS.has(text[i]!)) i++;
  };
  const fail = (at: number): never => {
    throw new Offset(at);
  };
  const literal = (word: string): void => {
    for (let k = 0; k < word.length; k++) if (text[i + k] !== word[k]) fail(Math.min(i + k, text.length));
    i += word.length;
  };
  const str = (): void => {
    i++; // opening quote
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === undefined) fail(text.length);
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail(i);
          i += 6;
        } else if ('"\\/bfnrt'.includes(e!)) i += 2;
        else fail(i);
        continue;
      }
      if (c < ' ') fail(i);
      i++;
    }
    fail(text.length);
  };
  const num = (): void => {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '' || m[0] === '-') fail(i);
    i += m![0].length;
  };
  const value = (depth: number): void => {
    if (depth > 10000) fail(i);
    ws();
    const c = text[i] ?? '';
    if (c === '') fail(text.length);
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail(Math.min(i, text.length));
        str();
        ws();
        if (text[i] !== ':') fail(Math.min(i, text.length));
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') return void i++;
        fail(Math.min(i, text.length));
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') return void i++;
        fail(Math.min(i, text.length));
      }
    }
    if (c === '"') return str();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c >= '0' && c <= '9')) return num();
    fail(i);
  };
  try {
    value(0);
    ws();
    return i < text.length ? i : -1;
  } catch (e) {
    if (e instanceof Offset) return e.at;
    throw e;
  }
}

class Offset {
  constructor(readonly at: number) {}
}

/** Line and column of an offset (1-based). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let k = 0; k < offset && k < text.length; k++)
    if (text.charCodeAt(k) === 10) {
      line++;
      start = k + 1;
    }
  return { line, column: offset - start + 1 };
}

/** Why a text that JSON.parse refused is not JSON: where, what is there, and a hint for the usual causes. */
export function describeJsonError(text: string): JsonSyntaxError {
  if (text.trim() === '') return { line: 1, column: 1, message: 'the file is empty (expected a JSON object)' };
  const at = jsonErrorOffset(text);
  const offset = at < 0 ? text.length : at;
  const { line, column } = lineColumn(text, offset);
  const found =
    offset >= text.length ? 'the end of the file' : JSON.stringify(text.slice(offset, offset + 12).split('\n')[0]);
  // a committed merge conflict (RabbitMQ's own selenium users.json had one): name it, the line alone says "<<<<<<< HEAD"
  const conflict = /^(<{7}|>{7})( |$)/m.test(text) && /^={7}$/m.test(text);
  const hint = conflict
    ? ' (the file holds an unresolved git merge conflict: <<<<<<<, ======= and >>>>>>> lines; resolve it first)'
    : /\$\{[^}]*\}/.test(text)
      ? ' (the file has ${...} placeholders: it looks like a template, render it first)'
      : /\{\{[^}]*\}\}/.test(text)
        ? ' (the file has {{...}} placeholders: it looks like a template, render it first)'
        : '';
  return { line, column, message: `not valid JSON: line ${line}, column ${column}: unexpected ${found}${hint}` };
}
