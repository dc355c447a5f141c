/**
 * The page's side of an import (importWorker.ts): read a file, then prepare the documents chosen,
 * with progress; one worker per import, ended when it is done. Without workers (unit tests) the same
 * functions run here.
 */
import type { ReadDocument } from '@retry-studio/topology-core/io';
import type { LayoutShape } from '../graph/autoLayout';
import { readDocument, type ReadOutcome } from './readDocument';
import { prepareDocuments, type ImportProgress, type PreparedDesign } from './prepareImport';
import type { ImportAsk, ImportReply } from './importWorker';

export interface ImportSession {
  read(text: string, fileName?: string): Promise<ReadOutcome>;
  prepare(
    docs: readonly ReadDocument[],
    shape: LayoutShape | undefined,
    progress: (p: ImportProgress) => void,
  ): Promise<PreparedDesign[]>;
  /** ends the worker (a cancelled vhost choice, a finished import) */
  close(): void;
}

export function importSession(): ImportSession {
  if (typeof Worker === 'undefined')
    return {
      read: async (text, fileName) => readDocument(text, fileName),
      prepare: (docs, shape, progress) => prepareDocuments(docs, shape, progress),
      close: () => undefined,
    };
  const worker = new Worker(new URL('./importWorker.ts', import.meta.url), { type: 'module' });
  /** the one question being answered: its reply handler */
  let on: ((r: ImportReply) => void) | null = null;
  worker.onmessage = (e: MessageEvent<ImportReply>) => on?.(e.data);
  const ask = <T>(q: ImportAsk, handle: (r: ImportReply, done: (v: T) => void) => void): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      on = (r) => {
        if (r.kind === 'failed') reject(new Error(r.message));
        else handle(r, resolve);
      };
      worker.onerror = (e) => reject(new Error(e.message || 'the import stopped'));
      worker.postMessage(q);
    });
  return {
    read: (text, fileName) =>
      ask<ReadOutcome>({ kind: 'read', text, ...(fileName !== undefined ? { fileName } : {}) }, (r, done) => {
        if (r.kind === 'read') done(r.outcome);
      }),
    prepare: (docs, shape, progress) =>
      ask<PreparedDesign[]>({ kind: 'prepare', docs, ...(shape ? { shape } : {}) }, (r, done) => {
        if (r.kind === 'progress') progress(r.progress);
        else if (r.kind === 'prepared') done(r.designs);
      }),
    close: () => worker.terminate(),
  };
}
