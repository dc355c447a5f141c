/** Template registry access (core) and opening a template into the designer. */
import { type ValidationIssue } from '@retry-studio/topology-core/model';
import {
  buildTemplate as coreBuild,
  coerceParam,
  getTemplate,
  listTemplates as coreList,
  type BuiltTemplate,
  type ParamSpec,
  type RetryTemplate,
} from '@retry-studio/topology-core/templates';
import { useApp } from '../store/store';
import { canvasShape } from '../graph/canvasShape';
import { wrapToShape } from '../graph/wrapLayout';

export type { ParamSpec };
export type TemplateInfo = RetryTemplate;

export function listTemplates(): readonly RetryTemplate[] {
  return coreList();
}

export type BuildResult = { ok: true; built: BuiltTemplate } | { ok: false; errors: readonly ValidationIssue[] };

export function buildTemplate(id: string, params: Record<string, unknown> = {}): BuildResult {
  try {
    const r = coreBuild(id, params);
    return r.ok ? { ok: true, built: r.template } : { ok: false, errors: r.errors };
  } catch (e) {
    return { ok: false, errors: [{ path: '', code: 'error', message: (e as Error).message }] };
  }
}

/**
 * Draws a template as a new named design. The design open now stays stored, and the switch is
 * one undo step (the store's `loadDesign`); an untouched template is not kept once replaced.
 */
export function openTemplate(id: string, params: Record<string, unknown> = {}): BuildResult {
  const r = buildTemplate(id, params);
  if (!r.ok) return r;
  const tuned = tunedParams(getTemplate(id)?.params ?? [], params);
  // tuned parameters are work: a kept design, named for what was tuned; an untouched template may be replaced
  const built = r.built.design;
  // the template's columns wrapped to the canvas's shape: a wide one opened as one unreadable row
  const laid = built.layout ? { ...built, layout: wrapToShape(built.layout, canvasShape()) } : built;
  const design = tuned.length ? { ...laid, name: `${laid.name} (${tuned.join(', ')})` } : laid;
  useApp.getState().loadDesign(design, { pristine: tuned.length === 0 });
  useApp.setState({ view: 'designer', sideTab: 'inspect', inspectedMsg: null });
  return r;
}

/** The parameters given a value other than their default, as `name value` (empty: the template as it comes). */
export function tunedParams(specs: readonly ParamSpec[], params: Record<string, unknown>): string[] {
  return specs.flatMap((p) => {
    if (!(p.name in params) || params[p.name] === undefined) return [];
    const v = params[p.name];
    if (JSON.stringify(v) === JSON.stringify(p.default)) return [];
    return [`${p.name} ${Array.isArray(v) ? v.join('/') : String(v)}${p.unit === 'ms' ? ' ms' : ''}`];
  });
}

/** `/?template=ID` (with optional `&NAME=value` params) opens the designer with it drawn. */
export function openFromUrl(q: URLSearchParams): boolean {
  const id = q.get('template');
  if (!id) return false;
  const t = getTemplate(id);
  const params: Record<string, unknown> = {};
  for (const [k, v] of q) {
    if (k === 'template') continue;
    const spec = t?.params.find((p) => p.name === k);
    if (spec) params[k] = coerceParam(spec, v);
  }
  const r = openTemplate(id, params);
  if (!r.ok) {
    useApp.getState().setView('gallery');
    useApp.getState().notify(`Template "${id}": ${r.errors.map((e) => e.message).join('; ')}`, 'error');
  }
  return r.ok;
}
