/**
 * A reader as a table of settings: each row is a key, how its value is typed, the framework's
 * default and where it is stated, and how it maps onto the design. One engine reads a table: the
 * value is looked up, typed (a bad value is an error naming the key and line), recorded with its
 * source (or the default with its citation), and applied.
 */
import { AppConfigFailure } from '../types.js';
import { springDurationMs } from './durations.js';
import { bool, type FrameworkDefault, type ReadValue, type SourceBuilder } from './sourceBuilder.js';

export type SettingType = 'boolean' | 'number' | 'int' | 'duration' | 'string';

type Typed<T extends SettingType> = T extends 'boolean' ? boolean : T extends 'string' ? string : number;

export interface SettingRow<S, T extends SettingType = SettingType> {
  readonly key: string;
  readonly type: T;
  /** the framework's default where the key is absent (none: an absent key is not recorded) */
  readonly default?: FrameworkDefault;
  /** how the value shapes what is read */
  readonly apply: (into: S, value: Typed<T>, entry: (ReadValue & { readonly key: string }) | undefined) => void;
}

/** A row, typed by its `type` (keeps `apply`'s value typed where the table is written). */
export const row = <S, T extends SettingType>(r: SettingRow<S, T>): SettingRow<S> => r as unknown as SettingRow<S>;

const DURATION_HINT = 'a duration (1000, 500ms, 2s, PT1S)';

function typed(type: SettingType, raw: string, key: string, file: string, line?: number): boolean | number | string {
  const fail = (what: string): never => {
    throw new AppConfigFailure({
      file,
      ...(line !== undefined ? { line } : {}),
      message: `${key} must be ${what}, got "${raw}"`,
    });
  };
  switch (type) {
    case 'boolean':
      return bool(raw) ?? fail('true or false');
    case 'number': {
      const n = Number(raw.trim());
      return raw.trim() !== '' && Number.isFinite(n) ? n : fail('a number');
    }
    case 'int': {
      const n = Number(raw.trim());
      return raw.trim() !== '' && Number.isFinite(n) ? Math.trunc(n) : fail('a whole number');
    }
    case 'duration':
      return springDurationMs(raw) ?? fail(DURATION_HINT);
    case 'string':
      return raw;
  }
}

/**
 * Reads every row of a table into `into`. `lookup(key)`: the entry for a row's key (with the full
 * key it was found under); `nameOf(key)`: the full key to record a default under.
 */
export function readSettings<S>(
  rows: readonly SettingRow<S>[],
  into: S,
  src: SourceBuilder,
  lookup: (key: string) => (ReadValue & { readonly key: string }) | undefined,
  nameOf: (key: string) => string,
): S {
  for (const r of rows) {
    const e = lookup(r.key);
    if (e) {
      src.readValue(e.key, e);
      r.apply(into, typed(r.type, e.value, e.key, e.file ?? src.file, e.line) as never, e);
    } else if (r.default) {
      src.defaulted(nameOf(r.key), r.default);
      r.apply(into, typed(r.type, r.default.value, nameOf(r.key), src.file) as never, undefined);
    }
  }
  return into;
}
