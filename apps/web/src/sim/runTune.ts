/** Starts a tuning run in a Web Worker (tuneWorker.ts); `cancel` ends it (terminating the worker). */
import type { TuneInput } from '@retry-studio/topology-core/tune';
import type { TuneReply } from './tuneWorker';

export function runTune(input: TuneInput, onReply: (r: TuneReply) => void): { cancel: () => void } {
  const w = new Worker(new URL('./tuneWorker.ts', import.meta.url), { type: 'module' });
  w.onmessage = (e: MessageEvent<TuneReply>) => {
    onReply(e.data);
    w.terminate();
  };
  w.onerror = (e) => {
    onReply({ kind: 'error', message: e.message || 'the tuner stopped' });
    w.terminate();
  };
  w.postMessage(input);
  return { cancel: () => w.terminate() };
}
