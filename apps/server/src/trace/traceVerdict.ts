/**
 * How a trace ended, said truthfully: `complete` only when every message asked for was published
 * and confirmed, and the trace's connection is there at the end. A trace that could not publish
 * everything (a channel or connection refused) is `incomplete`, one whose connection is gone for
 * good (a reconnect refused: the password changed, the vhost deleted) `failed`, each with the
 * reason. A stopped or failed trace keeps its state.
 */
import type { TraceSummary } from '@retry-studio/contract';

export interface TraceEnd {
  readonly requested: 'complete' | 'stopped' | 'failed';
  /** messages the trace was asked to publish */
  readonly asked: number;
  readonly published: number;
  readonly confirmed: number;
  readonly nacked: number;
  readonly connectionOpen: boolean;
  /** the last error the connection or a reconnect gave, if any */
  readonly connectionError?: string | undefined;
  /** the publisher's last error, if any */
  readonly publishError?: string | undefined;
}

export type TraceVerdict = { readonly state: TraceSummary['state']; readonly reason?: string };

export function traceVerdict(e: TraceEnd): TraceVerdict {
  if (e.requested !== 'complete') return { state: e.requested };
  const published = `published ${e.published} of ${e.asked} message(s)`;
  if (!e.connectionOpen) {
    return {
      state: 'failed',
      reason: `the trace's connection to the broker is gone and did not come back${e.connectionError ? ` (${e.connectionError})` : ''}: ${published}`,
    };
  }
  if (e.published < e.asked)
    return { state: 'incomplete', reason: `${published}${e.publishError ? ` (${e.publishError})` : ''}` };
  const settled = e.confirmed + e.nacked;
  if (settled < e.published)
    return {
      state: 'incomplete',
      reason: `the broker confirmed ${settled} of ${e.published} publish(es)${e.publishError ? ` (${e.publishError})` : ''}`,
    };
  return { state: 'complete' };
}
