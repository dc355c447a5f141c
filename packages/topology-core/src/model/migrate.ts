/**
 * Design document migrations, tldraw style: each migration takes the document at version
 * N-1 and returns it at version N; `migrateDesign` runs the ones it needs in order.
 * Version 0 is the bare shape written before the document was versioned:
 * `{ topology, consumers?, publishers?, name? }` (no `format`, no `version`).
 */
import { DESIGN_FORMAT, DESIGN_VERSION } from './design.js';
import { isPlainObject } from './validateResult.js';

export interface Migration {
  /** the version this migration produces */
  readonly version: number;
  readonly description: string;
  readonly up: (doc: Record<string, unknown>) => Record<string, unknown>;
}

export const DESIGN_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'add format/version; default name, consumers and publishers',
    up: (doc) => ({
      ...doc,
      format: DESIGN_FORMAT,
      version: 1,
      name: typeof doc.name === 'string' ? doc.name : 'untitled',
      consumers: doc.consumers ?? [],
      publishers: doc.publishers ?? [],
    }),
  },
];

export type MigrateResult =
  | {
      readonly ok: true;
      readonly doc: Record<string, unknown>;
      readonly from: number;
      readonly applied: readonly number[];
    }
  | { readonly ok: false; readonly path: string; readonly message: string; readonly code: string };

/** Version of a stored document: its `version`, or 0 for the unversioned shape. */
export function designVersionOf(doc: Record<string, unknown>): number | undefined {
  if (doc.version === undefined && doc.format === undefined) return 0;
  return typeof doc.version === 'number' && Number.isInteger(doc.version) ? doc.version : undefined;
}

export function migrateDesign(
  input: unknown,
  migrations: readonly Migration[] = DESIGN_MIGRATIONS,
  current = DESIGN_VERSION,
): MigrateResult {
  if (!isPlainObject(input))
    return { ok: false, path: '', code: 'design-type', message: 'a design must be a JSON object' };
  if (input.format !== undefined && input.format !== DESIGN_FORMAT)
    return {
      ok: false,
      path: 'format',
      code: 'design-format',
      message: `format must be "${DESIGN_FORMAT}", got ${JSON.stringify(input.format)}`,
    };
  const from = designVersionOf(input);
  if (from === undefined)
    return { ok: false, path: 'version', code: 'design-version', message: 'version must be an integer' };
  if (from > current)
    return {
      ok: false,
      path: 'version',
      code: 'design-too-new',
      message: `version ${from} was written by a newer Retry Studio (this one reads up to ${current})`,
    };
  if (from < 0) return { ok: false, path: 'version', code: 'design-version', message: 'version must be >= 0' };
  let doc: Record<string, unknown> = { ...input };
  const applied: number[] = [];
  for (let v = from + 1; v <= current; v++) {
    const m = migrations.find((x) => x.version === v);
    if (!m)
      return { ok: false, path: 'version', code: 'design-migration-missing', message: `no migration to version ${v}` };
    doc = m.up(doc);
    doc.version = v;
    applied.push(v);
  }
  return { ok: true, doc, from, applied };
}
