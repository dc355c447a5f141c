/** AMQP table checks (arguments, headers, policy definitions) shared by the validators. */
import type { AmqpValue } from './definitions.js';
import { MAX_NAME_BYTES, isForbiddenKey, pathIndex, pathKey, utf8ByteLength } from './names.js';
import { IssueSink, isPlainObject } from './validateResult.js';

/**
 * Checks an AMQP table (arguments, headers): an object, no prototype-polluting keys at any
 * depth, keys at most 255 bytes, values JSON-representable.
 */
export function checkTable(
  sink: IssueSink,
  path: string,
  table: unknown,
  what = 'arguments',
): table is Record<string, AmqpValue> {
  if (table === undefined) return false;
  if (!isPlainObject(table)) {
    sink.error(path, 'table-type', `${what} must be an object of key/value pairs`);
    return false;
  }
  let ok = true;
  for (const key of Object.keys(table)) {
    const p = pathKey(path, key);
    if (isForbiddenKey(key)) {
      sink.error(p, 'forbidden-key', `the key "${key}" is not allowed (prototype pollution)`);
      ok = false;
      continue;
    }
    if (utf8ByteLength(key) > MAX_NAME_BYTES) {
      sink.error(p, 'key-too-long', `key is longer than ${MAX_NAME_BYTES} bytes`);
      ok = false;
    }
    if (!checkValue(sink, p, table[key])) ok = false;
  }
  return ok;
}

function checkValue(sink: IssueSink, path: string, v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) {
      sink.error(path, 'value-type', 'must be a finite number');
      return false;
    }
    return true;
  }
  if (Array.isArray(v)) return v.every((x, i) => checkValue(sink, pathIndex(path, i), x));
  if (isPlainObject(v)) return checkTable(sink, path, v, 'a nested table');
  sink.error(path, 'value-type', `unsupported value type ${typeof v}`);
  return false;
}
