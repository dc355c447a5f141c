/** Celery 5 runs each corpus task's retry options in a real worker; a task out of retries is acked and gone (discarded). */
import { describeProofs } from './testing/proofCases.js';

describeProofs('celery', [
  { file: 'celery/written_autoretry_tasks.py', what: 'defaults of autoretry: retry_backoff=True, jitter' },
  { file: 'celery/base_task.py', what: 'a trap: exponential back-off with retry_jitter=False' },
  { file: 'celery/written_explicit_retry.py', what: 'self.retry(countdown=2) with task_acks_late' },
  { file: 'celery/deferred-diffusion-worker.py', what: 'a trap: retry settings Celery never reads' },
]);
