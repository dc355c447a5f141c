/**
 * The corpus's files (README.md beside this file) and the one way its tests read them: as the CLI
 * and the browser do (the core's readDocumentText: JSON, or the definitions a Kubernetes or Helm YAML
 * file holds), and, for loading into a broker, the definitions value that reading starts from.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocumentText, readDocumentText, type ReadDocumentResult } from '@retry-studio/topology-core/io';

export const CORPUS_DIR = path.dirname(fileURLToPath(import.meta.url));

/** every real file kept here (definitions JSON, templates, Kubernetes and Helm YAML), by name */
export const CORPUS_FILES: readonly string[] = readdirSync(CORPUS_DIR)
  .filter((f) => /\.(json(\.tpl)?|ya?ml)$/.test(f) && !f.startsWith('broker-'))
  .sort();

const text = (file: string): string => readFileSync(path.join(CORPUS_DIR, file), 'utf8');

/** The file read as the CLI reads it: one design per vhost with objects. */
export function readCorpusFile(file: string): Promise<ReadDocumentResult> {
  return readDocumentText(text(file), { fileName: file });
}

/** The definitions value the file declares (a YAML file's: what the reader builds from its resources and embedded JSON). */
export async function corpusDefinitions(file: string): Promise<Record<string, unknown>> {
  const r = await parseDocumentText(text(file));
  if (!r.ok) throw new Error(`${file}: ${r.error.message}`);
  return r.value as Record<string, unknown>;
}
