/**
 * A file's text as the value the readers take: JSON, else the definitions a Kubernetes or Helm YAML
 * file declares (io/kubernetesManifests.ts), with notes saying where they were read from. The YAML
 * reader (and the `yaml` library) loads only for a text that is not JSON and holds RabbitMQ objects:
 * a lint of a definitions JSON never evaluates it (bench:cli).
 */
import { holdsRabbitObjects } from '../model/appFileKind.js';
import type { ValidationIssue } from '../model/validateResult.js';
import { parseJsonText } from './load.js';

export type DocumentText =
  | { readonly ok: true; readonly value: unknown; readonly notes: readonly ValidationIssue[] }
  | { readonly ok: false; readonly error: ValidationIssue };

export async function parseDocumentText(text: string): Promise<DocumentText> {
  const json = parseJsonText(text);
  if (json.ok) return { ...json, notes: [] };
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!holdsRabbitObjects(body)) return json;
  const { definitionsFromManifests } = await import('./kubernetesManifests.js');
  const yaml = definitionsFromManifests(body);
  if (!yaml) return json;
  return yaml.ok
    ? { ok: true, value: yaml.reading.value, notes: yaml.reading.notes }
    : { ok: false, error: yaml.error };
}
