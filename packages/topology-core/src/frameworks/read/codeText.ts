/**
 * Code read as text (no compiler), in linear time: one pass blanks comments (keeping every offset
 * and line) and pairs brackets outside strings; calls are found by name with their balanced
 * argument text. A reader recognises the common forms and reports the rest as not understood,
 * with its line. Hostile input (unbalanced brackets, deep nesting) costs one pass, never a stack.
 */
import { LineIndex } from './lineIndex.js';
import { AppConfigFailure } from '../types.js';

export type CodeSyntax = 'c' | 'python';

/** brackets nested deeper than this: refused (real code stays within a few dozen) */
export const MAX_BRACKET_DEPTH = 512;

const OPEN = '([{';
const CLOSE = ')]}';

export class CodeText {
  /** the text with comments replaced by spaces (strings kept) */
  readonly text: string;
  readonly lines: LineIndex;
  private readonly close = new Map<number, number>();

  constructor(
    readonly file: string,
    readonly raw: string,
    syntax: CodeSyntax,
  ) {
    this.lines = new LineIndex(raw);
    this.text = this.scan(raw, syntax);
  }

  line(offset: number): number {
    return this.lines.line(offset);
  }

  /** the bracket at `open` and its match: the text between them, exclusive; undefined when unbalanced */
  balanced(open: number): { readonly inner: string; readonly end: number } | undefined {
    const end = this.close.get(open);
    return end === undefined ? undefined : { inner: this.text.slice(open + 1, end), end: end + 1 };
  }

  /** Every call of `name(` (a word boundary before it; generic arguments `<T>` allowed). */
  calls(name: string): Call[] {
    // `A.b` matches across whitespace and lines (`RetryInterceptorBuilder\n  .stateless()`)
    const pattern = name.split('.').map(escape).join('\\s*\\.\\s*');
    return this.find(new RegExp(`(?<![\\w.])${pattern}\\s*(?:<[^<>()\\n]{0,200}>)?\\s*\\(`, 'g'), name);
  }

  /** Every `.name(` call (a method on something), with its argument text. */
  methodCalls(name: string, from = 0, to = this.text.length): Call[] {
    return this.find(new RegExp(`\\.\\s*${escape(name)}\\s*(?:<[^<>()\\n]{0,200}>)?\\s*\\(`, 'g'), name, from, to);
  }

  /** The innermost `open` bracket (`{`, `[`, `(`) that encloses an offset, or undefined. */
  enclosing(offset: number, open: '{' | '[' | '(' = '{'): number | undefined {
    for (let i = offset - 1; i >= 0; i--) {
      if (this.text[i] !== open) continue;
      const end = this.close.get(i);
      if (end !== undefined && end > offset) return i;
    }
    return undefined;
  }

