/**
 * A small HCL (Terraform) writer: blocks, attributes and expressions as text. Literal
 * strings are JSON-quoted with HCL's template markers escaped (`${` -> `$${`, `%{` -> `%%{`).
 */
import type { AmqpValue } from '../model/definitions.js';

/**
 * A raw HCL expression (a reference such as `rabbitmq_exchange.x.name`) or a one-argument
 * function call (`jsonencode({...})`). Classes, so that no value read from a design file
 * (plain JSON) can pass for one and inject text.
 */
export class HclExpr {
  constructor(readonly text: string) {}
}
export class HclCall {
  constructor(
    readonly fn: string,
    readonly arg: HclValue,
  ) {}
}
export type HclValue = AmqpValue | HclExpr | HclCall | readonly HclValue[] | { readonly [k: string]: HclValue };

export const hclExpr = (text: string): HclExpr => new HclExpr(text);
export const hclCall = (fn: string, arg: HclValue): HclCall => new HclCall(fn, arg);

export function hclString(s: string): string {
  // replacement patterns: '$$' is one literal '$'
  return JSON.stringify(s).replace(/\$\{/g, '$$$${').replace(/%\{/g, '%%{');
}

/** An expression; objects are written with quoted keys, one per line at `indent`. */
export function hclValue(v: HclValue, indent = ''): string {
  if (v instanceof HclExpr) return v.text;
  if (v instanceof HclCall) return `${v.fn}(${hclValue(v.arg, indent)})`;
  if (v === null) return 'null';
  if (typeof v === 'string') return hclString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${(v as readonly HclValue[]).map((x) => hclValue(x, indent)).join(', ')}]`;
  const entries = Object.entries(v as { readonly [k: string]: HclValue });
  if (entries.length === 0) return '{}';
  const inner = `${indent}  `;
  return `{\n${entries.map(([k, x]) => `${inner}${hclString(k)} = ${hclValue(x, inner)}`).join('\n')}\n${indent}}`;
}

/** A block body item: an attribute, or a nested block. */
export type HclItem =
  | { readonly kind: 'attr'; readonly name: string; readonly value: HclValue }
  | {
      readonly kind: 'block';
      readonly type: string;
      readonly labels: readonly string[];
      readonly body: readonly HclItem[];
    };

export const attr = (name: string, value: HclValue): HclItem => ({ kind: 'attr', name, value });
export const block = (type: string, labels: readonly string[], body: readonly HclItem[]): HclItem => ({
  kind: 'block',
  type,
  labels,
  body,
});

export function hclItem(item: HclItem, indent = ''): string {
  if (item.kind === 'attr') return `${indent}${item.name} = ${hclValue(item.value, indent)}`;
  const head = [item.type, ...item.labels.map(hclString)].join(' ');
  if (item.body.length === 0) return `${indent}${head} {}`;
  return `${indent}${head} {\n${item.body.map((i) => hclItem(i, `${indent}  `)).join('\n')}\n${indent}}`;
}
