/** Template registry access (core) and opening a template into the designer. */
import {
  buildTemplate as coreBuild,
  coerceParam,
  getTemplate,
  listTemplates as coreList,
  type BuiltTemplate,
  type ParamSpec,
  type RetryTemplate,
  type ValidationIssue,
} from '@retry-studio/topology-core';
import { useApp } from '../store/store';
import { player } from '../sim/player';

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

/** Draws a template: a new document (history restarts), simulation cleared, view fitted. */
export function openTemplate(id: string, params: Record<string, unknown> = {}): BuildResult {
  const r = buildTemplate(id, params);
  if (!r.ok) return r;
  const s = useApp.getState();
  player.reset();
  player.load('sim', null);
  player.load('live', null);
  s.loadDesign(r.built.design);
  useApp.setState({ simEvents: null, liveEvents: null, simError: null, inspectedMsg: null, view: 'designer', sideTab: 'inspect' });
  s.requestFit();
  return r;
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
