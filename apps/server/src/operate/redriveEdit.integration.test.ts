/**
 * Fix, then retry, on both brokers: an edited group is re-driven and consumed once each (the
 * patched body, the headers set, `x-redrive-edited` saying what changed); a message the patch
 * cannot apply to stays with a reason naming it; a forbidden header name is refused before
 * anything moves; and with the consume and publish connections killed mid-run, no edited copy
 * is sent twice and nothing is lost.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { REDRIVE_EDITED_HEADER, type RedriveEdit } from '@retry-studio/topology-core/operate';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { jobConnections } from './faultTesting.js';
import { OperateError } from './operateTarget.js';
import { startRedrive } from './redrive.js';
import { deadLetterVhost, ORDERS, type DeadLetterVhost } from './testing.js';

const FIX: RedriveEdit = {
  patch: [{ op: 'replace', path: '/amount', value: 12 }],
  setHeaders: { 'x-fixed-by': 'ops' },
};
const order = (i: number): string => JSON.stringify({ order: i, amount: '12' });

describe.each(TEST_BROKERS)('edited re-drive on RabbitMQ $name', (broker) => {
  let v: DeadLetterVhost | undefined;
  afterEach(async () => {
    await v?.cleanup();
    v = undefined;
  });

  it('sends the edited copy only, once each; a body the patch cannot apply to stays, named', async () => {
    v = await deadLetterVhost(broker, 'edit');
    await v.deadLetter(6, { body: order, messageId: (i) => `o-${i}` });
    await v.deadLetter(1, { body: () => 'plain text', messageId: () => 'o-plain' });
    const refused = await startRedrive(v.target, {
      queue: ORDERS.dlq,
      target: { kind: 'original' },
      edit: { setHeaders: { 'x-death': 'x' } },
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OperateError);
    expect((refused as OperateError).field).toBe('set-header');
    expect(await v.depth(ORDERS.dlq)).toBe(7);

    const job = await startRedrive(v.target, { queue: ORDERS.dlq, target: { kind: 'original' }, edit: FIX });
    const p = await job.done;
    expect(p.status, p.error).toBe('done');
    expect(p.moved).toBe(6);
    expect(Object.keys(p.skipped)).toEqual([expect.stringMatching(/^message 'o-plain': the body is not JSON/)]);
    const moved = await v.drain(ORDERS.work);
    expect(
      moved.map((m) => JSON.parse(m.body) as { order: number; amount: unknown }).sort((a, b) => a.order - b.order),
    ).toEqual([0, 1, 2, 3, 4, 5].map((i) => ({ order: i, amount: 12 })));
    for (const m of moved)
      expect(m.headers).toMatchObject({
        'x-fixed-by': 'ops',
        [REDRIVE_EDITED_HEADER]: 'patch replace /amount; headers x-fixed-by',
        'x-redrive-count': 1,
      });
    expect((await v.drain(ORDERS.dlq)).map((m) => m.body)).toEqual(['plain text']);
  });

  it('killed connections mid-run: no edited copy twice, nothing lost', async () => {
    const N = 3000;
    v = await deadLetterVhost(broker, 'editfault');
    await v.deadLetter(N, { body: order });
    const job = await startRedrive(v.target, {
      queue: ORDERS.dlq,
      target: { kind: 'original' },
      ratePerSecond: 3000,
      edit: FIX,
    });
    job.pause();
    const names = await jobConnections(v.target.management, job);
    job.resume();
    while (job.progress().moved < 800 && job.isRunning) await new Promise((r) => setTimeout(r, 2));
    await v.target.management.closeConnection(names.publish);
    await v.target.management.closeConnection(names.consume);
    const p = await job.done;
    expect(p.status, p.error).toBe('done');
    expect(p.reconnects).toBeGreaterThanOrEqual(2);

    const moved = await v.drain(ORDERS.work);
    const left = await v.drain(ORDERS.dlq);
    const copies = new Map<number, number>();
    for (const m of moved) {
      const o = JSON.parse(m.body) as { order: number; amount: unknown };
      expect(o.amount).toBe(12);
      copies.set(o.order, (copies.get(o.order) ?? 0) + 1);
    }
    // no edited copy twice
    expect([...copies.values()].filter((n) => n > 1)).toEqual([]);
    // nothing lost: every order is at its destination (edited) or still in the DLQ (unedited, with the reason)
    const stayed = new Set(left.map((m) => (JSON.parse(m.body) as { order: number }).order));
    for (let i = 0; i < N; i++) expect(copies.has(i) || stayed.has(i), `order ${i}`).toBe(true);
    // confirmed copies, plus at most those whose confirm the lost connection took (their originals stay: reported)
    expect(moved.length).toBeGreaterThanOrEqual(p.moved);
    expect(moved.length).toBeLessThanOrEqual(p.moved + p.duplicatesPossible);
    console.log(
      `${broker.name}: ${moved.length} edited copies at the destination, once each (${p.moved} confirmed), ${left.length} originals left in the DLQ (their edited copy unproven), ${p.reconnects} reconnects`,
    );
  }, 60_000);
});
