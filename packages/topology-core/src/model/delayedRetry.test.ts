import { describe, expect, it } from 'vitest';
import type { AmqpTable, Topology } from './definitions.js';
import { validateTopology } from './validateTopology.js';
import { delayedRetryArgumentNotes, delayedRetryPolicyRefusals, effectiveDelayedRetry } from './delayedRetry.js';
import { T } from '../../testing/builders.js';

/** 4.3.6's answers to PUT /api/policies (measured; re-measured by apps/server/src/broker/delayedRetry.integration.test.ts) */
export const BROKER_POLICY_ANSWERS: readonly (readonly [AmqpTable, string | undefined])[] = [
  [{ 'delayed-retry-type': 'all' }, 'delayed-retry-min is required when delayed-retry-type is all'],
  [{ 'delayed-retry-type': 'failed' }, 'delayed-retry-min is required when delayed-retry-type is failed'],
  [
    { 'delayed-retry-type': 'returned', 'delayed-retry-max': 100 },
    'delayed-retry-min is required when delayed-retry-type is returned',
  ],
  [
    { 'delayed-retry-type': 'all', 'delayed-retry-min': 1000, 'delayed-retry-max': 500 },
    'delayed-retry-max (500) must not be smaller than delayed-retry-min (1000)',
  ],
  [
    { 'delayed-retry-min': 1000, 'delayed-retry-max': 500 },
    'delayed-retry-max (500) must not be smaller than delayed-retry-min (1000)',
  ],
  [
    { 'delayed-retry-type': 'all', 'delayed-retry-min': -1 },
    '-1 is not a valid delayed retry minimum delay. Must be a positive integer',
  ],
  [
    { 'delayed-retry-type': 'all', 'delayed-retry-min': 0 },
    '0 is not a valid delayed retry minimum delay. Must be a positive integer',
  ],
  [
    { 'delayed-retry-type': 'all', 'delayed-retry-min': 1.5 },
    '1.5 is not a valid delayed retry minimum delay. Must be a positive integer',
  ],
  [
    { 'delayed-retry-type': 'all', 'delayed-retry-min': '100' },
    '<<"100">> is not a valid delayed retry minimum delay. Must be a positive integer',
  ],
  [
    { 'delayed-retry-type': 'all', 'delayed-retry-min': 100, 'delayed-retry-max': -5 },
    '-5 is not a valid delayed retry maximum delay. Must be a positive integer',
  ],
  [
    { 'delayed-retry-type': 'all', 'delayed-retry-min': 100, 'delayed-retry-max': 0 },
    '0 is not a valid delayed retry maximum delay. Must be a positive integer',
  ],
  [
    { 'delayed-retry-type': 'bogus', 'delayed-retry-min': 100 },
    '<<"bogus">> is not a valid delayed retry type. Must be one of: all, failed, returned, disabled',
  ],
  [
    { 'delayed-retry-type': 'ALL', 'delayed-retry-min': 100 },
    '<<"ALL">> is not a valid delayed retry type. Must be one of: all, failed, returned, disabled',
  ],
  [
    { 'delayed-retry-type': true, 'delayed-retry-min': 100 },
    'true is not a valid delayed retry type. Must be one of: all, failed, returned, disabled',
  ],
  [{ 'delayed-retry-min': 100 }, undefined],
  [{ 'delayed-retry-max': 50 }, undefined],
  [{ 'delayed-retry-type': 'disabled' }, undefined],
  [{ 'delayed-retry-type': 'all', 'delayed-retry-min': 100, 'delayed-retry-max': 100 }, undefined],
  [{ 'delayed-retry-type': 'all', 'delayed-retry-min': 4294967296 }, undefined],
];

const values = (d: AmqpTable) => ({
  type: d['delayed-retry-type'],
  min: d['delayed-retry-min'],
  max: d['delayed-retry-max'],
});

