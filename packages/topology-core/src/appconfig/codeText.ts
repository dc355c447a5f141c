/**
 * Code read as text (no compiler): comments blanked (keeping every offset and line), calls found
 * by name with their balanced argument text, and lines from offsets. A reader recognises the
 * common forms and reports the rest as not understood, with its line.
 */

/** The text with `//`, `#` (when `hash`) and block comments replaced by spaces; strings kept. */
export function blankComments(
  text: string,
  opts: { readonly slashes?: boolean; readonly hash?: boolean } = { slashes: true },
): string {
  const out = text.split('');
  let i = 0;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      // a Python triple-quoted string or an ordinary one: skip to its end
      const triple = opts.hash && text.startsWith(c.repeat(3), i);
      const end = triple
        ? text.indexOf(c.repeat(3), i + 3)
        : (() => {
            let k = i + 1;
            while (k < text.length && text[k] !== c && text[k] !== '\n') k += text[k] === '\\' ? 2 : 1;
            return k;
          })();
      i = end < 0 ? text.length : end + (triple ? 3 : 1);
      continue;
    }
    if (opts.slashes && c === '/' && text[i + 1] === '/') {
      const e = text.indexOf('\n', i);
      blank(i, e < 0 ? text.length : e);
      i = e < 0 ? text.length : e;
      continue;
    }
    if (opts.slashes && c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      blank(i, e < 0 ? text.length : e + 2);
      i = e < 0 ? text.length : e + 2;
      continue;
    }
    if (opts.hash && c === '#') {
      const e = text.indexOf('\n', i);
      blank(i, e < 0 ? text.length : e);
      i = e < 0 ? text.length : e;
      continue;
    }
    i++;
  }
  return out.join('');
}

/** 1-based line of an offset. */
export function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** The text between the parenthesis at `open` and its match (exclusive), or undefined when unbalanced. */
export function balancedArgs(text: string, open: number): { readonly inner: string; readonly end: number } | undefined {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      let k = i + 1;
      while (k < text.length && text[k] !== c) k += text[k] === '\\' ? 2 : 1;
      i = k;
      continue;
    }
    if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') {
      depth--;
      if (depth === 0) return { inner: text.slice(open + 1, i), end: i + 1 };
    }
  }
  return undefined;
}

export interface Call {
  readonly name: string;
  readonly args: string;
  /** offset of the name */
  readonly at: number;
  readonly end: number;
}

/** Every call of `name(` (a word boundary before it; generic arguments `<T>` allowed). */
export function findCalls(text: string, name: string): Call[] {
  const re = new RegExp(`(?<!\\w)${name.replace(/\./g, '\\.')}\\s*(?:<[^<>()]*>)?\\s*\\(`, 'g');
  const out: Call[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const open = m.index + m[0].length - 1;
    const b = balancedArgs(text, open);
    if (!b) continue;
    out.push({ name, args: b.inner, at: m.index, end: b.end });
  }
  return out;
}

/** Every `.name(` call (a method on something), with its argument text. */
export function findMethodCalls(text: string, name: string): Call[] {
  const re = new RegExp(`\\.\\s*${name}\\s*(?:<[^<>()]*>)?\\s*\\(`, 'g');
  const out: Call[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const open = m.index + m[0].length - 1;
    const b = balancedArgs(text, open);
    if (b) out.push({ name, args: b.inner, at: m.index, end: b.end });
  }
  return out;
}

/** Top-level comma-separated arguments. */
export function splitArgs(args: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < args.length; i++) {
    const c = args[i]!;
    if (c === '"' || c === "'") {
      let k = i + 1;
      while (k < args.length && args[k] !== c) k += args[k] === '\\' ? 2 : 1;
      cur += args.slice(i, k + 1);
      i = k;
      continue;
    }
    if (c === '(' || c === '[' || c === '{') depth++;
    if (c === ')' || c === ']' || c === '}') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out;
}

/** A string literal's value ("x" or 'x'), or undefined. */
export function stringLiteral(expr: string | undefined): string | undefined {
  const m = /^\s*(?:@|\$)?(["'])((?:\\.|(?!\1).)*)\1\s*$/.exec(expr ?? '');
  return m ? m[2]!.replace(/\\(.)/g, '$1') : undefined;
}

/** An integer literal (C#/Java `5`, `5L`), or undefined. */
export function intLiteral(expr: string | undefined): number | undefined {
  const m = /^\s*(\d+)[lL]?\s*$/.exec(expr ?? '');
  return m ? Number(m[1]) : undefined;
}

/** A number literal (`2.0`, `2d`, `1.5f`), or undefined. */
export function numberLiteral(expr: string | undefined): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)[dDfFlL]?\s*$/.exec(expr ?? '');
  return m ? Number(m[1]) : undefined;
}
