/**
 * A DLQ that dead-letters into itself (a catch-all DLX policy covers it, and it has a TTL): the
 * broker drops the message on the second death (no rejection in the cycle). The fix must end the
 * loop: the fix once said "let a consumer reject", and a rejecting consumer there makes the loop
 * endless (run here on the simulator, which the recorded scenarios hold to both brokers).
 */
import { describe, expect, it } from 'vitest';
import { T } from '../../../testing/builders.js';
import { designOf } from '../../../testing/upgradeFixtures.js';
import { lintDesign } from '../lintDesign.js';
import { computeBudget } from '../../budget/budget.js';
import { isMoving } from '../../sim/messageOutcome.js';
import type { PolicyDef } from '../../model/definitions.js';

const selfCycle = (extra: PolicyDef[] = []) =>
  T.topology(
    T.exchange('app'),
    T.exchange('dlx', 'fanout'),
    T.queue('orders'),
    T.queue('orders.dlq', { ttl: 60_000 }),
    T.bind('app', 'orders', 'orders'),
    T.bind('dlx', 'orders.dlq'),
    T.policy('dead-letter-all', '.*', { 'dead-letter-exchange': 'dlx' }),
    ...extra,
  );
const toDlq = [{ id: 'p', exchange: '', routingKey: 'orders.dlq', bodyPrefix: 'm' }];
const rejecting = {
  id: 'r',
  queue: 'orders.dlq',
  behaviour: { kind: 'worker' as const, onFailure: [{ then: { kind: 'reject' as const } }] },
};

describe('automatic-cycle-dropped: a fix that ends the loop', () => {
  it('a DLQ self-cycle: the fix names the policy and warns off a rejecting consumer', () => {
    const f = lintDesign(designOf('dlq', selfCycle())).find((x) => x.id === 'automatic-cycle-dropped');
    expect(f?.fix).toBe(
      'Give orders.dlq no dead-letter exchange (it comes from policy dead-letter-all: narrow its pattern, or give orders.dlq a policy of higher priority without one), so what expires there is dropped, or a dead-letter exchange that routes to a parking queue with no dead-letter route of its own. Do not add a consumer that rejects: the loop would then never end.',
    );
  });
  it('the old fix (a consumer that rejects in the loop) never ends; the new one (no DLX on the DLQ) does', () => {
    const withRejecter = designOf('dlq', selfCycle(), [rejecting], toDlq);
    expect(isMoving(computeBudget(withRejecter, { kind: 'always' }).outcome)).toBe(true);
    const noDlx = designOf(
      'dlq',
      selfCycle([T.policy('dlq-keep', '\\.dlq$', { 'message-ttl': 60_000 }, 1)]),
      [],
      toDlq,
    );
    expect(computeBudget(noDlx, { kind: 'always' }).outcome).toEqual({ kind: 'expired', queue: 'orders.dlq' });
    expect(lintDesign(designOf('dlq', noDlx.topology)).map((x) => x.id)).not.toContain('automatic-cycle-dropped');
  });
});
