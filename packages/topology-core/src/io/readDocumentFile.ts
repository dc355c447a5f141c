/**
 * The one way a file's text becomes designs, for the CLI and the browser alike: a design, a
 * retry scenario or RabbitMQ definitions; a whole-broker file with objects in several vhosts
 * gives one design per vhost (unless one is asked for), and every vhost the file names is
 * listed with its object counts so that a reader can say what it holds and what it left out.
 * Another file kind (an application's config, say) plugs in here, once, for both.
 */
import type { OmittedField } from '../model/definitionFields.js';
import type { Design } from '../model/design.js';
import type { Topology } from '../model/definitions.js';
import { isPlainObject, type ValidationIssue } from '../model/validateResult.js';
import { looksLikeDefinitions } from './definitions.js';
import { vhostContents, type VhostContents } from './definitionsVhosts.js';
import { loadValueVhosts, parseJsonText, type DocumentKind } from './load.js';
import { parseDocumentText, type DocumentText } from './documentText.js';
import type { SkippedBinding } from './brokerObjects.js';
import type { PluginPolicyKey } from './pluginPolicyKeys.js';

export interface ReadDocumentOptions {
  /** the file's name (a path is fine): `orders-definitions.json` names the design `orders-definitions` */
  readonly fileName?: string;
  /** read this vhost only of a whole-broker definitions file */
  readonly vhost?: string;
}

export interface ReadDocument {
  readonly kind: DocumentKind;
  readonly design: Design;
  /** validation warnings and the import's notes (`skipped`, `not-imported`, `field-ignored`, ...) */
  readonly warnings: readonly ValidationIssue[];
  /** the vhost read from a definitions file (undefined: a design, or a per-vhost export) */
  readonly vhost?: string;
  /** bindings skipped because the file does not declare one of their ends (a broker accepts such a file) */
  readonly skippedBindings?: readonly SkippedBinding[];
  /** a definitions file's queue and exchange fields left out (model/definitionFields.ts) */
  readonly omittedFields?: readonly OmittedField[];
  /** a definitions file's plugin policy keys, dropped at import (io/pluginPolicyKeys.ts) */
  readonly pluginPolicyKeys?: readonly PluginPolicyKey[];
}

export type ReadDocumentResult =
  | {
      readonly ok: true;
      readonly kind: DocumentKind;
      /** one per vhost with objects, in file order (one for anything but a several-vhost definitions file) */
      readonly docs: readonly ReadDocument[];
      /** every vhost a definitions file names, empty ones too, with its object counts ([] for a design) */
      readonly vhosts: readonly VhostContents[];
      /** the file's `rabbitmq_version` (or `rabbit_version`): the broker it was exported from */
      readonly rabbitVersion?: string;
    }
  | {
      readonly ok: false;
      readonly kind?: DocumentKind;
      readonly errors: readonly ValidationIssue[];
      readonly warnings: readonly ValidationIssue[];
    };

/** the warnings that say what an import left out or changed (as against a design's validation warnings) */
export const IMPORT_NOTE_CODES: readonly string[] = ['read-from', 'skipped', 'not-imported', 'field-ignored'];

/** `exports/orders-definitions.json` -> `orders-definitions`; undefined for a blank name */
export function fileStem(fileName: string): string | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return base.replace(/\.(json|ya?ml)$/i, '').trim() || undefined;
}

const isBuiltIn = (name: string) => name === '' || name.startsWith('amq.');

/**
 * A name for a design that came without one (pasted text): its vhost when not the default,
 * else its first own exchange, else its first queue; "imported" only when it holds nothing.
 */
export function nameFromContent(topology: Topology, vhost: string | undefined): string {
  if (vhost !== undefined && vhost !== '/') return vhost;
  const exchange = topology.exchanges.find((e) => !isBuiltIn(e.name));
  return exchange?.name ?? topology.queues[0]?.name ?? 'imported';
}

function versionOf(v: unknown): string | undefined {
  if (!isPlainObject(v)) return undefined;
  const rv = typeof v.rabbitmq_version === 'string' ? v.rabbitmq_version : v.rabbit_version;
  return typeof rv === 'string' && rv.trim() ? rv : undefined;
}

/** A JSON file's text (a design, a scenario, definitions) read as designs, one per vhost of a whole-broker export. */
export function readDocumentFile(text: string, opts: ReadDocumentOptions = {}): ReadDocumentResult {
  const parsed = parseJsonText(text);
  return readDocumentValue(parsed.ok ? { ...parsed, notes: [] } : parsed, opts);
}

/**
 * readDocumentFile for any file the tools accept: JSON, or the definitions a Kubernetes or Helm YAML
 * file holds (io/documentText.ts, io/kubernetesManifests.ts). The CLI and the browser's import read through it.
 */
export async function readDocumentText(text: string, opts: ReadDocumentOptions = {}): Promise<ReadDocumentResult> {
  return readDocumentValue(await parseDocumentText(text), opts);
}

function readDocumentValue(parsed: DocumentText, opts: ReadDocumentOptions): ReadDocumentResult {
  const name = opts.fileName !== undefined ? fileStem(opts.fileName) : undefined;
  if (!parsed.ok) return { ok: false, errors: [parsed.error], warnings: [] };
  const value = parsed.value;
  const r = loadValueVhosts(value, {
    ...(name !== undefined ? { name } : {}),
    ...(opts.vhost !== undefined ? { vhost: opts.vhost } : {}),
  });
  if (!r.ok) return { ...r, warnings: [...parsed.notes, ...r.warnings] };
  const definitions = looksLikeDefinitions(value) && isPlainObject(value);
  const kind = r.docs[0]!.kind;
  const docs = r.docs.map((d, i): ReadDocument => {
    // a design names itself; definitions and scenarios pasted without a file are named from what they hold
    const design =
      name === undefined && d.kind === 'definitions'
        ? { ...d.design, name: nameFromContent(d.design.topology, d.vhost) }
        : d.design;
    return {
      kind: d.kind,
      design,
      // where the file's definitions were read from is said once, with the first vhost's
      warnings: i === 0 ? [...parsed.notes, ...d.warnings] : d.warnings,
      ...(d.vhost !== undefined ? { vhost: d.vhost } : {}),
      ...(d.skippedBindings ? { skippedBindings: d.skippedBindings } : {}),
      ...(d.omittedFields ? { omittedFields: d.omittedFields } : {}),
      ...(d.pluginPolicyKeys ? { pluginPolicyKeys: d.pluginPolicyKeys } : {}),
    };
  });
  const rabbitVersion = definitions ? versionOf(value) : undefined;
  return {
    ok: true,
    kind,
    docs,
    vhosts: definitions ? vhostContents(value) : [],
    ...(rabbitVersion ? { rabbitVersion } : {}),
  };
}
