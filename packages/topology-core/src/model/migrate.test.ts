import { describe, expect, it } from 'vitest';
import { migrateDesign, type Migration } from './migrate.js';

describe('migrateDesign', () => {
  it('leaves a current document alone', () => {
    const r = migrateDesign({ format: 'retry-studio/design', version: 1, name: 'x' });
    expect(r).toMatchObject({ ok: true, from: 1, applied: [] });
  });
  it('runs migrations in order up to the current version', () => {
    const ms: Migration[] = [
      { version: 1, description: 'v1', up: (d) => ({ ...d, format: 'retry-studio/design', a: 1 }) },
      { version: 2, description: 'v2', up: (d) => ({ ...d, b: (d.a as number) + 1 }) },
    ];
    const r = migrateDesign({ name: 'x' }, ms, 2);
    expect(r).toMatchObject({ ok: true, from: 0, applied: [1, 2], doc: { a: 1, b: 2, version: 2 } });
  });
  it('fails on a missing step and on newer documents', () => {
    expect(migrateDesign({ name: 'x' }, [], 1)).toMatchObject({ ok: false, code: 'design-migration-missing' });
    expect(migrateDesign({ format: 'retry-studio/design', version: 3 })).toMatchObject({
      ok: false,
      path: 'version',
      code: 'design-too-new',
    });
    expect(migrateDesign({ format: 'retry-studio/design', version: 'one' })).toMatchObject({
      ok: false,
      path: 'version',
    });
  });
});
