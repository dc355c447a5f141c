/**
 * JSON and JavaScript/TypeScript object literals read as a tree with offsets (Rascal's
 * configuration, a NestJS decorator's options, a module's config): unquoted and computed keys,
 * single quotes, trailing commas, shorthand and spread; whatever is not a literal (an identifier,
 * a call, a template with `${}`) is kept as an expression's text for the caller to resolve.
 * Comments are already blanked (CodeText); nesting is bounded by CodeText's bracket depth.
 */
import type { CodeText } from './codeText.js';
import type { Environment } from './environment.js';

export type JsNode =
  | { readonly kind: 'object'; readonly at: number; readonly entries: readonly JsEntry[] }
  | { readonly kind: 'array'; readonly at: number; readonly items: readonly JsNode[] }
  | { readonly kind: 'string'; readonly at: number; readonly value: string }
  | { readonly kind: 'number'; readonly at: number; readonly value: number }
  | { readonly kind: 'boolean'; readonly at: number; readonly value: boolean }
  | { readonly kind: 'null'; readonly at: number }
  | { readonly kind: 'expr'; readonly at: number; readonly text: string };

export interface JsEntry {
  readonly key: string;
  readonly keyAt: number;
  readonly value: JsNode;
}

const WS = /\s*/y;

class Parser {
  constructor(private readonly code: CodeText) {}

  private get t(): string {
    return this.code.text;
  }

  skip(i: number): number {
    WS.lastIndex = i;
    WS.exec(this.t);
    return WS.lastIndex;
  }

  /** a value at i: the node and the offset after it */
  value(i0: number): { node: JsNode; end: number } {
    const i = this.skip(i0);
    const c = this.t[i];
    if (c === '{') return this.object(i);
    if (c === '[') return this.array(i);
    if (c === '"' || c === "'" || c === '`') {
      const s = this.string(i);
      if (s) return s;
    }
    const num = /-?\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?(?=\s*[,}\]\n)]|\s*$)/y;
    num.lastIndex = i;
    const n = num.exec(this.t);
    if (n) return { node: { kind: 'number', at: i, value: Number(n[0].replace(/_/g, '')) }, end: num.lastIndex };
    const word = /(true|false|null|undefined)(?=\s*[,}\]\n)])/y;
    word.lastIndex = i;
    const w = word.exec(this.t);
    if (w)
      return {
        node:
          w[1] === 'true' || w[1] === 'false'
            ? { kind: 'boolean', at: i, value: w[1] === 'true' }
            : { kind: 'null', at: i },
        end: word.lastIndex,
      };
    const end = this.exprEnd(i);
    return { node: { kind: 'expr', at: i, text: this.t.slice(i, end).trim() }, end };
  }

  /** where an expression ends: the first top-level `,` `}` `]` `)` or `;` (brackets inside are skipped whole) */
  private exprEnd(i: number): number {
    let k = i;
    while (k < this.t.length) {
      const c = this.t[k]!;
      if (c === ',' || c === '}' || c === ']' || c === ')' || c === ';') return k;
      if (c === '(' || c === '[' || c === '{') {
        const b = this.code.balanced(k);
        if (!b) return this.t.length;
        k = b.end;
        continue;
      }
      if (c === '"' || c === "'" || c === '`') {
        k = this.string(k)?.end ?? k + 1;
        continue;
      }
      k++;
    }
    return k;
  }

  private string(i: number): { node: JsNode; end: number } | undefined {
    const q = this.t[i]!;
    let k = i + 1;
    let out = '';
    while (k < this.t.length && this.t[k] !== q) {
      if (this.t[k] === '\\') {
        out += this.t[k + 1] ?? '';
        k += 2;
        continue;
      }
      if (q !== '`' && this.t[k] === '\n') return undefined;
      out += this.t[k];
      k++;
    }
    const end = Math.min(this.t.length, k + 1);
    // a template with substitutions is an expression: the caller resolves its parts
    if (q === '`' && out.includes('${')) return { node: { kind: 'expr', at: i, text: this.t.slice(i, end) }, end };
    return { node: { kind: 'string', at: i, value: out }, end };
  }

  private object(i: number): { node: JsNode; end: number } {
    const close = this.code.balanced(i)?.end ?? this.t.length;
    const entries: JsEntry[] = [];
    let k = i + 1;
    while (k < close - 1) {
      k = this.skip(k);
      if (k >= close - 1) break;
      if (this.t.startsWith('...', k)) {
        k = this.exprEnd(k + 3) + 1;
        continue;
      }
      const key = this.key(k);
      if (!key) {
        k = this.exprEnd(k) + 1;
        continue;
      }
      let j = this.skip(key.end);
      if (this.t[j] === ':') {
        const v = this.value(j + 1);
        entries.push({ key: key.key, keyAt: k, value: v.node });
        j = this.skip(v.end);
      } else if (this.t[j] === '(') {
        // a method: its body is code, not configuration
        const args = this.code.balanced(j);
        j = this.skip(args?.end ?? j + 1);
        if (this.t[j] === '{') j = this.code.balanced(j)?.end ?? j + 1;
        entries.push({ key: key.key, keyAt: k, value: { kind: 'expr', at: k, text: 'function' } });
        j = this.skip(j);
      } else entries.push({ key: key.key, keyAt: k, value: { kind: 'expr', at: k, text: key.key } });
      k = this.t[j] === ',' ? j + 1 : j;
      if (this.t[j] !== ',' && this.t[j] !== '}' && j < close - 1) k = this.exprEnd(j) + 1;
    }
    return { node: { kind: 'object', at: i, entries }, end: close };
  }

  private key(k: number): { key: string; end: number } | undefined {
    const c = this.t[k];
    if (c === '"' || c === "'" || c === '`') {
      const s = this.string(k);
      if (!s) return undefined;
      return { key: s.node.kind === 'string' ? s.node.value : (s.node as { text: string }).text, end: s.end };
    }
    if (c === '[') {
      const b = this.code.balanced(k);
      return b ? { key: `[${b.inner.trim()}]`, end: b.end } : undefined;
    }
    const m = /[A-Za-z_$][\w$]*|\d+/y;
    m.lastIndex = k;
    const r = m.exec(this.t);
    return r ? { key: r[0], end: m.lastIndex } : undefined;
  }

  private array(i: number): { node: JsNode; end: number } {
    const close = this.code.balanced(i)?.end ?? this.t.length;
    const items: JsNode[] = [];
    let k = i + 1;
    while (k < close - 1) {
      k = this.skip(k);
      if (k >= close - 1) break;
      if (this.t.startsWith('...', k)) {
        k = this.exprEnd(k + 3) + 1;
        continue;
      }
      const v = this.value(k);
      items.push(v.node);
      const j = this.skip(v.end);
      k = this.t[j] === ',' ? j + 1 : j === v.end && j < close - 1 ? this.exprEnd(j) + 1 : j;
      if (j < close - 1 && this.t[j] !== ',') k = Math.max(k, j + 1);
    }
    return { node: { kind: 'array', at: i, items }, end: close };
  }
}

