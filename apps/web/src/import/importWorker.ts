/**
 * An imported file read, scaffolded, laid out and linted off the page (importInWorker.ts asks): a
 * 5,000-queue definitions file held the page in one task of over a second, the lint most of it. The
 * designs are answered as soon as they are laid out (the page draws them), their lint when the page
 * asks, once it has drawn them: on two cores a lint run beside the draw made the draw's task wait for a core.
 */
import type { ReadDocument } from '@retry-studio/topology-core/io';
import type { LayoutShape } from '../graph/autoLayout';
import { readDocument, type ReadOutcome } from './readDocument';
import { prepareDocuments, type ImportProgress, type PreparedDesign } from './prepareImport';
import { designLint, type DesignLint } from '../offpage/lintView';

export type ImportAsk =
  | { readonly kind: 'read'; readonly text: string; readonly fileName?: string }
  | { readonly kind: 'prepare'; readonly docs: readonly ReadDocument[]; readonly shape?: LayoutShape }
  /** the designs prepared last: their lint, each as a 'linted' reply */
  | { readonly kind: 'lint' };

export type ImportReply =
  | { readonly kind: 'read'; readonly outcome: ReadOutcome }
  | { readonly kind: 'progress'; readonly progress: ImportProgress }
  | { readonly kind: 'prepared'; readonly designs: PreparedDesign[] }
  /** the lint of the `doc`-th design prepared (no broker probed) */
  | { readonly kind: 'linted'; readonly doc: number; readonly lint: DesignLint }
  | { readonly kind: 'failed'; readonly message: string };

const reply = (r: ImportReply) => self.postMessage(r);
let prepared: readonly PreparedDesign[] = [];

self.onmessage = async (e: MessageEvent<ImportAsk>) => {
  const ask = e.data;
  try {
    if (ask.kind === 'read') reply({ kind: 'read', outcome: await readDocument(ask.text, ask.fileName) });
    else if (ask.kind === 'prepare') {
      prepared = await prepareDocuments(ask.docs, ask.shape, (progress) => reply({ kind: 'progress', progress }));
      reply({ kind: 'prepared', designs: [...prepared] });
    } else prepared.forEach((d, doc) => reply({ kind: 'linted', doc, lint: designLint(d.design) }));
  } catch (err) {
    reply({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
  }
};
