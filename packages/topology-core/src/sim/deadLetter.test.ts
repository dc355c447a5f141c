import { describe, expect, it } from 'vitest';
import type { Msg } from './types.js';
import { EMPTY_HEADERS, deadLetterMsg, isCycle } from './deadLetter.js';
import { PROFILE_3_10, PROFILE_4_X } from './profiles.js';
import type { XDeathEntry } from '../model/xDeath.js';

const base = (o: Partial<Msg> = {}): Msg => ({
  id: 'm',
  logical: { id: 'm', index: 1, seen: 0, counts: undefined, runs: 0 },
  body: 'm',
  bytes: 1,
  exchange: 'x',
  routingKeys: ['rk'],
  headers: {},
  xDeath: undefined,
  xDeathFromClient: false,
  expiration: undefined,
  ccInKeys: true,
  deliveryCount: 0,
  ...o,
});
const death = (queue: string, reason: XDeathEntry['reason'], count = 1): XDeathEntry => ({
  queue,
  reason,
  count,
  exchange: 'x',
  'routing-keys': ['rk'],
});

// srv@v3.10.8 rabbit_dead_letter.erl L26-69, L117-156 (rabbitmq-semantics.md §1, §2)
describe('deadLetterMsg (3.10)', () => {
  it('item 36: first death writes one entry and x-first-death-*', () => {
    const d = deadLetterMsg(base(), 'Q', 'rejected', 'X', undefined, PROFILE_3_10, 5000);
    expect(d.xDeath).toEqual([
      { count: 1, reason: 'rejected', queue: 'Q', time: 5, exchange: 'x', 'routing-keys': ['rk'] },
    ]);
    expect(d.headers).toEqual({
      'x-first-death-reason': 'rejected',
      'x-first-death-queue': 'Q',
      'x-first-death-exchange': 'x',
    });
    expect(d.exchange).toBe('X');
    expect(d.routingKeys).toEqual(['rk']);
  });

  it('item 37/42: a repeat (queue, reason) counts in place, keeps first values, x-first-death unchanged', () => {
    const once = deadLetterMsg(base(), 'Q', 'rejected', '', undefined, PROFILE_3_10, 1000);
    const twice = deadLetterMsg(
      base({ headers: once.headers, xDeath: once.xDeath, exchange: 'other', routingKeys: ['zz'] }),
      'Q',
      'rejected',
      '',
      undefined,
      PROFILE_3_10,
      9000,
    );
    expect(twice.xDeath).toEqual([
      { count: 2, reason: 'rejected', queue: 'Q', time: 1, exchange: 'x', 'routing-keys': ['rk'] },
    ]);
    expect(twice.headers['x-first-death-exchange']).toBe('x');
  });

  it('item 12: per-message expiration is removed and recorded as original-expiration', () => {
    const d = deadLetterMsg(base({ expiration: '1' }), 'Q', 'expired', 'X', 'D', PROFILE_3_10, 0);
    expect(d.expiration).toBeUndefined();
    expect(d.xDeath?.[0]?.['original-expiration']).toBe('1');
    expect(d.routingKeys).toEqual(['D']);
  });

  it('items 39-41: CC kept without a DLRK, removed with one (3.10); routing-keys hold RK + CC, never BCC', () => {
    const m = base({ routingKeys: ['Q', 'cc 1', 'cc 2', 'bcc 1'], headers: { CC: ['cc 1', 'cc 2'] } });
    const noDlrk = deadLetterMsg(m, 'Q', 'rejected', 'X', undefined, PROFILE_3_10, 0);
    expect(noDlrk.headers['CC']).toEqual(['cc 1', 'cc 2']);
    expect(noDlrk.routingKeys).toEqual(['Q', 'cc 1', 'cc 2', 'bcc 1']);
    expect(noDlrk.xDeath?.[0]?.['routing-keys']).toEqual(['Q', 'cc 1', 'cc 2']);
    const withDlrk = deadLetterMsg(m, 'Q', 'rejected', 'X', 'D', PROFILE_3_10, 0);
    expect(withDlrk.headers['CC']).toBeUndefined();
    expect(withDlrk.routingKeys).toEqual(['D']);
    // after a DLRK the next death records just [DLRK]
    expect(
      deadLetterMsg(withDlrk, 'D', 'expired', 'X', undefined, PROFILE_3_10, 0).xDeath?.[0]?.['routing-keys'],
    ).toEqual(['D']);
  });

  it('3.10 regroups existing entries, reversing them when there are two or more (chained-ttl-tiers recording)', () => {
    const m = base({
      xDeath: [death('wait.1', 'expired'), death('work.0', 'rejected')],
      headers: { 'x-first-death-queue': 'work.0' },
    });
    expect(deadLetterMsg(m, 'work.1', 'rejected', 'X', undefined, PROFILE_3_10, 0).xDeath?.map((d) => d.queue)).toEqual(
      ['work.1', 'work.0', 'wait.1'],
    );
    expect(deadLetterMsg(m, 'work.1', 'rejected', 'X', undefined, PROFILE_4_X, 0).xDeath?.map((d) => d.queue)).toEqual([
      'work.1',
      'wait.1',
      'work.0',
    ]);
  });

  it('item 44 (3.10): an x-death copied by a client is counted on', () => {
    const m = base({
      xDeath: [death('Q', 'expired')],
      xDeathFromClient: true,
      headers: { 'x-first-death-queue': 'Q' },
    });
    expect(deadLetterMsg(m, 'Q', 'expired', 'X', undefined, PROFILE_3_10, 0).xDeath?.[0]?.count).toBe(2);
  });
});

