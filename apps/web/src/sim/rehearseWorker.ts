/**
 * Rehearsals off the main thread: an hour of traffic takes up to a couple of seconds per design,
 * and a comparison rehearses several. The browser runs the core's `rehearse` (the function the
 * CLI's `retry-studio rehearse` runs), so the figures are the CLI's.
 */
import type { Design } from '@retry-studio/topology-core/model';
import {
  rehearse,
  RehearsalLoadError,
  type RehearsalLoad,
  type RehearsalReport,
} from '@retry-studio/topology-core/rehearse';

export interface RehearseRun {
  readonly label: string;
  readonly design: Design;
  readonly load: RehearsalLoad;
}

export interface RehearsedRun {
  readonly label: string;
  readonly report: RehearsalReport;
}

export type RehearseReply =
  | { readonly kind: 'result'; readonly runs: readonly RehearsedRun[] }
  | { readonly kind: 'invalid'; readonly label: string; readonly message: string }
  | { readonly kind: 'error'; readonly message: string };

self.onmessage = (e: MessageEvent<readonly RehearseRun[]>) => {
  const runs: RehearsedRun[] = [];
  for (const r of e.data) {
    try {
      runs.push({ label: r.label, report: rehearse(r.design, r.load) });
    } catch (err) {
      const reply: RehearseReply =
        err instanceof RehearsalLoadError
          ? { kind: 'invalid', label: r.label, message: err.message }
          : { kind: 'error', message: `${r.label}: ${(err as Error).message}` };
      self.postMessage(reply);
      return;
    }
  }
  self.postMessage({ kind: 'result', runs } satisfies RehearseReply);
};
