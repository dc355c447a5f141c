/**
 * Celery 5 runs each corpus task's retry options in a real worker. When the retries run out the
 * task fails and its message is acked: gone, which import-app calls "acked" today.
 */
import { describeProofs, discardedReadAsAcked } from './testing/proofCases.js';

describeProofs('celery', [
  {
    file: 'celery/task_base.py',
    what: 'exponential back-off with jitter (retry_kwargs)',
    differs: discardedReadAsAcked('BaseTaskWithRetry'),
  },
  {
    file: 'celery/shared_task.py',
    what: 'retry_backoff=5 from the decorator',
    differs: discardedReadAsAcked('some_task'),
  },
  { file: 'celery/task.py', what: 'exponential back-off, six attempts', differs: discardedReadAsAcked('Task') },
  {
    file: 'celery/base_task.py',
    what: 'a trap: retry_jitter=False',
    differs: discardedReadAsAcked('BaseTaskWithRetry'),
  },
]);
