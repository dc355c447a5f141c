/**
 * One reader for every file the tools accept: a design document (any version), or a
 * RabbitMQ definitions export (which has no consumers: they come back empty).
 */
import type { OmittedField } from '../model/definitionFields.js';
import type { Design } from '../model/design.js';
import type { ValidationIssue } from '../model/validateResult.js';
import { parseDesign } from '../model/validateDesign.js';
import {
  designFromTopology,
  importDefinitions,
  looksLikeDefinitions,
  type ImportDefinitionsOptions,
} from './definitions.js';
import { isPlainObject } from '../model/validateResult.js';
import { describeJsonError } from './jsonSyntax.js';
import { objectCount, vhostContents } from './definitionsVhosts.js';
import type { SkippedBinding } from './brokerObjects.js';
import type { PluginPolicyKey } from './pluginPolicyKeys.js';
import { profileForVersion } from '../sim/profileForVersion.js';
import { SCENARIO_FORMAT, type Scenario } from '../scenario/types.js';
import { scenarioConsumers } from '../scenario/fromScenario.js';
import type { PublisherSpec } from '../model/publisher.js';
import { DESIGN_FORMAT, DESIGN_VERSION } from '../model/design.js';

/** `app-config`: an application's retry configuration (appconfig floor, read above this one) */
export type DocumentKind = 'design' | 'definitions' | 'scenario' | 'app-config';

export type LoadedDocument =
  | {
      readonly ok: true;
      readonly kind: DocumentKind;
      readonly design: Design;
      readonly warnings: readonly ValidationIssue[];
      readonly vhost?: string;
      /** a definitions file's bindings to or from an object it does not declare: read past (what each broker does: brokerObjects.ts) */
      readonly skippedBindings?: readonly SkippedBinding[];
      /** a definitions file's queue and exchange fields left out (model/definitionFields.ts) */
      readonly omittedFields?: readonly OmittedField[];
      /** a definitions file's plugin policy keys, dropped at import (io/pluginPolicyKeys.ts) */
      readonly pluginPolicyKeys?: readonly PluginPolicyKey[];
    }
  | {
      readonly ok: false;
      readonly kind?: DocumentKind;
      readonly errors: readonly ValidationIssue[];
      readonly warnings: readonly ValidationIssue[];
    };

/**
 * A retry-scenario/1 file as a design: its topology, its consumers as scripts, and one
 * publisher per distinct publish step (the steps' timing is not kept).
 */
export function designFromScenario(v: unknown): { ok: true; design: unknown } | { ok: false; error: ValidationIssue } {
  if (!isPlainObject(v))
    return { ok: false, error: { path: '', code: 'scenario-type', message: 'a scenario must be an object' } };
  if (
    !Array.isArray(v.consumers) ||
    !v.consumers.every((c) => isPlainObject(c) && typeof c.queue === 'string' && Array.isArray(c.actions))
  )
    return {
      ok: false,
      error: { path: 'consumers', code: 'field-type', message: 'consumers must be [{queue, actions}]' },
    };
  if (!Array.isArray(v.steps))
    return { ok: false, error: { path: 'steps', code: 'field-type', message: 'steps must be an array' } };
  const s = v as unknown as Scenario;
  const publishers: PublisherSpec[] = [];
  const seen = new Set<string>();
  s.steps.forEach((st) => {
    if (!isPlainObject(st) || !isPlainObject((st as { publish?: unknown }).publish)) return;
    const p = (
      st as {
        publish: {
          exchange: string;
          routing_key: string;
          mandatory?: boolean;
          properties?: PublisherSpec['properties'];
        };
      }
    ).publish;
    const key = JSON.stringify([p.exchange, p.routing_key, p.properties ?? null, p.mandatory ?? false]);
    if (seen.has(key)) return;
    seen.add(key);
    publishers.push({
      id: `publish-${publishers.length + 1}`,
      exchange: p.exchange,
      routingKey: p.routing_key,
      bodyPrefix: `p${publishers.length + 1}`,
      ...(p.properties ? { properties: p.properties } : {}),
      ...(p.mandatory ? { mandatory: true } : {}),
    });
  });
  let consumers;
  try {
    consumers = scenarioConsumers(s);
  } catch (e) {
    return {
      ok: false,
      error: { path: 'consumers', code: 'field-type', message: `cannot read the consumers: ${(e as Error).message}` },
    };
  }
  return {
    ok: true,
    design: {
      format: DESIGN_FORMAT,
      version: DESIGN_VERSION,
      name: typeof s.name === 'string' ? s.name : 'scenario',
      ...(typeof s.description === 'string' ? { description: s.description } : {}),
      topology: s.topology,
      consumers,
      publishers,
    },
  };
}

