/**
 * One reader for every file the tools accept: a design document (any version), or a
 * RabbitMQ definitions export (which has no consumers: they come back empty).
 */
import type { Design } from '../model/design.js';
import type { ValidationIssue } from '../model/validateResult.js';
import { parseDesign } from '../model/validateDesign.js';
import { designFromTopology, importDefinitions, looksLikeDefinitions, type ImportDefinitionsOptions } from './definitions.js';

export type LoadedDocument =
  | { readonly ok: true; readonly kind: 'design' | 'definitions'; readonly design: Design; readonly warnings: readonly ValidationIssue[]; readonly vhost?: string }
  | { readonly ok: false; readonly kind?: 'design' | 'definitions'; readonly errors: readonly ValidationIssue[]; readonly warnings: readonly ValidationIssue[] };

export function loadDocument(text: string, opts: ImportDefinitionsOptions & { readonly name?: string } = {}): LoadedDocument {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [{ path: '', code: 'json-syntax', message: `not valid JSON: ${(e as Error).message}` }], warnings: [] };
  }
  return loadValue(v, opts);
}

export function loadValue(v: unknown, opts: ImportDefinitionsOptions & { readonly name?: string } = {}): LoadedDocument {
  if (looksLikeDefinitions(v)) {
    const r = importDefinitions(v, opts);
    if (!r.ok) return { ok: false, kind: 'definitions', errors: r.errors, warnings: r.warnings };
    return { ok: true, kind: 'definitions', design: designFromTopology(r.topology, opts.name ?? 'imported'), warnings: r.warnings, ...(r.vhost !== undefined ? { vhost: r.vhost } : {}) };
  }
  const r = parseDesign(v);
  if (!r.ok) return { ok: false, kind: 'design', errors: r.errors, warnings: r.warnings };
  return { ok: true, kind: 'design', design: r.design, warnings: r.warnings };
}
