/**
 * The tuner off the main thread: a tuning run rehearses dozens of candidates (seconds to tens of
 * seconds), which would freeze the page. The browser runs the same core function as the CLI
 * (`tune`), so the answer is the CLI's; no server round trip, and it works without a broker.
 */
import {
  resolveTuneInput,
  tune,
  type TuneInput,
  type TuneResult,
  type TuneInputIssue,
} from '@retry-studio/topology-core/tune';

export type TuneReply =
  | { readonly kind: 'result'; readonly result: TuneResult }
  | { readonly kind: 'invalid'; readonly issues: readonly TuneInputIssue[] }
  | { readonly kind: 'error'; readonly message: string };

self.onmessage = (e: MessageEvent<TuneInput>) => {
  try {
    const r = resolveTuneInput(e.data);
    if (!r.ok) {
      self.postMessage({ kind: 'invalid', issues: r.issues } satisfies TuneReply);
      return;
    }
    const result = tune({
      profile: r.profile,
      goals: r.goals,
      templates: r.templates,
      ...(r.from ? { from: r.from } : {}),
    });
    self.postMessage({ kind: 'result', result } satisfies TuneReply);
  } catch (err) {
    self.postMessage({ kind: 'error', message: (err as Error).message } satisfies TuneReply);
  }
};
