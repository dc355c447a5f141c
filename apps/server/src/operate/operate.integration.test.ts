/**
 * Import, depths, browse and re-drive on both real brokers (3.10 and 4.3), in throwaway vhosts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { deadLetterVhost, ORDERS, type DeadLetterVhost } from './testing.js';
import { importBroker } from './importBroker.js';
import { readDepths } from './depths.js';
import { browseQueue } from './browse.js';
import { dryRunRedrive, startRedrive } from './redrive.js';
import { OperateError } from './operateTarget.js';
import { copiesOnTheWire, waitUntil } from '../testing/waitUntil.js';

describe.each(TEST_BROKERS)('operate on RabbitMQ $name', (broker) => {
  let v: DeadLetterVhost | undefined;
  afterEach(async () => {
    await v?.cleanup();
    v = undefined;
  });

  it('imports the vhost: profile from the version, roles, a worker and a publisher, laid out and linted', async () => {
    v = await deadLetterVhost(broker, 'import');
    const r = await importBroker(v.target);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.design.profile).toBe(broker.name === '3.10' ? '3.10' : '4.3');
    expect(r.v43).toBe(broker.name === '4.3');
    expect(r.roles).toEqual({ [ORDERS.work]: 'work', [ORDERS.dlq]: 'parking' });
    expect(r.design.consumers.map((c) => c.queue)).toEqual([ORDERS.work]);
    expect(r.design.publishers.map((p) => p.exchange)).toEqual([ORDERS.exchange]);
    expect(Object.keys(r.design.layout ?? {})).toHaveLength(6);
    expect(Array.isArray(r.lint)).toBe(true);
  });

  it('reads depths of every queue in one request', async () => {
    v = await deadLetterVhost(broker, 'depths');
    await v.deadLetter(3);
    const d = await readDepths(v.target);
    const dlq = d.queues.find((q) => q.name === ORDERS.dlq);
    // the management API's counts lag the queue by up to a stats interval
    expect(dlq).toMatchObject({ name: ORDERS.dlq, unacked: 0 });
    expect(d.queues.map((q) => q.name).sort()).toEqual([ORDERS.dlq, ORDERS.work]);
  });

  it('browses a classic DLQ grouped by cause and leaves every message in place, marked redelivered', async () => {
    v = await deadLetterVhost(broker, 'browse');
    await v.deadLetter(4, { bodyPrefix: 'npe', headers: { 'x-exception-message': 'NullPointerException\n at X' } });
    await v.deadLetter(2, { bodyPrefix: 'plain' });
    const b = await browseQueue(v.target, v.conn, { queue: ORDERS.dlq, limit: 100 });
    expect(b.depth).toBe(6);
    expect(b.effect.kind).toBe('requeue');
    expect(b.messages.map((m) => m.body)).toEqual(['npe-0', 'npe-1', 'npe-2', 'npe-3', 'plain-0', 'plain-1']);
    expect(b.messages[0]?.xDeath[0]).toMatchObject({
      queue: ORDERS.work,
      reason: 'rejected',
      exchange: ORDERS.exchange,
      'routing-keys': ['order.created'],
      count: 1,
    });
    expect(b.groups.map((g) => [g.key, g.count])).toEqual([
      [`${ORDERS.work}|rejected|NullPointerException`, 4],
      [`${ORDERS.work}|rejected|`, 2],
    ]);
    expect(await v.depth(ORDERS.dlq)).toBe(6);
    const again = await browseQueue(v.target, v.conn, { queue: ORDERS.dlq, limit: 2 });
    expect(again.messages.map((m) => [m.body, m.redelivered])).toEqual([
      ['npe-0', true],
      ['npe-1', true],
    ]);
  });

  it('refuses a quorum DLQ before 4.3 unless insisted; reads it on 4.3 without counting toward the limit', async () => {
    v = await deadLetterVhost(broker, 'quorum', { dlqType: 'quorum' });
    await v.deadLetter(2);
    if (broker.name === '3.10') {
      const err = await browseQueue(v.target, v.conn, { queue: ORDERS.dlq }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OperateError);
      expect((err as OperateError).field).toBe('insist');
      expect((err as Error).message).toMatch(/delivery/);
      const b = await browseQueue(v.target, v.conn, { queue: ORDERS.dlq, insist: true });
      expect(b.messages).toHaveLength(2);
    } else {
      const first = (await browseQueue(v.target, v.conn, { queue: ORDERS.dlq })).messages[0]!.headers;
      for (let i = 0; i < 3; i++) await browseQueue(v.target, v.conn, { queue: ORDERS.dlq });
      const last = (await browseQueue(v.target, v.conn, { queue: ORDERS.dlq })).messages[0]!.headers;
      // basic.nack returns count in x-acquired-count, not in x-delivery-count (what the limit reads)
      expect(last['x-delivery-count']).toBe(first['x-delivery-count']);
      expect(Number(last['x-acquired-count'])).toBeGreaterThan(Number(first['x-acquired-count']));
    }
    // a quorum queue applies the returns through its log: under load a passive declare can run before they are
    // back, so the depth is awaited (bounded); a lost message never brings it back to 2
    let depth = await v.depth(ORDERS.dlq);
    for (let i = 0; i < 50 && depth !== 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      depth = await v.depth(ORDERS.dlq);
    }
    expect(depth).toBe(2);
  });

  it('reads a stream DLQ by offset and changes nothing', async () => {
    v = await deadLetterVhost(broker, 'stream', { dlqType: 'stream' });
    // published straight in: 3.10.8 did not dead-letter into a stream within 20 s here
    const ch = await v.conn.createConfirmChannel();
    for (let i = 0; i < 3; i++) ch.sendToQueue(ORDERS.dlq, Buffer.from(`m-${i}`));
    await ch.waitForConfirms();
    await ch.close();
    const b1 = await browseQueue(v.target, v.conn, { queue: ORDERS.dlq, limit: 10 });
    const b2 = await browseQueue(v.target, v.conn, { queue: ORDERS.dlq, limit: 10 });
    expect(b1.effect.kind).toBe('none');
    expect(b1.messages.map((m) => m.body)).toEqual(['m-0', 'm-1', 'm-2']);
    expect(b2.messages.map((m) => [m.body, m.redelivered])).toEqual(b1.messages.map((m) => [m.body, false]));
  });

  it('gives clear errors for a missing queue', async () => {
    v = await deadLetterVhost(broker, 'missing');
    const err = await browseQueue(v.target, v.conn, { queue: 'nope' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ field: 'queue', status: 404, message: expect.stringMatching(/'nope' does not exist/) });
    const e2 = await startRedrive(v.target, {
      queue: ORDERS.dlq,
      target: { kind: 'original' },
      ratePerSecond: 0,
    }).catch((e: unknown) => e);
    expect(e2).toMatchObject({ field: 'rate' });
    const e3 = await startRedrive(v.target, { queue: ORDERS.dlq, target: { kind: 'original' }, limit: -1 }).catch(
      (e: unknown) => e,
    );
    expect(e3).toMatchObject({ field: 'limit' });
  });

  it('dry-runs then re-drives back to where they failed; a message without x-death stays with the reason', async () => {
    v = await deadLetterVhost(broker, 'redrive');
    await v.deadLetter(20);
    // a message published straight into the DLQ has no x-death: `original` cannot place it
    const ch = await v.conn.createConfirmChannel();
    ch.sendToQueue(ORDERS.dlq, Buffer.from('orphan'));
    await ch.waitForConfirms();
    await ch.close();
    const dry = await dryRunRedrive(v.target, v.conn, { queue: ORDERS.dlq, target: { kind: 'original' } });
    expect(dry.plan.moved).toBe(20);
    expect(dry.plan.byDestination).toEqual({ [`${ORDERS.exchange}:order.created -> ${ORDERS.work}`]: 20 });
    expect(Object.keys(dry.plan.skipped)[0]).toMatch(/no x-death/);
    expect(await v.depth(ORDERS.dlq)).toBe(21);
    expect(await v.depth(ORDERS.work)).toBe(0);

    const job = await startRedrive(v.target, { queue: ORDERS.dlq, target: { kind: 'original' }, ratePerSecond: 200 });
    // one re-drive per queue
    await expect(startRedrive(v.target, { queue: ORDERS.dlq, target: { kind: 'original' } })).rejects.toMatchObject({
      status: 409,
    });
    const p = await job.done;
    expect(p).toMatchObject({ status: 'done', before: 21, moved: 20, left: 1, duplicatesPossible: 0 });
    expect(Object.keys(p.skipped)[0]).toMatch(/no x-death/);
    expect(p.notes.join(' ')).toMatch(broker.name === '3.10' ? /counts on/ : /ignores an x-death/);
    expect(await v.depth(ORDERS.dlq)).toBe(1);
    const back = await v.drain(ORDERS.work);
    expect(back.map((m) => m.body).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `m-${i}`).sort());
    expect(back[0]?.headers).toMatchObject({ 'x-redrive-count': 1, 'x-redrive-last-at-ms': expect.any(Number) });
    expect(Math.abs(Date.now() - (back[0]?.headers['x-redrive-last-at-ms'] as number))).toBeLessThan(60_000);
    expect(Array.isArray(back[0]?.headers['x-death'])).toBe(true);
  });

  it('re-drives one cause group to a chosen exchange, with a limit', async () => {
    v = await deadLetterVhost(broker, 'filter');
    await v.deadLetter(5, { bodyPrefix: 'a', headers: { tenant: 'a' } });
    await v.deadLetter(5, { bodyPrefix: 'b', headers: { tenant: 'b' } });
    const job = await startRedrive(v.target, {
      queue: ORDERS.dlq,
      target: { kind: 'exchange', exchange: ORDERS.exchange, routingKey: 'order.retry' },
      filter: { kind: 'header', name: 'tenant', value: 'b' },
      limit: 3,
    });
    const p = await job.done;
    expect(p).toMatchObject({
      status: 'done',
      moved: 3,
      byDestination: { [`${ORDERS.exchange}:order.retry -> ${ORDERS.work}`]: 3 },
    });
    expect((await v.drain(ORDERS.work)).map((m) => m.body)).toEqual(['b-0', 'b-1', 'b-2']);
    const left = await v.drain(ORDERS.dlq);
    expect(left.map((m) => m.body)).toEqual(['a-0', 'a-1', 'a-2', 'a-3', 'a-4', 'b-3', 'b-4']);
  });

  it('pauses, resumes and cancels: nothing lost, the rest stays', async () => {
    v = await deadLetterVhost(broker, 'cancel');
    await v.deadLetter(200);
    const job = await startRedrive(v.target, { queue: ORDERS.dlq, target: { kind: 'original' }, ratePerSecond: 100 });
    while (job.progress().moved < 10) await new Promise((r) => setTimeout(r, 10));
    job.pause();
    // copies already on the wire when it paused still get their confirms: wait until none is left
    // unconfirmed (a fixed 300 ms, then 200 ms without a change, were races on a loaded machine);
    // then a paused job moves nothing more
    await waitUntil(() => copiesOnTheWire(job) === 0, 'the copies on the wire confirmed', {
      timeoutMs: 20_000,
      everyMs: 10,
    });
    const paused = job.progress().moved;
    await new Promise((r) => setTimeout(r, 300));
    expect(job.progress()).toMatchObject({ status: 'paused', moved: paused });
    job.resume();
    while (job.progress().moved < paused + 10) await new Promise((r) => setTimeout(r, 10));
    const p = await job.cancel();
    expect(p.status).toBe('cancelled');
    expect(p.moved).toBeLessThan(200);
    const moved = await v.drain(ORDERS.work);
    const left = await v.drain(ORDERS.dlq);
    expect(moved).toHaveLength(p.moved);
    expect([...moved, ...left].map((m) => m.body).sort()).toEqual(
      Array.from({ length: 200 }, (_, i) => `m-${i}`).sort(),
    );
  });

  it('a pause longer than the idle time with a full window is not the end of the queue', async () => {
    v = await deadLetterVhost(broker, 'longpause');
    await v.deadLetter(200);
    const job = await startRedrive(
      v.target,
      { queue: ORDERS.dlq, target: { kind: 'original' }, ratePerSecond: 200 },
      { window: 50, idleMs: 300 },
    );
    while (job.progress().moved < 10) await new Promise((r) => setTimeout(r, 5));
    job.pause();
    await new Promise((r) => setTimeout(r, 1000));
    expect(job.progress().status).toBe('paused');
    job.resume();
    const p = await job.done;
    expect(p).toMatchObject({ status: 'done', moved: 200, left: 0 });
    expect(await v.depth(ORDERS.dlq)).toBe(0);
  });

  it('copies returned unroutable: their originals stay with the reason, told from same-body copies that routed by their headers', async () => {
    v = await deadLetterVhost(broker, 'returned');
    const ch = await v.conn.createConfirmChannel();
    await ch.assertExchange('hx', 'headers', { durable: true });
    await ch.assertQueue('dest', { durable: true });
    for (const tenant of ['a', 'b']) await ch.bindQueue('dest', 'hx', '', { 'x-match': 'all', tenant });
    // originals with one body: only the tenant header tells them apart (many copies in flight at once)
    for (let i = 0; i < 2000; i++)
      ch.sendToQueue(ORDERS.dlq, Buffer.from('same'), { persistent: true, headers: { tenant: i % 2 ? 'b' : 'a' } });
    await ch.waitForConfirms();
    const job = await startRedrive(v.target, {
      queue: ORDERS.dlq,
      target: { kind: 'exchange', exchange: 'hx', routingKey: '' },
    });
    job.pause();
    // copies already published were routed with both bindings: wait for their confirms (150 ms
    // without a change was a race on a loaded machine: a late confirm moved one more after `before`)
    await waitUntil(() => copiesOnTheWire(job) === 0, 'the copies on the wire confirmed', {
      timeoutMs: 20_000,
      everyMs: 10,
    });
    const before = job.progress().moved;
    // tenant b's binding goes after the job planned its routes: its copies come back as basic.return
    await ch.unbindQueue('dest', 'hx', '', { 'x-match': 'all', tenant: 'b' });
    await ch.close();
    job.resume();
    const p = await job.done;
    const tenants = (ms: { headers: Record<string, unknown> }[]) => ms.map((m) => m.headers.tenant).sort();
    const moved = await v.drain('dest');
    const left = await v.drain(ORDERS.dlq);
    expect(moved.length + left.length).toBe(2000);
    expect(tenants(moved).filter((t) => t === 'a')).toHaveLength(1000);
    expect(tenants(left).every((t) => t === 'b')).toBe(true);
    // tenant b moved only before its binding went
    expect(moved.length - 1000).toBeLessThanOrEqual(before);
    expect(left.length).toBeGreaterThan(0);
    expect(p).toMatchObject({ status: 'done', moved: moved.length, left: left.length, duplicatesPossible: 0 });
    expect(p.skipped).toEqual({ "returned unroutable by 'hx' with key '': left in the queue": left.length });
  });

  it('a destination that refuses the publish: the message stays in the DLQ with the reason', async () => {
    v = await deadLetterVhost(broker, 'refuse');
    await v.deadLetter(3);
    const ch = await v.conn.createChannel();
    await ch.assertQueue('full', { durable: true, arguments: { 'x-max-length': 0, 'x-overflow': 'reject-publish' } });
    await ch.close();
    const job = await startRedrive(v.target, {
      queue: ORDERS.dlq,
      target: { kind: 'exchange', exchange: '', routingKey: 'full' },
    });
    const p = await job.done;
    expect(p).toMatchObject({
      status: 'done',
      moved: 0,
      left: 3,
      skipped: { 'the destination refused the publish (nack): left in the queue': 3 },
    });
    expect(await v.depth(ORDERS.dlq)).toBe(3);
  });
});