describe('delayed retry as RabbitMQ 4.3.6 reads it', () => {
  it.each(BROKER_POLICY_ANSWERS.map(([d, r]) => [JSON.stringify(d), d, r] as const))('policy %s', (_, d, reason) => {
    const refusals = delayedRetryPolicyRefusals(values(d)).map((r) => r.reason);
    if (reason === undefined) expect(refusals).toEqual([]);
    else expect(refusals).toContain(reason);
  });

  it("policy validation refuses what the broker refuses, naming the key, in the broker's words", () => {
    for (const [definition, reason] of BROKER_POLICY_ANSWERS) {
      const t: Topology = {
        ...T.topology(T.queue('q', { quorum: true })),
        policies: [{ name: 'p', pattern: '^q$', 'apply-to': 'quorum_queues', priority: 0, definition } as never],
      };
      const r = validateTopology(t);
      if (reason === undefined) expect(r.errors, JSON.stringify(definition)).toEqual([]);
      else {
        const e = r.errors.find((x) => x.message.includes(reason));
        expect(e, JSON.stringify(definition)).toBeDefined();
        expect(e!.path).toMatch(/^policies\[0\]\.definition\.delayed-retry-(type|min|max)$/);
      }
    }
  });

  it('queue arguments are never refused: each one 4.3.6 does not run as written gets a warning naming it and what runs instead', () => {
    const warn = (args: AmqpTable) => {
      const r = validateTopology(T.topology(T.queue('q', { quorum: true, args })));
      expect(r.errors).toEqual([]);
      return r.warnings.filter((w) => w.code === 'delayed-retry-not-as-written').map((w) => `${w.path}: ${w.message}`);
    };
    expect(warn({ 'x-delayed-retry-type': 'all' })).toEqual([
      expect.stringMatching(/^queues\[0\]\.arguments\.x-delayed-retry-min: .*needs x-delayed-retry-min.*disabled/),
    ]);
    expect(warn({ 'x-delayed-retry-type': 'all', 'x-delayed-retry-min': 0 })).toEqual([
      expect.stringMatching(/x-delayed-retry-min: x-delayed-retry-min 0 is not a positive integer.*disabled/),
    ]);
    expect(warn({ 'x-delayed-retry-type': 'bogus', 'x-delayed-retry-min': 10 })).toEqual([
      expect.stringMatching(/x-delayed-retry-type: .*"bogus".*disabled/),
    ]);
    expect(warn({ 'x-delayed-retry-type': 'all', 'x-delayed-retry-min': 100, 'x-delayed-retry-max': -5 })).toEqual([
      expect.stringMatching(/x-delayed-retry-max: .*every delay is 100 ms/),
    ]);
    expect(warn({ 'x-delayed-retry-type': 'all', 'x-delayed-retry-min': 1000, 'x-delayed-retry-max': 500 })).toEqual([
      expect.stringMatching(/x-delayed-retry-max: .*every delay is 500 ms/),
    ]);
    expect(warn({ 'x-delayed-retry-type': 'all', 'x-delayed-retry-min': 100, 'x-delayed-retry-max': 1000 })).toEqual(
      [],
    );
  });

  it("what a quorum queue runs with (the management API's delayed_retry, measured)", () => {
    expect(effectiveDelayedRetry({ type: 'all' })).toBeUndefined();
    expect(effectiveDelayedRetry({ type: 'all', min: -1 })).toBeUndefined();
    expect(effectiveDelayedRetry({ type: 'bogus', min: 300 })).toBeUndefined();
    expect(effectiveDelayedRetry({ type: 'all', min: 300 })).toEqual({ type: 'all', minMs: 300, maxMs: 300 });
    expect(effectiveDelayedRetry({ type: 'all', min: 100, max: 0 })).toEqual({ type: 'all', minMs: 100, maxMs: 100 });
    expect(effectiveDelayedRetry({ type: 'all', min: 1000, max: 500 })).toEqual({
      type: 'all',
      minMs: 1000,
      maxMs: 500,
    });
    expect(effectiveDelayedRetry({ type: 'returned', min: 100 })).toEqual({ type: 'returned', minMs: 100, maxMs: 100 });
    expect(delayedRetryArgumentNotes({ min: 100 })).toEqual([]);
  });
});
