/**
 * What the server and a worker thread say to each other about one job: the job to run, then the
 * worker's estimate of its size (the server sets the job's time budget from it), then its answer
 * (already JSON, checked against the answer budget) or its refusal or failure.
 */
import type { WorkBudget } from '@retry-studio/topology-core/sizing';

export interface RunJob {
  readonly type: 'run';
  readonly kind: string;
  readonly input: unknown;
  readonly budget: WorkBudget;
}

/** a refusal a job gives (bad input, over budget): an HTTP status, a sentence and the field to blame */
export interface JobRefusalBody {
  readonly status: number;
  readonly message: string;
  readonly field?: string;
  readonly details?: Record<string, unknown>;
}

export type WorkerReport =
  | { readonly type: 'ready' }
  | {
      readonly type: 'size';
      readonly bytes: number;
      readonly steps: number;
      readonly answerBytes: number;
      /** the field that makes the work big, and what it makes */
      readonly field: string;
      readonly what: string;
    }
  | { readonly type: 'done'; readonly json: string }
  | ({ readonly type: 'refused' } & JobRefusalBody)
  | { readonly type: 'failed'; readonly message: string };
