/**
 * The page's side of an import (importWorker.ts): read a file, then prepare the documents chosen,
 * with progress, and their lint once asked; one worker per import, ended once the last lint is in.
 * Without workers (unit tests) the same functions run here.
 */
import type { ReadDocument } from '@retry-studio/topology-core/io';
import type { LayoutShape } from '../graph/autoLayout';
import { readDocument, type ReadOutcome } from './readDocument';
import { prepareDocuments, type ImportProgress, type PreparedDesign } from './prepareImport';
import { designLint, type DesignLint } from '../offpage/lintView';
import type { ImportAsk, ImportReply } from './importWorker';

export interface Prepared {
  readonly designs: PreparedDesign[];
  /** each design's lint, in the same order, as the worker finishes it */
  readonly lints: Promise<DesignLint>[];
}

export interface ImportSession {
  read(text: string, fileName?: string): Promise<ReadOutcome>;
  prepare(
    docs: readonly ReadDocument[],
    shape: LayoutShape | undefined,
    progress: (p: ImportProgress) => void,
  ): Promise<Prepared>;
  /**
   * starts the lint of the designs prepared (their `lints` settle as it ends), asked once the page has drawn them:
   * on two cores a lint beside the draw made the draw's task wait for a core
   */
  lint(): void;
  /** ends the worker (a cancelled vhost choice, a failed import); a prepared import ends it with its last lint */
  close(): void;
}

export function importSession(): ImportSession {
  if (typeof Worker === 'undefined')
    return {
      read: async (text, fileName) => readDocument(text, fileName),
      prepare: async (docs, shape, progress) => {
        const designs = await prepareDocuments(docs, shape, progress);
        return { designs, lints: designs.map((d) => Promise.resolve().then(() => designLint(d.design))) };
      },
      // without a worker the lints run a turn after the prepare, on the page
      lint: () => undefined,
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
    prepare: (docs, shape, progress) => {
      const lints = docs.map(() => {
        let settle: { resolve: (l: DesignLint) => void; reject: (e: Error) => void } | undefined;
        const p = new Promise<DesignLint>((resolve, reject) => (settle = { resolve, reject }));
        return { p, settle: settle! };
      });
      let left = docs.length;
      return ask<Prepared>({ kind: 'prepare', docs, ...(shape ? { shape } : {}) }, (r, done) => {
        if (r.kind === 'progress') progress(r.progress);
        else if (r.kind === 'prepared') done({ designs: r.designs, lints: lints.map((l) => l.p) });
        else if (r.kind === 'linted') {
          lints[r.doc]?.settle.resolve(r.lint);
          // the last lint in: the worker's work is done
          if (--left === 0) worker.terminate();
        }
      });
    },
    lint: () => worker.postMessage({ kind: 'lint' } satisfies ImportAsk),
    close: () => worker.terminate(),
  };
}