/** JSON text -> value; a byte-order mark is accepted, a syntax error gives line and column. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; error: ValidationIssue } {
  // editors on Windows (and PowerShell's Out-File) start UTF-8 files with a byte-order mark
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false, error: { path: '', code: 'json-syntax', message: describeJsonError(body).message } };
  }
}

export function loadDocument(
  text: string,
  opts: ImportDefinitionsOptions & { readonly name?: string } = {},
): LoadedDocument {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, errors: [parsed.error], warnings: [] };
  return loadValue(parsed.value, opts);
}

/**
 * A file as one document per vhost: a whole-broker definitions file with objects in several
 * vhosts (and no vhost asked for) gives one design per vhost, each named `NAME (VHOST)` and
 * carrying its vhost; anything else gives one document. The first failure stops it.
 */
export function loadDocumentVhosts(
  text: string,
  opts: ImportDefinitionsOptions & { readonly name?: string } = {},
): { ok: true; docs: (LoadedDocument & { ok: true })[] } | (LoadedDocument & { ok: false }) {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, errors: [parsed.error], warnings: [] };
  return loadValueVhosts(parsed.value, opts);
}

/** loadDocumentVhosts on parsed JSON. */
export function loadValueVhosts(
  v: unknown,
  opts: ImportDefinitionsOptions & { readonly name?: string } = {},
): { ok: true; docs: (LoadedDocument & { ok: true })[] } | (LoadedDocument & { ok: false }) {
  const full =
    opts.vhost === undefined && looksLikeDefinitions(v) && isPlainObject(v)
      ? vhostContents(v).filter((c) => c.name !== undefined && objectCount(c) > 0)
      : [];
  if (full.length <= 1) {
    const one = loadValue(v, opts);
    return one.ok ? { ok: true, docs: [one] } : one;
  }
  const docs: (LoadedDocument & { ok: true })[] = [];
  const emptied: ValidationIssue[] = [];
  let lastEmpty: LoadedDocument | undefined;
  for (const c of full) {
    const r = loadValue(v, { ...opts, vhost: c.name!, name: `${opts.name ?? 'imported'} (${c.name})` });
    // a vhost whose every object is skipped (only server-named queues, say) is said, not fatal
    if (!r.ok && r.errors.every((e) => e.code === 'vhost-empty')) {
      emptied.push(
        ...r.errors.map((e) => ({
          ...e,
          message: `vhost "${c.name}": ${e.message.replace(/; the file's vhosts with objects: .*$/, '')}`,
        })),
      );
      lastEmpty = r;
      continue;
    }
    if (!r.ok) return { ...r, errors: r.errors.map((e) => ({ ...e, message: `vhost "${c.name}": ${e.message}` })) };
    docs.push(r);
  }
  if (docs.length === 0) return lastEmpty as LoadedDocument & { ok: false };
  if (emptied.length > 0) docs[0] = { ...docs[0]!, warnings: [...docs[0]!.warnings, ...emptied] };
  return { ok: true, docs };
}

export function loadValue(
  v: unknown,
  opts: ImportDefinitionsOptions & { readonly name?: string } = {},
): LoadedDocument {
  if (isPlainObject(v) && Object.keys(v).length === 0)
    return {
      ok: false,
      errors: [
        {
          path: '',
          code: 'document-empty',
          message:
            'an empty JSON object: expected a Retry Studio design (format, topology, ...) or a RabbitMQ definitions export (exchanges, queues, bindings, ...)',
        },
      ],
      warnings: [],
    };
  if (looksLikeDefinitions(v)) {
    const r = importDefinitions(v, opts);
    if (!r.ok) return { ok: false, kind: 'definitions', errors: r.errors, warnings: r.warnings };
    // a file exported from a 4.x broker is simulated under that broker's rules (3.10 is the default)
    const profile = profileForVersion(r.rabbitVersion);
    const base = designFromTopology(r.topology, opts.name ?? 'imported');
    const design = r.vhost !== undefined ? { ...base, vhost: r.vhost } : base;
    return {
      ok: true,
      kind: 'definitions',
      design: profile && profile !== '3.10' ? { ...design, profile } : design,
      warnings: r.warnings,
      ...(r.vhost !== undefined ? { vhost: r.vhost } : {}),
      ...(r.skippedBindings.length > 0 ? { skippedBindings: r.skippedBindings } : {}),
      ...(r.omittedFields.length > 0 ? { omittedFields: r.omittedFields } : {}),
      ...(r.pluginPolicyKeys.length > 0 ? { pluginPolicyKeys: r.pluginPolicyKeys } : {}),
    };
  }
  if (isPlainObject(v) && v.format === SCENARIO_FORMAT) {
    const c = designFromScenario(v);
    if (!c.ok) return { ok: false, kind: 'scenario', errors: [c.error], warnings: [] };
    const r = parseDesign(c.design);
    if (!r.ok) return { ok: false, kind: 'scenario', errors: r.errors, warnings: r.warnings };
    return { ok: true, kind: 'scenario', design: r.design, warnings: r.warnings };
  }
  const r = parseDesign(v);
  if (!r.ok) return { ok: false, kind: 'design', errors: r.errors, warnings: r.warnings };
  return { ok: true, kind: 'design', design: r.design, warnings: r.warnings };
}
