import { describe, expect, it } from 'vitest';
import { traceVerdict, type TraceEnd } from './traceVerdict.js';

const end = (over: Partial<TraceEnd> = {}): TraceEnd => ({
  requested: 'complete',
  asked: 200,
  published: 200,
  confirmed: 200,
  nacked: 0,
  connectionOpen: true,
  ...over,
});

describe('traceVerdict', () => {
  it('complete only when everything asked was published and confirmed, on a live connection', () => {
    expect(traceVerdict(end())).toEqual({ state: 'complete' });
    expect(traceVerdict(end({ confirmed: 190, nacked: 10 }))).toEqual({ state: 'complete' });
  });

  it('a short publish is incomplete, with the count and the cause', () => {
    const v = traceVerdict(end({ published: 65, confirmed: 65, publishError: 'channel refused' }));
    expect(v.state).toBe('incomplete');
    expect(v.reason).toBe('published 65 of 200 message(s) (channel refused)');
    expect(traceVerdict(end({ confirmed: 150 })).reason).toBe('the broker confirmed 150 of 200 publish(es)');
  });

  it('a connection gone for good is failed, whatever was published', () => {
    const v = traceVerdict(
      end({ published: 65, confirmed: 65, connectionOpen: false, connectionError: 'ACCESS_REFUSED' }),
    );
    expect(v).toEqual({
      state: 'failed',
      reason:
        "the trace's connection to the broker is gone and did not come back (ACCESS_REFUSED): published 65 of 200 message(s)",
    });
  });

  it('a stopped or failed trace keeps its state', () => {
    expect(traceVerdict(end({ requested: 'stopped', published: 3 }))).toEqual({ state: 'stopped' });
    expect(traceVerdict(end({ requested: 'failed' }))).toEqual({ state: 'failed' });
  });
});
