/**
 * JSON Patch (RFC 6902) over JSON Pointer (RFC 6901), pure: the "fix" of fix-then-retry. A patch
 * applies whole or not at all (the input is never changed); an error says which operation failed
 * and why.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

export type JsonPatchOp =
  | { readonly op: 'add' | 'replace' | 'test'; readonly path: string; readonly value: JsonValue }
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'move' | 'copy'; readonly from: string; readonly path: string };

export type PatchResult =
  | { readonly ok: true; readonly value: JsonValue }
  | { readonly ok: false; readonly index: number; readonly message: string };

const OPS = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);
/**
 * Keys a patch may not go through: on a plain object `add /__proto__` changes its prototype, not a
 * field (a silent no-op on the JSON, while the copy was marked edited and its original acked).
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function forbiddenToken(p: string): string | undefined {
  return tokens(p).find((t) => FORBIDDEN_KEYS.has(t));
}

/** A patch document read from JSON: an array of operations; the error names `[i].field`. */
export function parseJsonPatch(
  doc: unknown,
): { ok: true; patch: JsonPatchOp[] } | { ok: false; path: string; message: string } {
  if (!Array.isArray(doc)) return { ok: false, path: '', message: 'a JSON patch is an array of operations (RFC 6902)' };
  const out: JsonPatchOp[] = [];
  for (let i = 0; i < doc.length; i++) {
    const o = doc[i] as Record<string, unknown> | null;
    if (typeof o !== 'object' || o === null) return { ok: false, path: `[${i}]`, message: 'an operation is an object' };
    if (typeof o.op !== 'string' || !OPS.has(o.op))
      return {
        ok: false,
        path: `[${i}].op`,
        message: `op must be one of add, remove, replace, move, copy, test, got ${JSON.stringify(o.op)}`,
      };
    if (typeof o.path !== 'string' || !validPointer(o.path))
      return {
        ok: false,
        path: `[${i}].path`,
        message: `path must be a JSON pointer ('' or starting with /), got ${JSON.stringify(o.path)}`,
      };
    const badPath = forbiddenToken(o.path);
    if (badPath !== undefined)
      return {
        ok: false,
        path: `[${i}].path`,
        message: `path goes through '${badPath}', which a patch may not touch (__proto__, constructor and prototype are refused)`,
      };
    if ((o.op === 'move' || o.op === 'copy') && typeof o.from === 'string' && validPointer(o.from)) {
      const badFrom = forbiddenToken(o.from);
      if (badFrom !== undefined)
        return {
          ok: false,
          path: `[${i}].from`,
          message: `from goes through '${badFrom}', which a patch may not touch (__proto__, constructor and prototype are refused)`,
        };
    }
    if (o.op === 'move' || o.op === 'copy') {
      if (typeof o.from !== 'string' || !validPointer(o.from))
        return {
          ok: false,
          path: `[${i}].from`,
          message: `from must be a JSON pointer, got ${JSON.stringify(o.from)}`,
        };
      out.push({ op: o.op, from: o.from, path: o.path });
    } else if (o.op === 'remove') out.push({ op: 'remove', path: o.path });
    else {
      if (!('value' in o)) return { ok: false, path: `[${i}].value`, message: `${o.op} needs a value` };
      out.push({ op: o.op as 'add' | 'replace' | 'test', path: o.path, value: o.value as JsonValue });
    }
  }
  return { ok: true, patch: out };
}

function validPointer(p: string): boolean {
  return p === '' || (p.startsWith('/') && !/~[^01]|~$/.test(p));
}

