/** Celery 5 runs each corpus task's retry options in a real worker. */
import { describeProofs } from './testing/proofCases.js';

describeProofs('celery', [
  { file: 'celery/task_base.py', what: 'exponential back-off with jitter (retry_kwargs)' },
  { file: 'celery/shared_task.py', what: 'retry_backoff=5 from the decorator' },
  { file: 'celery/task.py', what: 'exponential back-off, six attempts' },
  { file: 'celery/base_task.py', what: 'a trap: retry_jitter=False' },
]);
