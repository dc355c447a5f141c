import { describe, expect, it } from 'vitest';
import { MAX_BROWSE } from './limits.js';
import { browseRequest, planRequest, redriveRequest, teardownRequest, traceRequest } from './schemas.js';

const firstIssue = (r: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string; code: string }> };
}) => r.error?.issues[0];

describe('the contract request schemas', () => {
  it('refuse a field the contract does not name', () => {
    const i = firstIssue(planRequest.safeParse({ design: {}, vhost: 'v', colour: 'red' }));
    expect(i?.code).toBe('unrecognized_keys');
  });

  it('count a vhost name in UTF-8 bytes, as the broker does', () => {
    expect(planRequest.safeParse({ design: {}, vhost: 'é'.repeat(127) }).success).toBe(true);
    const i = firstIssue(planRequest.safeParse({ design: {}, vhost: 'é'.repeat(128) }));
    expect(i?.path).toEqual(['vhost']);
    expect(i?.message).toMatch(/255 bytes/);
  });

  it('refuse a prefix the broker reserves', () => {
    const i = firstIssue(teardownRequest.safeParse({ designName: 'd', prefix: 'amq.x' }));
    expect(i?.path).toEqual(['prefix']);
  });

  it('browse no more than MAX_BROWSE messages', () => {
    expect(browseRequest.safeParse({ queue: 'q.dlq', limit: MAX_BROWSE }).success).toBe(true);
    expect(firstIssue(browseRequest.safeParse({ queue: 'q.dlq', limit: MAX_BROWSE + 1 }))?.path).toEqual(['limit']);
  });

  it('take a trace expiration only as a decimal string of ms', () => {
    expect(traceRequest.safeParse({ design: {}, expiration: '5000' }).success).toBe(true);
    expect(firstIssue(traceRequest.safeParse({ design: {}, expiration: '5s' }))?.path).toEqual(['expiration']);
  });

  it('need the queue of a re-drive', () => {
    expect(firstIssue(redriveRequest.safeParse({ dryRun: true }))?.path).toEqual(['queue']);
  });
});