function tokens(p: string): string[] {
  return p === ''
    ? []
    : p
        .slice(1)
        .split('/')
        .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const clone = (v: JsonValue): JsonValue => JSON.parse(JSON.stringify(v)) as JsonValue;

function isObject(v: JsonValue | undefined): v is { [k: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function arrayIndex(t: string, length: number, forAdd: boolean): number | undefined {
  if (forAdd && t === '-') return length;
  if (!/^(0|[1-9][0-9]*)$/.test(t)) return undefined;
  const i = Number(t);
  return i < length + (forAdd ? 1 : 0) ? i : undefined;
}

class PatchError extends Error {}

function get(doc: JsonValue, path: string): JsonValue {
  let cur: JsonValue = doc;
  for (const t of tokens(path)) {
    if (Array.isArray(cur)) {
      const i = arrayIndex(t, cur.length, false);
      if (i === undefined) throw new PatchError(`${path} does not exist`);
      cur = cur[i]!;
    } else if (isObject(cur) && Object.prototype.hasOwnProperty.call(cur, t)) cur = cur[t]!;
    else throw new PatchError(`${path} does not exist`);
  }
  return cur;
}

/** the parent container and the last token; throws when the parent does not exist */
function parentOf(doc: JsonValue, path: string): { parent: JsonValue; key: string } {
  const ts = tokens(path);
  const key = ts.pop()!;
  const parentPath = ts.length === 0 ? '' : '/' + ts.map((t) => t.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  return { parent: get(doc, parentPath), key };
}

function add(doc: JsonValue, path: string, value: JsonValue): JsonValue {
  if (path === '') return value;
  const { parent, key } = parentOf(doc, path);
  if (Array.isArray(parent)) {
    const i = arrayIndex(key, parent.length, true);
    if (i === undefined) throw new PatchError(`${path}: index out of range`);
    parent.splice(i, 0, value);
  } else if (isObject(parent)) parent[key] = value;
  else throw new PatchError(`${path}: the parent is not an object or an array`);
  return doc;
}

function remove(doc: JsonValue, path: string): JsonValue {
  if (path === '') throw new PatchError('cannot remove the whole document');
  const { parent, key } = parentOf(doc, path);
  if (Array.isArray(parent)) {
    const i = arrayIndex(key, parent.length, false);
    if (i === undefined) throw new PatchError(`${path} does not exist`);
    parent.splice(i, 1);
  } else if (isObject(parent) && Object.prototype.hasOwnProperty.call(parent, key)) delete parent[key];
  else throw new PatchError(`${path} does not exist`);
  return doc;
}

/** in place: the member keeps its place among its siblings */
function replace(doc: JsonValue, path: string, value: JsonValue): JsonValue {
  get(doc, path);
  if (path === '') return value;
  const { parent, key } = parentOf(doc, path);
  if (Array.isArray(parent)) parent[arrayIndex(key, parent.length, false)!] = value;
  else (parent as { [k: string]: JsonValue })[key] = value;
  return doc;
}

function deepEqual(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]!));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length &&
      ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k]!, b[k]!))
    );
  }
  return false;
}

/** Applies the whole patch to a copy of `doc`, or says which operation failed. */
export function applyJsonPatch(doc: JsonValue, patch: readonly JsonPatchOp[]): PatchResult {
  let cur = clone(doc);
  for (let i = 0; i < patch.length; i++) {
    const o = patch[i]!;
    try {
      switch (o.op) {
        case 'add':
          cur = add(cur, o.path, clone(o.value));
          break;
        case 'remove':
          cur = remove(cur, o.path);
          break;
        case 'replace':
          cur = replace(cur, o.path, clone(o.value));
          break;
        case 'move': {
          if (o.path !== o.from && o.path.startsWith(o.from + '/'))
            throw new PatchError(`cannot move ${o.from} into one of its own children`);
          const v = get(cur, o.from);
          cur = add(remove(cur, o.from), o.path, v);
          break;
        }
        case 'copy':
          cur = add(cur, o.path, clone(get(cur, o.from)));
          break;
        case 'test':
          if (!deepEqual(get(cur, o.path), o.value))
            throw new PatchError(`test failed: ${o.path} is not ${JSON.stringify(o.value)}`);
          break;
      }
    } catch (err) {
      if (err instanceof PatchError)
        return { ok: false, index: i, message: `operation ${i} (${o.op} ${o.path}): ${err.message}` };
      throw err;
    }
  }
  return { ok: true, value: cur };
}
