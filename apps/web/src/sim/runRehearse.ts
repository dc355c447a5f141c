/** Starts rehearsals in a Web Worker (rehearseWorker.ts); `cancel` ends them (terminating the worker). */
import type { RehearseReply, RehearseRun } from './rehearseWorker';

export function runRehearse(runs: readonly RehearseRun[], onReply: (r: RehearseReply) => void): { cancel: () => void } {
  const w = new Worker(new URL('./rehearseWorker.ts', import.meta.url), { type: 'module' });
  w.onmessage = (e: MessageEvent<RehearseReply>) => {
    onReply(e.data);
    w.terminate();
  };
  w.onerror = (e) => {
    onReply({ kind: 'error', message: e.message || 'the rehearsal stopped' });
    w.terminate();
  };
  w.postMessage(runs);
  return { cancel: () => w.terminate() };
}