/** The value written at offset `at` of the code (an object literal, an array, a literal, or an expression). */
export function jsValueAt(code: CodeText, at: number): JsNode {
  return new Parser(code).value(at).node;
}

/** An object's entry by key. */
export const entry = (n: JsNode | undefined, key: string): JsNode | undefined =>
  n?.kind === 'object' ? n.entries.find((e) => e.key === key)?.value : undefined;

/**
 * Module constants (`const X = ...`, `export const`), resolved on demand: an identifier, a member
 * of a constant object (`QUEUES.ORDERS`), `process.env.X ?? 'd'`, `Number(...)`, a template whose
 * parts resolve. What could not be resolved stays undefined.
 */
export class JsValues {
  private readonly consts = new Map<string, number>();

  constructor(
    private readonly code: CodeText,
    private readonly env: Environment,
  ) {
    for (const m of code.text.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::\s*[\w.<>[\]| ]{1,80})?=\s*/g))
      if (!this.consts.has(m[1]!)) this.consts.set(m[1]!, m.index + m[0].length);
    // enum members: enum Queues { ORDERS = 'orders' }
    for (const m of code.text.matchAll(/\benum\s+([A-Za-z_$][\w$]*)\s*\{/g))
      this.consts.set(m[1]!, m.index + m[0].length - 1);
  }

  /** the node an expression stands for (following constants and members), or the node itself */
  node(n: JsNode | undefined, depth = 0): JsNode | undefined {
    if (!n || n.kind !== 'expr' || depth > 12) return n;
    const text = n.text.replace(/\s+as\s+const$/, '').trim();
    const path = /^([A-Za-z_$][\w$]*)((?:\.[A-Za-z_$][\w$]*)*)$/.exec(text);
    if (!path) return n;
    const at = this.consts.get(path[1]!);
    if (at === undefined) return n;
    let v: JsNode | undefined = this.node(this.enumOrValue(at), depth + 1);
    for (const p of path[2]!.split('.').filter((s) => s !== '')) v = this.node(entry(v, p), depth + 1);
    return v ?? n;
  }

  private enumOrValue(at: number): JsNode {
    if (this.code.text[at] === '{' && /enum\s+\w+\s*$/.test(this.code.text.slice(Math.max(0, at - 80), at))) {
      // enum Name { A = 'a', B = 'b' } read as an object
      const b = this.code.balanced(at);
      const entries: JsEntry[] = [];
      for (const m of (b?.inner ?? '').matchAll(/([A-Za-z_$][\w$]*)\s*=\s*(['"])([^'"]*)\2/g))
        entries.push({ key: m[1]!, keyAt: at, value: { kind: 'string', at, value: m[3]! } });
      return { kind: 'object', at, entries };
    }
    return jsValueAt(this.code, at);
  }

  /**
   * The node as a plain value (objects, arrays, strings, numbers, booleans, null), constants and
   * expressions resolved as scalar() resolves them; what cannot be read (a function, a call) is left
   * out and its text listed in `unread`. How a framework would take the literal (prove-app hands it
   * to the real framework).
   */
  plain(n: JsNode | undefined, unread: string[] = [], depth = 0): unknown {
    const v = this.node(n);
    if (!v || depth > 40) return undefined;
    if (v.kind === 'object') {
      const o: Record<string, unknown> = {};
      for (const e of v.entries) {
        if (e.key === '__proto__' || e.key === 'constructor' || e.key === 'prototype') continue;
        const x = this.plain(e.value, unread, depth + 1);
        if (x !== undefined) o[e.key] = x;
      }
      return o;
    }
    if (v.kind === 'array') return v.items.map((i) => this.plain(i, unread, depth + 1)).filter((x) => x !== undefined);
    if (v.kind === 'null') return null;
    if (v.kind !== 'expr') return v.value;
    const x = this.scalar(v);
    if (x === undefined) unread.push(v.text.length > 60 ? `${v.text.slice(0, 57)}...` : v.text);
    return x;
  }

  /** a string or number value, resolved; undefined when it is not one this reads */
  scalar(n: JsNode | undefined, depth = 0): string | number | boolean | undefined {
    const v = this.node(n);
    if (!v) return undefined;
    if (v.kind === 'string' || v.kind === 'number' || v.kind === 'boolean') return v.value;
    if (v.kind !== 'expr' || depth > 8) return undefined;
    const t = v.text;
    // a literal the parser left as an expression (`2000;` at a statement's end)
    const lit = jsValueOf(t, v.at);
    if (lit.kind === 'number' || lit.kind === 'string') return lit.value;
    const or = /^([\s\S]+?)\s*(?:\?\?|\|\|)\s*([\s\S]+)$/.exec(t);
    if (or)
      return (
        this.scalar({ kind: 'expr', at: v.at, text: or[1]! }, depth + 1) ??
        this.scalar(jsValueOf(or[2]!, v.at), depth + 1)
      );
    const env = /^process\.env\.([A-Za-z_]\w*)$|^process\.env\[\s*['"](\w+)['"]\s*\]$/.exec(t);
    if (env) return this.env.get(env[1] ?? env[2]!)?.value;
    const num = /^(?:Number|parseInt|parseFloat)\(\s*([\s\S]+?)\s*(?:,\s*\d+\s*)?\)$/.exec(t);
    if (num) {
      const x = this.scalar(jsValueOf(num[1]!, v.at), depth + 1);
      return x === undefined ? undefined : Number(x);
    }
    if (t.startsWith('`')) {
      let ok = true;
      const s = t.slice(1, -1).replace(/\$\{([^}]*)\}/g, (_, e: string) => {
        const x = this.scalar(jsValueOf(e.trim(), v.at), depth + 1);
        if (x === undefined) ok = false;
        return String(x ?? '');
      });
      return ok ? s : undefined;
    }
    const arith = /^([\w.]+)\s*([*+])\s*([\w.]+)$/.exec(t);
    if (arith) {
      const [a, b] = [
        this.scalar(jsValueOf(arith[1]!, v.at), depth + 1),
        this.scalar(jsValueOf(arith[3]!, v.at), depth + 1),
      ];
      if (typeof a === 'number' && typeof b === 'number') return arith[2] === '*' ? a * b : a + b;
    }
    return undefined;
  }
}

/** an expression's text as a node (a literal when it is one) */
function jsValueOf(text: string, at: number): JsNode {
  const t = text.trim();
  if (/^-?\d[\d_]*(\.\d+)?$/.test(t)) return { kind: 'number', at, value: Number(t.replace(/_/g, '')) };
  const s = /^(['"])(.*)\1$/s.exec(t);
  if (s) return { kind: 'string', at, value: s[2]! };
  return { kind: 'expr', at, text: t };
}
