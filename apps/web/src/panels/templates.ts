/** Template registry access (core) and opening a template into the designer. */
import type { Design, ValidationIssue } from '@retry-studio/topology-core';
import { coreFn } from '../core/bridge';
import { useApp } from '../store/store';
import { player } from '../sim/player';

export type ParamValue = number | string | boolean | readonly number[];
export interface ParamSpec {
  readonly name: string;
  readonly label: string;
  readonly type: 'integer' | 'string' | 'boolean' | 'enum' | 'integer-list';
  readonly default: ParamValue;
  readonly min?: number;
  readonly max?: number;
  readonly options?: readonly string[];
  readonly unit?: 'ms' | 'count';
  readonly help?: string;
}
export interface TemplateInfo {
  readonly id: string;
  readonly title: string;
  readonly summary: string;
  readonly params: readonly ParamSpec[];
  readonly requires: readonly string[];
  readonly profile: string;
  readonly runsOnStock310?: boolean;
}
export interface Built {
  readonly design: Design;
  readonly explanation: string;
}

export function templatesAvailable(): boolean {
  return !!coreFn('listTemplates') && !!coreFn('buildTemplate');
}

export function listTemplates(): TemplateInfo[] {
  const f = coreFn<() => TemplateInfo[]>('listTemplates');
  return f ? f() : [];
}

export type BuildResult = { ok: true; built: Built } | { ok: false; errors: readonly ValidationIssue[] };

export function buildTemplate(id: string, params: Record<string, unknown> = {}): BuildResult {
  const f = coreFn<(id: string, p: Record<string, unknown>) => unknown>('buildTemplate');
  if (!f) return { ok: false, errors: [{ path: '', code: 'unavailable', message: 'templates are not in this build of topology-core yet' }] };
  try {
    const r = f(id, params) as Record<string, unknown>;
    if (r && r.ok === false) return { ok: false, errors: (r.errors as ValidationIssue[]) ?? [] };
    const built = (r.built ?? r.template ?? r) as Built;
    if (!built.design) return { ok: false, errors: [{ path: '', code: 'unknown', message: `template "${id}" produced no design` }] };
    return { ok: true, built };
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
  useApp.setState({ simEvents: null, liveEvents: null, simError: null, inspectedMsg: null, view: 'designer' });
  s.requestFit();
  return r;
}

/** `/?template=ID` (with optional `p.NAME=value` params) opens the designer with it drawn. */
export function openFromUrl(q: URLSearchParams): boolean {
  const id = q.get('template');
  if (!id) return false;
  const params: Record<string, unknown> = {};
  for (const [k, v] of q) if (k.startsWith('p.')) params[k.slice(2)] = v;
  const r = openTemplate(id, params);
  if (!r.ok) {
    useApp.getState().setView('gallery');
    useApp.getState().notify(`Template "${id}": ${r.errors.map((e) => e.message).join('; ')}`, 'error');
  }
  return r.ok;
}
