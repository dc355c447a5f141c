/**
 * Headers exchange matching (srv@v3.10.8 rabbit_exchange_type_headers.erl L83-135;
 * srv@v4.2.9 L36-88). `x-match` all (default) / any / all-with-x / any-with-x; `all`/`any`
 * skip binding keys starting with `x-`; `x-match` itself is always skipped; a void (null)
 * binding value means "present". 3.10 compares with Erlang `==` (AMQP types ignored);
 * 3.13+/4.x with `=:=`.
 */
import type { AmqpValue } from '../model/definitions.js';

export type XMatch = 'all' | 'any' | 'all-with-x' | 'any-with-x';

export function parseXMatch(v: AmqpValue | undefined): XMatch | undefined {
  if (v === undefined) return 'all';
  if (v === 'all' || v === 'any' || v === 'all-with-x' || v === 'any-with-x') return v;
  return undefined; // refused at bind time (binding_invalid)
}

/**
 * A typed AMQP value that JSON cannot express on its own: `{"$type": "float", "value": 1}`
 * marks a float where a plain JSON number would be read as an integer. Used only where
 * the 4.x strict comparison needs it (1 vs 1.0).
 */
function typed(v: AmqpValue): { num: number; isFloat: boolean } | undefined {
  if (typeof v === 'number') return { num: v, isFloat: !Number.isInteger(v) };
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const t = (v as { [k: string]: AmqpValue })['$type'];
    const val = (v as { [k: string]: AmqpValue })['value'];
    if ((t === 'float' || t === 'double') && typeof val === 'number') return { num: val, isFloat: true };
    if (typeof t === 'string' && typeof val === 'number') return { num: val, isFloat: false };
  }
  return undefined;
}

export function amqpEquals(a: AmqpValue, b: AmqpValue, strict: boolean): boolean {
  const ta = typed(a);
  const tb = typed(b);
  if (ta && tb) return ta.num === tb.num && (!strict || ta.isFloat === tb.isFloat);
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!amqpEquals(a[i] as AmqpValue, b[i] as AmqpValue, strict)) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const bo = b as { readonly [k: string]: AmqpValue };
  const ao = a as { readonly [k: string]: AmqpValue };
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(bo, k)) return false;
    if (!amqpEquals(ao[k] as AmqpValue, bo[k] as AmqpValue, strict)) return false;
  }
  return true;
}

/**
 * Does a message with `headers` match a binding with `args`?
 * `strict`: 4.x `=:=` comparison. `xMatchFallback`: value used when x-match is unknown
 * (radlx treats unknown as `all`; the headers exchange refuses such bindings).
 */
export function headersMatch(
  args: { readonly [k: string]: AmqpValue } | undefined,
  headers: { readonly [k: string]: AmqpValue },
  strict: boolean,
  xMatchFallback?: XMatch,
): boolean {
  const a = args ?? {};
  const mode = parseXMatch(a['x-match']) ?? xMatchFallback;
  if (mode === undefined) return false;
  const all = mode === 'all' || mode === 'all-with-x';
  const withX = mode === 'all-with-x' || mode === 'any-with-x';
  for (const k of Object.keys(a)) {
    if (k === 'x-match') continue;
    if (!withX && k.startsWith('x-')) continue;
    const want = a[k] as AmqpValue;
    const has = Object.prototype.hasOwnProperty.call(headers, k);
    const ok = has && (want === null || amqpEquals(want, headers[k] as AmqpValue, strict));
    if (all && !ok) return false;
    if (!all && ok) return true;
  }
  // all: every considered key matched (vacuously true with none); any: none matched
  return all;
}