// 4.x differences (rabbitmq-semantics.md §0, §1)
describe('deadLetterMsg (4.x)', () => {
  it('x-last-death-* on every death (srv@v4.2.9 mc.erl L426-447; docs dlx#effects)', () => {
    const once = deadLetterMsg(base(), 'Q1', 'rejected', 'X', undefined, PROFILE_4_X, 0);
    const twice = deadLetterMsg(once, 'Q2', 'expired', 'Y', undefined, PROFILE_4_X, 0);
    expect(twice.headers).toMatchObject({
      'x-first-death-queue': 'Q1',
      'x-last-death-queue': 'Q2',
      'x-last-death-reason': 'expired',
      'x-last-death-exchange': 'X',
    });
    expect(
      deadLetterMsg(base(), 'Q1', 'rejected', 'X', undefined, PROFILE_3_10, 0).headers['x-last-death-queue'],
    ).toBeUndefined();
  });

  it('CC kept with a DLRK (DLS@v4.2.9 dead_letter_headers_CC_with_routing_key: "we keep the CC header as of 3.13")', () => {
    const m = base({ routingKeys: ['Q', 'D'], headers: { CC: ['D'] } });
    const d = deadLetterMsg(m, 'Q', 'rejected', 'X', 'DL', PROFILE_4_X, 0);
    expect(d.headers['CC']).toEqual(['D']);
    expect(d.routingKeys).toEqual(['DL']);
  });

  it('client-set x-death is ignored on the next death: fresh count 1, x-first-death-* overwritten (RN 4.0.1; DLS@v4.2.9:1344)', () => {
    const m = base({
      xDeath: [death('Q', 'expired', 1)],
      xDeathFromClient: true,
      headers: { 'x-first-death-queue': 'old' },
    });
    const d = deadLetterMsg(m, 'Q', 'expired', 'X', undefined, PROFILE_4_X, 0);
    expect(d.xDeath).toHaveLength(1);
    expect(d.xDeath?.[0]?.count).toBe(1);
    expect(d.headers['x-first-death-queue']).toBe('Q');
  });
});

// srv@v3.10.8 rabbit_dead_letter.erl L197-246 (rabbitmq-semantics.md §2 "Cycle detection")
describe('isCycle', () => {
  it('never for rejected', () => {
    expect(isCycle('rejected', 'Q', [death('Q', 'rejected')])).toBe(false);
  });
  it('a target with no death is not a cycle', () => {
    expect(isCycle('expired', 'Q2', [death('Q1', 'expired')])).toBe(false);
  });
  it('item 35: Q1 -> Q2 -> Q1 by TTL only is a cycle', () => {
    expect(isCycle('expired', 'Q1', [death('Q2', 'expired'), death('Q1', 'expired')])).toBe(true);
  });
  it('item 34: a rejection between the head and the target breaks the cycle', () => {
    expect(isCycle('expired', 'b', [death('a3', 'expired'), death('a2', 'expired'), death('b', 'rejected')])).toBe(
      false,
    );
    expect(isCycle('expired', 'b', [death('a3', 'expired'), death('b', 'rejected', 2), death('a2', 'expired')])).toBe(
      false,
    );
  });
});

describe('sharing (copy-on-write)', () => {
  it('messages that die the same way share x-death entries, arrays and header tables; values stay per profile', () => {
    // publishes without headers share the empty table
    const a = deadLetterMsg(
      base({ id: 'a', headers: EMPTY_HEADERS }),
      'q',
      'rejected',
      'dlx',
      'wait',
      PROFILE_3_10,
      1000,
    );
    const b = deadLetterMsg(
      base({ id: 'b', headers: EMPTY_HEADERS }),
      'q',
      'rejected',
      'dlx',
      'wait',
      PROFILE_3_10,
      1000,
    );
    expect(b.xDeath).toBe(a.xDeath);
    expect(b.headers).toBe(a.headers);
    // a later second is a new entry
    const c = deadLetterMsg(base({ id: 'c' }), 'q', 'rejected', 'dlx', 'wait', PROFILE_3_10, 2000);
    expect(c.xDeath?.[0]?.time).toBe(2);
    // second deaths (two entries): 3.10 reverses the older entries, 4.x does not, whatever was shared before
    const two = (p: typeof PROFILE_3_10) =>
      deadLetterMsg(
        deadLetterMsg(a, 'wait', 'expired', '', 'r', p, 1000),
        'r',
        'expired',
        '',
        'q',
        p,
        1000,
      ).xDeath?.map((d) => d.queue);
    expect(two(PROFILE_4_X)).toEqual(['r', 'wait', 'q']);
    expect(two(PROFILE_3_10)).toEqual(['r', 'q', 'wait']);
    expect(two(PROFILE_4_X)).toEqual(['r', 'wait', 'q']);
    // a repeat death counts on, shared too
    const again = (m: typeof a) => deadLetterMsg(m, 'q', 'rejected', 'dlx', 'wait', PROFILE_3_10, 3000);
    expect(again(a).xDeath).toBe(again(b).xDeath);
    expect(again(a).xDeath?.[0]?.count).toBe(2);
    // client headers are not shared (copied as before)
    const h = deadLetterMsg(
      base({ headers: { 'x-retries': 1 } }),
      'q',
      'rejected',
      'dlx',
      undefined,
      PROFILE_3_10,
      1000,
    );
    expect(h.headers).toEqual({
      'x-retries': 1,
      'x-first-death-reason': 'rejected',
      'x-first-death-queue': 'q',
      'x-first-death-exchange': 'x',
    });
  });
});
