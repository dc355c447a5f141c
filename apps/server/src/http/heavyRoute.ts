/**
 * A route's heavy work, run in a worker thread for this request (heavyJobs.ts names the kinds):
 * the request's client is its queue key, its going away stops the job, and every refusal is the
 * API's `{error, field}` with its status (400 bad input, 413 an answer over budget, 422 work over
 * budget, 429/503 with Retry-After when the queue cannot take it).
 */
import type { Request, Response } from 'express';
import type { AppContext } from './appContext.js';
import { HttpError } from './httpError.js';
import { WorkCancelled, WorkRefused } from '../work/heavyWorkers.js';
import { QueueRefusal } from '../work/workQueue.js';

/** the job's answer as JSON text */
export async function runHeavy(
  ctx: AppContext,
  req: Request,
  res: Response,
  kind: string,
  input: unknown,
): Promise<string> {
  const abort = new AbortController();
  const onClose = () => {
    if (!res.writableEnded) abort.abort();
  };
  res.on('close', onClose);
  try {
    return await ctx.heavy.run(kind, input, { client: req.socket.remoteAddress ?? '?', signal: abort.signal });
  } catch (e) {
    if (e instanceof QueueRefusal) {
      res.setHeader('Retry-After', String(e.retryAfterS));
      throw new HttpError(e.status, e.message);
    }
    if (e instanceof WorkRefused) throw new HttpError(e.status, e.message, e.field, e.details);
    // nobody reads the answer: the status is for the log
    if (e instanceof WorkCancelled) throw new HttpError(499, e.message);
    throw e;
  } finally {
    res.off('close', onClose);
  }
}

/** sends a job's JSON answer as it is */
export function sendJson(res: Response, json: string): void {
  res.type('application/json').send(json);
}
