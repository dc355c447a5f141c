/** A file's text read as the CLI reads it (the core's readDocumentText): the import worker's first step. */
import { readDocumentText, type ReadDocumentResult } from '@retry-studio/topology-core/io';
import { describeIssue } from '@retry-studio/topology-core/model';

export type ReadFile = Extract<ReadDocumentResult, { ok: true }>;
export type ReadOutcome = { errors: string[] } | { errors: []; file: ReadFile };

/**
 * Errors name the field (`wait.q: x-message-ttl must be ...`, not `queues[1].arguments.x-message-ttl: ...`).
 * One design opens at once; a file with objects in several vhosts asks which.
 */
export async function readDocument(raw: string, fileName?: string): Promise<ReadOutcome> {
  // JSON, or the definitions a Kubernetes manifest or Helm values file holds
  const r = await readDocumentText(raw, fileName !== undefined ? { fileName } : {});
  if (!r.ok) {
    const doc = parsedOrUndefined(raw);
    return { errors: r.errors.map((e) => (e.path ? describeIssue(doc, e) : e.message)) };
  }
  return { errors: [], file: r };
}

function parsedOrUndefined(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}
