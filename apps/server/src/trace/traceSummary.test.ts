import { describe, expect, it } from 'vitest';
import { TraceAccounting } from './accounting.js';
import { EventLog } from './eventLog.js';
import { traceSummary, type SummaryParts } from './traceSummary.js';

const parts = (over: Partial<SummaryParts> = {}): SummaryParts => ({
  id: 't1',
  state: 'complete',
  asked: 5,
  balance: { published: 5, acked: 2, parked: 2, inFlight: 0, dropped: 1, unaccounted: [], balanced: true },
  accounting: new TraceAccounting({ now: () => 0, nextSeq: () => 0, out: () => undefined }),
  resting: { dlq: 2 },
  brokerDepths: { dlq: { ready: 1, unacked: 0 } },
  log: new EventLog(),
  publish: { published: 5, confirmed: 5, nacked: 0, retried: 0, maxInFlight: 1, windowWaits: 0 },
  reconnects: 0,
  cancelledConsumers: [],
  duplicates: 0,
  unavailable: {},
  lostWhileUnavailable: {},
  deadLettersDropped: {},
  deadLettersDuplicated: {},
  nodeLoss: undefined,
  endedWaitingFor: undefined,
  endReason: undefined,
  error: undefined,
  ...over,
});

describe('traceSummary', () => {
  it('counts the dead letters the broker dropped as dropped, not parked; each message still once', () => {
    const s = traceSummary(parts({ deadLettersDropped: { dlq: 1 } }));
    expect(s).toMatchObject({
      published: 5,
      acked: 2,
      parked: 1,
      dropped: 2,
      inFlight: 0,
      balanced: true,
      deadLettersDropped: { dlq: 1 },
    });
    expect(s.acked + s.parked + s.inFlight + s.dropped).toBe(s.published);
  });

  it('leaves out what did not happen (no broker drops, duplicates, node loss, error)', () => {
    const s = traceSummary(parts());
    expect(s.parked).toBe(2);
    for (const k of [
      'deadLettersDropped',
      'deadLettersDuplicated',
      'nodeLoss',
      'error',
      'endReason',
      'endedWaitingFor',
    ])
      expect(s).not.toHaveProperty(k);
    expect(traceSummary(parts({ deadLettersDuplicated: { dlq: 1 }, endReason: 'the topology changed' }))).toMatchObject(
      { deadLettersDuplicated: { dlq: 1 }, endReason: 'the topology changed' },
    );
  });

  it('balanced only when every message asked for was published (65 of 200 is not balanced)', () => {
    expect(traceSummary(parts()).balanced).toBe(true);
    expect(traceSummary(parts({ asked: 200 })).balanced).toBe(false);
  });

  it('copies a parking queue holds twice count as duplicates', () => {
    expect(traceSummary(parts({ duplicates: 1, deadLettersDuplicated: { dlq: 2 } })).duplicates).toBe(3);
  });
});