  /** The calls chained after `from` (`.a(..).b(..)`), in order, up to the first thing that is not one. */
  chain(from: number): Call[] {
    const out: Call[] = [];
    const re = /\s*\.\s*([A-Za-z_]\w*)\s*(?:<[^<>()\n]{0,200}>)?\s*\(/y;
    let at = from;
    for (;;) {
      re.lastIndex = at;
      const m = re.exec(this.text);
      if (!m) return out;
      const open = re.lastIndex - 1;
      const b = this.balanced(open);
      if (!b) return out;
      out.push({ name: m[1]!, args: b.inner, at: m.index + m[0].indexOf('.'), argsAt: open + 1, end: b.end });
      at = b.end;
    }
  }

  private find(re: RegExp, name: string, from = 0, to = this.text.length): Call[] {
    const out: Call[] = [];
    re.lastIndex = from;
    for (let m = re.exec(this.text); m && m.index < to; m = re.exec(this.text)) {
      const open = m.index + m[0].length - 1;
      const b = this.balanced(open);
      if (b) out.push({ name, args: b.inner, at: m.index, argsAt: open + 1, end: b.end });
    }
    return out;
  }

  private scan(raw: string, syntax: CodeSyntax): string {
    const parts: string[] = [];
    const stack: number[] = [];
    let copied = 0;
    const blank = (from: number, to: number): void => {
      parts.push(raw.slice(copied, from), raw.slice(from, to).replace(/[^\n]/g, ' '));
      copied = to;
    };
    let i = 0;
    const n = raw.length;
    while (i < n) {
      const c = raw[i]!;
      if (c === '"' || c === "'" || (c === '`' && syntax === 'c')) {
        i = stringEnd(raw, i, syntax);
        continue;
      }
      if (syntax === 'c' && c === '/' && raw[i + 1] === '/') {
        const e = lineEnd(raw, i);
        blank(i, e);
        i = e;
        continue;
      }
      if (syntax === 'c' && c === '/' && raw[i + 1] === '*') {
        const e = raw.indexOf('*/', i + 2);
        const end = e < 0 ? n : e + 2;
        blank(i, end);
        i = end;
        continue;
      }
      if (syntax === 'python' && c === '#') {
        const e = lineEnd(raw, i);
        blank(i, e);
        i = e;
        continue;
      }
      const o = OPEN.indexOf(c);
      if (o >= 0) {
        stack.push(i);
        if (stack.length > MAX_BRACKET_DEPTH)
          throw new AppConfigFailure({
            file: this.file,
            line: this.lines.line(i),
            message: `brackets nested more than ${MAX_BRACKET_DEPTH} deep: not code import-app reads`,
          });
      } else {
        const k = CLOSE.indexOf(c);
        if (k >= 0 && stack.length > 0 && raw[stack[stack.length - 1]!] === OPEN[k]) this.close.set(stack.pop()!, i);
      }
      i++;
    }
    parts.push(raw.slice(copied));
    return parts.join('');
  }
}

export interface Call {
  readonly name: string;
  readonly args: string;
  /** offset of the name */
  readonly at: number;
  /** offset of the argument text */
  readonly argsAt: number;
  readonly end: number;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function lineEnd(text: string, from: number): number {
  const e = text.indexOf('\n', from);
  return e < 0 ? text.length : e;
}

/** The offset after the string starting at `i` (a Python triple-quoted string, a JS template, an ordinary one). */
function stringEnd(text: string, i: number, syntax: CodeSyntax): number {
  const q = text[i]!;
  if (syntax === 'python' && text.startsWith(q.repeat(3), i)) {
    const e = text.indexOf(q.repeat(3), i + 3);
    return e < 0 ? text.length : e + 3;
  }
  let k = i + 1;
  // a template literal may span lines; an ordinary string ends at the line
  while (k < text.length && text[k] !== q && (q === '`' || text[k] !== '\n')) k += text[k] === '\\' ? 2 : 1;
  return Math.min(text.length, k + 1);
}

/** Top-level comma-separated arguments (linear in the text). */
export function splitArgs(args: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i]!;
    if (c === '"' || c === "'" || c === '`') {
      let k = i + 1;
      while (k < args.length && args[k] !== c) k += args[k] === '\\' ? 2 : 1;
      i = k;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(args.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = args.slice(start).trim();
  if (last !== '') out.push(last);
  return out;
}

/** Top-level arguments with their offsets in `args`. */
export function argsWithOffsets(args: string): { readonly text: string; readonly at: number }[] {
  const out: { text: string; at: number }[] = [];
  let from = 0;
  for (const a of splitArgs(args)) {
    const at = args.indexOf(a, from);
    out.push({ text: a, at });
    from = at + a.length;
  }
  return out;
}

/** A string literal's value ("x", 'x', C#'s @"x" and $"x"), or undefined. */
export function stringLiteral(expr: string | undefined): string | undefined {
  const m = /^\s*(?:@|\$)?(["'`])((?:\\.|(?!\1).)*)\1\s*$/s.exec(expr ?? '');
  return m ? m[2]!.replace(/\\(.)/g, '$1') : undefined;
}

/** An integer literal (`5`, `5L`, `5_000`), or undefined. */
export function intLiteral(expr: string | undefined): number | undefined {
  const m = /^\s*(\d[\d_]*)[lL]?\s*$/.exec(expr ?? '');
  return m ? Number(m[1]!.replace(/_/g, '')) : undefined;
}

/** A number literal (`2.0`, `2d`, `1.5f`, `5000L`), or undefined. */
export function numberLiteral(expr: string | undefined): number | undefined {
  const m = /^\s*(\d[\d_]*(?:\.\d+)?)[dDfFlL]?\s*$/.exec(expr ?? '');
  return m ? Number(m[1]!.replace(/_/g, '')) : undefined;
}
