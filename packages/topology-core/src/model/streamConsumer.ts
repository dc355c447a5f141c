/**
 * What a consumer of a stream may do. A stream is an append-only log read by offset
 * (docs streams "Consuming"): an ack only grants credit, nothing is removed, so a stream cannot
 * dead-letter and has nothing to requeue. basic.reject / basic.nack are refused by RabbitMQ
 * 3.10 (the connection closes with 540 NOT_IMPLEMENTED, measured on 3.10.8) and change nothing
 * on 4.x (measured on 4.3.6). A stream consumer needs a prefetch (basic.qos) of at least 1.
 */
import { STREAM_OFFSETS } from './consumer.js';
import { pathIndex } from './names.js';
import { isPlainObject } from './validateResult.js';

export interface StreamConsumerIssue {
  readonly path: string;
  readonly code: string;
  readonly message: string;
}

const WHY_NO_REJECT =
  'a stream cannot dead-letter or requeue: it is read by offset and an ack removes nothing (RabbitMQ 3.10 closes the connection on basic.reject/nack, 4.x ignores them); ack (or republish) instead';

function actionIssues(a: unknown, path: string, out: StreamConsumerIssue[]): void {
  if (!isPlainObject(a)) return;
  if (a.kind === 'reject' || a.kind === 'requeue')
    out.push({ path: `${path}.kind`, code: 'stream-no-reject', message: `${a.kind} on a stream: ${WHY_NO_REJECT}` });
  if (a.kind === 'retryInProcess') actionIssues(a.recover, `${path}.recover`, out);
  if (a.kind === 'defer') actionIssues(a.then, `${path}.then`, out);
}

function rulesIssues(rules: unknown, path: string, out: StreamConsumerIssue[]): void {
  if (!Array.isArray(rules)) return;
  rules.forEach((r, i) => {
    if (isPlainObject(r)) actionIssues(r.then, `${pathIndex(path, i)}.then`, out);
  });
}

/** Issues of a consumer (raw, as parsed) that reads a stream; paths relative to `path` (the consumer). */
export function streamConsumerIssues(c: { readonly [k: string]: unknown }, path: string): StreamConsumerIssue[] {
  const out: StreamConsumerIssue[] = [];
  const off = c.streamOffset;
  if (
    off !== undefined &&
    !(typeof off === 'number'
      ? Number.isInteger(off) && off >= 0
      : (STREAM_OFFSETS as readonly unknown[]).includes(off))
  )
    out.push({
      path: `${path}.streamOffset`,
      code: 'stream-offset',
      message: `streamOffset must be first, last, next or a non-negative integer offset; got ${JSON.stringify(off)}`,
    });
  if (c.prefetch === 0)
    out.push({
      path: `${path}.prefetch`,
      code: 'stream-prefetch',
      message: 'a stream consumer needs a prefetch of at least 1 (the broker refuses an unlimited one)',
    });
  const b = c.behaviour;
  if (!isPlainObject(b)) return out;
  const bp = `${path}.behaviour`;
  if (b.kind === 'script' && Array.isArray(b.actions))
    b.actions.forEach((a, i) => actionIssues(a, pathIndex(`${bp}.actions`, i), out));
  if (b.kind === 'worker') {
    actionIssues(b.onSuccess, `${bp}.onSuccess`, out);
    rulesIssues(b.onFailure, `${bp}.onFailure`, out);
  }
  if (b.kind === 'router') rulesIssues(b.rules, `${bp}.rules`, out);
  return out;
}
