import { describe, expect, it } from 'vitest';
import { deadLetter, ordersSnapshot, xDeath } from '../../testing/operateFixtures.js';
import { profileForBrokerVersion } from './brokerVersion.js';
import { planRedrive, redriveContext, routingTopology } from './redrive.js';
import { checkEditInPlan } from './redrivePatchCheck.js';

const ctx = redriveContext(routingTopology(ordersSnapshot()), profileForBrokerVersion('3.10.8'));
const dead = (seq: number, body: string) =>
  deadLetter(seq, { body, xDeath: [xDeath('orders.work', 'rejected', 'orders', ['order.created'])] });

describe('a dry run with a JSON patch says per message whether it applies', () => {
  it('plain-text bodies stay (the patch cannot apply), JSON ones move; a patch that does not fit stays too', () => {
    const ms = [dead(0, '{"amount":1}'), dead(1, 'order-1 plain text'), dead(2, '{"other":true}')];
    const plan = planRedrive({ messages: ms, target: { kind: 'original' } }, ctx);
    expect(plan.moved).toBe(3);
    const checked = checkEditInPlan(plan, ms, { patch: [{ op: 'replace', path: '/amount', value: 12 }] });
    expect(checked.moved).toBe(1);
    expect(checked.items.map((i) => [i.seq, i.decision.kind])).toEqual([
      [0, 'move'],
      [1, 'skip'],
      [2, 'skip'],
    ]);
    const reasons = Object.keys(checked.skipped);
    expect(reasons.some((r) => /not JSON, so the patch cannot apply/.test(r))).toBe(true);
    expect(reasons.some((r) => /patch does not apply/.test(r))).toBe(true);
    expect(reasons.join(' ')).not.toMatch(/--patch|#1/);
    // no patch: the plan as it was
    expect(checkEditInPlan(plan, ms, { setHeaders: { a: 'b' } })).toBe(plan);
  });
});
