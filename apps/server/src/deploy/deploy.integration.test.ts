/**
 * Plan / deploy / teardown through the HTTP API against both real brokers (3.10 on 5672, 4.3 on
 * 5673); the server finds each broker's own management API by itself.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import amqp from 'amqplib';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { ManagedConnection, ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { bindQ, design, retryLoopDesign, uniquePrefix } from '../http/testing.js';
import { useLiveServer } from '../testing/liveServer.js';
import { applyPlan } from './applyPlan.js';
import { Manifest } from './manifest.js';
import { Renamer, renameDesign } from './deployTarget.js';
import { diffTopology, readBrokerState } from './planDeploy.js';
import { TEST_BROKERS } from '../testing/testBrokers.js';

describe.each(TEST_BROKERS)('on RabbitMQ $name', (broker) => {
  const URL = broker.amqpUrl;
  const mgmt = new ManagementClient(parseAmqpUrl(URL), { baseUrl: broker.managementUrl });
  const { srv, onCleanup } = useLiveServer({ broker });
  let conn: amqp.ChannelModel;

  beforeAll(async () => {
    conn = await amqp.connect(URL);
    onCleanup(() => conn.close()); // the first registered runs last: after the cleanups that use it
  });

  async function queueDepth(name: string, vhost = '/'): Promise<number> {
    const c = await amqp.connect(URL.replace(/\/$/, '/' + encodeURIComponent(vhost)));
    const ch = await c.createChannel();
    const r = await ch.checkQueue(name);
    await c.close();
    return r.messageCount;
  }

  describe('plan and deploy', () => {
    it('plans create, deploys, then plans unchanged (idempotent)', async () => {
      const prefix = uniquePrefix('idem');
      const d = retryLoopDesign('idem');
      const p1 = await srv.post('/api/plan', { design: d, prefix });
      expect(p1.status).toBe(200);
      expect(p1.body.plan.summary).toEqual({
        create: 9,
        update: 0,
        remove: 0,
        unchanged: 0,
        conflict: 0,
        unsupported: 0,
      });
      // a plan changes nothing
      expect((await mgmt.listQueues('/')).some((q) => q.name.startsWith(prefix))).toBe(false);
      const dep = await srv.post('/api/deploy', { design: d, prefix });
      expect(dep.status).toBe(200);
      expect(dep.body.result.ok).toBe(true);
      expect(dep.body.result.applied.map((a: { kind: string }) => a.kind)).toEqual([
        'exchange',
        'exchange',
        'exchange',
        'queue',
        'queue',
        'queue',
        'binding',
        'binding',
        'binding',
      ]);
      onCleanup(() => srv.post('/api/teardown', { designName: 'idem', prefix, force: true }));
      const list = await srv.get('/api/deployments');
      expect(list.body.deployments).toContainEqual(
        expect.objectContaining({
          prefix,
          vhost: '/',
          designName: 'idem',
          counts: { exchanges: 3, queues: 3, bindings: 3, policies: 0 },
        }),
      );
      expect(JSON.stringify(list.body)).not.toMatch(/guest:guest/);
      const p2 = await srv.post('/api/plan', { design: d, prefix });
      expect(p2.body.plan.summary).toEqual({
        create: 0,
        update: 0,
        remove: 0,
        unchanged: 9,
        conflict: 0,
        unsupported: 0,
      });
      const dep2 = await srv.post('/api/deploy', { design: d, prefix });
      expect(dep2.body.result.applied).toEqual([]);
      // the DLX argument points at the prefixed exchange
      const q = await mgmt.queue('/', `${prefix}work.q`);
      expect(q?.arguments['x-dead-letter-exchange']).toBe(`${prefix}retry`);
    });

    it('a redeclare with other arguments on a queue holding messages: conflict shown with both sets, nothing lost', async () => {
      const prefix = uniquePrefix('conflict');
      const ch = await conn.createConfirmChannel();
      const qname = `${prefix}orders`;
      await ch.assertQueue(qname, { durable: true, arguments: { 'x-dead-letter-exchange': 'old-dlx' } });
      onCleanup(() => ch.deleteQueue(qname));
      for (let i = 0; i < 5; i++) ch.sendToQueue(qname, Buffer.from(`m${i}`), { persistent: true });
      // confirmed, not slept on: the five are in the queue before its depth is read
      await ch.waitForConfirms();
      expect(await queueDepth(qname)).toBe(5);
      const d = design({
        name: 'conflict',
        exchanges: [{ name: 'dlx', type: 'fanout' }],
        queues: [{ name: 'orders', arguments: { 'x-dead-letter-exchange': 'dlx' } }],
        bindings: [],
      });
      const plan = await srv.post('/api/plan', { design: d, prefix });
      const item = plan.body.plan.items.find((i: { kind: string }) => i.kind === 'queue');
      expect(item.status).toBe('conflict');
      expect(item.desired.arguments).toEqual({ 'x-dead-letter-exchange': `${prefix}dlx` });
      // 4.3 reports the queue type it defaulted to ('x-queue-type': 'classic'), which the diff reads as absent
      expect(item.actual.arguments).toMatchObject({ 'x-dead-letter-exchange': 'old-dlx' });
      expect(item.differences).toEqual(['arguments.x-dead-letter-exchange']);
      expect(item.message).toMatch(/neither deleted nor redeclared/);
      // the depth read from the broker now (the management API's statistics were up to 5 s old: "holds 0")
      expect(item.actual.messages).toBe(5);
      expect(item.message).toMatch(/holds 5 message\(s\)/);
      const dep = await srv.post('/api/deploy', { design: d, prefix });
      expect(dep.status).toBe(200);
      expect(dep.body.result.skipped).toEqual([
        expect.objectContaining({ kind: 'queue', name: qname, status: 'conflict' }),
      ]);
      onCleanup(() => srv.post('/api/teardown', { designName: 'conflict', prefix, force: true }));
      expect(await queueDepth(qname)).toBe(5);
      expect((await mgmt.queue('/', qname))?.arguments).toMatchObject({ 'x-dead-letter-exchange': 'old-dlx' });
      // teardown does not touch the queue it did not create
      const td = await srv.post('/api/teardown', { designName: 'conflict', prefix });
      expect(td.status).toBe(200);
      expect(td.body.deleted.queues).toEqual([]);
      expect(await queueDepth(qname)).toBe(5);
    });

    it('a failure mid-apply names the object and the broker message and reports what was applied', async () => {
      const prefix = uniquePrefix('fail');
      const d = design({
        name: 'fail',
        exchanges: [{ name: 'x', type: 'direct' }],
        queues: [{ name: 'a' }, { name: 'b', arguments: { 'x-message-ttl': 1000 } }],
        bindings: [bindQ('x', 'a', 'k')],
      });
      const url = parseAmqpUrl(URL);
      const real = renameDesign(d, new Renamer(prefix));
      const plan = diffTopology(d.topology, real.topology, await readBrokerState(mgmt, '/'), { vhost: '/', prefix });
      // someone else declares `b` differently after the plan was made
      const ch = await conn.createChannel();
      await ch.assertQueue(`${prefix}b`, { durable: true, arguments: { 'x-message-ttl': 5 } });
      onCleanup(async () => {
        const c = await conn.createChannel();
        for (const q of ['a', 'b']) await c.deleteQueue(prefix + q);
        await c.deleteExchange(prefix + 'x');
      });
      const apply = new ManagedConnection(url, 'apply');
      await apply.start();
      const record = new Manifest(undefined).open('t', '/', prefix, 'fail');
      const res = await applyPlan(plan, apply, mgmt, record);
      await apply.close();
      expect(res.ok).toBe(false);
      expect(res.failure).toMatchObject({ kind: 'queue', name: `${prefix}b` });
      expect(res.failure!.brokerMessage).toMatch(/PRECONDITION_FAILED - inequivalent arg 'x-message-ttl'/);
      expect(res.applied).toEqual(expect.arrayContaining([{ kind: 'exchange', name: `${prefix}x` }]));
      expect(res.applied.some((a) => a.kind === 'binding')).toBe(false);
      expect(record.queues).not.toContain(`${prefix}b`);
    });

    it('an unknown exchange type: the plan says unsupported and names the plugin; forcing it kills only the apply connection', async () => {
      const prefix = uniquePrefix('plugin');
      const d = design({
        name: 'delayed',
        exchanges: [
          { name: 'delay', type: 'x-delayed-message', arguments: { 'x-delayed-type': 'direct' } },
          { name: 'work', type: 'direct' },
        ],
        queues: [{ name: 'q' }],
        bindings: [bindQ('delay', 'q', 'k'), bindQ('work', 'q', 'k')],
      });
      const plan = await srv.post('/api/plan', { design: d, prefix });
      expect(plan.status).toBe(200);
      const x = plan.body.plan.items.find((i: { designName: string }) => i.designName === 'delay');
      expect(x.status).toBe('unsupported');
      expect(x.plugin).toBe('rabbitmq_delayed_message_exchange');
      expect(x.alternative).toMatch(/TTL/);
      const b = plan.body.plan.items.find((i: { designName: string }) => i.designName === 'delay -> q [k]');
      expect(b.status).toBe('unsupported');
      // the portable compile is offered, and it plans without anything unsupported
      expect(plan.body.portable.ok).toBe(true);
      expect(plan.body.portable.changes.length).toBeGreaterThan(0);
      const portablePlan = await srv.post('/api/plan', { design: plan.body.portable.design, prefix });
      expect(portablePlan.status).toBe(200);
      expect(portablePlan.body.plan.summary.unsupported).toBe(0);
      const dep = await srv.post('/api/deploy', { design: d, prefix });
      onCleanup(() => srv.post('/api/teardown', { designName: 'delayed', prefix, force: true }));
      expect(dep.body.result.ok).toBe(true);
      expect(dep.body.result.applied.map((a: { name: string }) => a.name).sort()).toEqual(
        [`${prefix}q`, `${prefix}work`, `${prefix}work -> queue ${prefix}q [k]`].sort(),
      );

      // declared anyway: a 503 connection error, on the apply connection only
      const url = parseAmqpUrl(URL);
      const apply = new ManagedConnection(url, 'apply');
      const trace = new ManagedConnection(url, 'trace');
      await apply.start();
      await trace.start();
      const tch = await trace.createChannel();
      const ach = await apply.createChannel();
      // whether the connection is down is read as it is lost: 100 ms later, a reconnect (after 160-240 ms
      // of backoff) could already be back when a loaded machine delays the timer
      const lost = new Promise<{ err: unknown; open: boolean }>((r) =>
        apply.once('disconnected', (err) => r({ err, open: apply.isOpen })),
      );
      const err = await ach.assertExchange(`${prefix}bogus`, 'x-no-such-type').catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      if (broker.name === '3.10') {
        // 3.10: 503 COMMAND_INVALID closes the whole connection
        const l = await lost;
        expect(String(l.err)).toMatch(/COMMAND_INVALID|unknown exchange type|503/);
        expect(l.open).toBe(false);
      } else {
        // 4.3: a channel error (406 PRECONDITION_FAILED), the connection stays
        expect(String((err as Error).message)).toMatch(/406 .*unknown exchange type 'x-no-such-type'/);
        expect(apply.isOpen).toBe(true);
      }
      expect(trace.isOpen).toBe(true);
      await expect(tch.checkQueue(`${prefix}q`)).resolves.toMatchObject({ queue: `${prefix}q` });
      await apply.close();
      await trace.close();
    });

    it('deploys into its own vhost and teardown removes the vhost it created', async () => {
      const vhost = uniquePrefix('vh').slice(0, -1);
      const d = retryLoopDesign('vhosted');
      const dep = await srv.post('/api/deploy', { design: d, vhost });
      expect(dep.status).toBe(200);
      expect(dep.body.result.createdVhost).toBe(true);
      expect(dep.body.target).toEqual({ vhost, prefix: '' });
      onCleanup(() => mgmt.deleteVhost(vhost));
      expect((await mgmt.listQueues(vhost)).map((q) => q.name).sort()).toEqual(['parking.q', 'retry.q', 'work.q']);
      const td = await srv.post('/api/teardown', { designName: 'vhosted', vhost });
      expect(td.status).toBe(200);
      expect(td.body.deletedVhost).toBe(true);
      expect((await mgmt.listVhosts()).some((v) => v.name === vhost)).toBe(false);
    });
  });

  describe('teardown', () => {
    it('refuses a queue that holds messages, and with force reports how many go', async () => {
      const prefix = uniquePrefix('td');
      const d = retryLoopDesign('td');
      await srv.post('/api/deploy', { design: d, prefix });
      const ch = await conn.createConfirmChannel();
      for (let i = 0; i < 3; i++) ch.publish(`${prefix}parking`, '', Buffer.from('x'));
      await ch.waitForConfirms();
      const refused = await srv.post('/api/teardown', { designName: 'td', prefix });
      expect(refused.status).toBe(409);
      expect(refused.body.field).toBe('force');
      expect(refused.body.refused).toEqual([{ queue: `${prefix}parking.q`, messages: 3, consumers: 0 }]);
      expect(refused.body.error).toMatch(/3 messages/);
      expect(await queueDepth(`${prefix}parking.q`)).toBe(3);
      expect((await mgmt.listExchanges('/')).some((e) => e.name === `${prefix}work`)).toBe(true);
      const wrong = await srv.post('/api/teardown', { designName: 'other', prefix, force: true });
      expect(wrong.status).toBe(409);
      const forced = await srv.post('/api/teardown', { designName: 'td', prefix, force: true });
      expect(forced.status).toBe(200);
      expect(forced.body.messagesDeleted).toBe(3);
      expect(forced.body.deleted.queues.sort()).toEqual([`${prefix}parking.q`, `${prefix}retry.q`, `${prefix}work.q`]);
      expect((await mgmt.listQueues('/')).some((q) => q.name.startsWith(prefix))).toBe(false);
      const again = await srv.post('/api/teardown', { designName: 'td', prefix });
      expect(again.status).toBe(404);
    });

    // RabbitMQ has no if-empty/if-unused for quorum queues (it closes the connection): checked first, then a plain delete
    const quorumTemplates =
      broker.name === '3.10' ? ['quorum-delivery-limit'] : ['quorum-delivery-limit', 'quorum-delayed-retry'];
    it.each(quorumTemplates)(
      '%s: teardown removes every object; a non-empty quorum queue is refused, and forced goes',
      async (id) => {
        const built = buildTemplate(id);
        if (!built.ok) throw new Error(JSON.stringify(built.errors));
        const d = built.template.design;
        const quorum = d.topology.queues.filter((q) => q.arguments?.['x-queue-type'] === 'quorum').map((q) => q.name);
        expect(quorum.length).toBeGreaterThan(0);
        const left = async (prefix: string) =>
          [
            ...(await mgmt.listQueues('/')).map((q) => q.name),
            ...(await mgmt.listExchanges('/')).map((e) => e.name),
            ...(await mgmt.listPolicies('/')).map((p) => p.name),
          ].filter((n) => n.startsWith(prefix));

        const clean = uniquePrefix('tdq');
        const dep = await srv.post('/api/deploy', { design: d, prefix: clean });
        expect(dep.body.result?.ok, JSON.stringify(dep.body)).toBe(true);
        onCleanup(() => srv.post('/api/teardown', { designName: d.name, prefix: clean, force: true }));
        expect((await left(clean)).length).toBeGreaterThan(0);
        const td = await srv.post('/api/teardown', { designName: d.name, prefix: clean });
        expect(td.status).toBe(200);
        expect(td.body).toMatchObject({ ok: true, left: [], errors: [] });
        expect([...td.body.deleted.queues].sort()).toEqual(d.topology.queues.map((q) => clean + q.name).sort());
        expect(await left(clean)).toEqual([]);

        const held = uniquePrefix('tdq');
        await srv.post('/api/deploy', { design: d, prefix: held });
        onCleanup(() => srv.post('/api/teardown', { designName: d.name, prefix: held, force: true }));
        const ch = await conn.createConfirmChannel();
        ch.sendToQueue(held + quorum[0], Buffer.from('x'));
        await ch.waitForConfirms();
        await ch.close();
        const refused = await srv.post('/api/teardown', { designName: d.name, prefix: held });
        expect(refused.status).toBe(409);
        expect(refused.body.ok).toBe(false);
        expect(refused.body.refused).toEqual([{ queue: held + quorum[0], messages: 1, consumers: 0 }]);
        expect(refused.body.error).toMatch(/1 messages/);
        expect(await queueDepth(held + quorum[0])).toBe(1);
        const forced = await srv.post('/api/teardown', { designName: d.name, prefix: held, force: true });
        expect(forced.status).toBe(200);
        expect(forced.body).toMatchObject({ ok: true, left: [], messagesDeleted: 1 });
        expect(await left(held)).toEqual([]);
      },
    );

    it('a stream holding messages is refused without force (if-empty does not protect a stream), and forced goes', async () => {
      const prefix = uniquePrefix('tds');
      const d = design({
        name: 'tds',
        exchanges: [],
        queues: [{ name: 'log', arguments: { 'x-queue-type': 'stream' } }],
        bindings: [],
      });
      await srv.post('/api/deploy', { design: d, prefix });
      onCleanup(() => srv.post('/api/teardown', { designName: 'tds', prefix, force: true }));
      const ch = await conn.createConfirmChannel();
      for (let i = 0; i < 3; i++) ch.sendToQueue(`${prefix}log`, Buffer.from('x'));
      await ch.waitForConfirms();
      await ch.close();
      // a passive declare counts it 0; the management API counts it seconds late (until then: not known, not empty)
      const refused = await srv.post('/api/teardown', { designName: 'tds', prefix });
      expect(refused.status).toBe(409);
      expect(refused.body.refused).toEqual([expect.objectContaining({ queue: `${prefix}log`, consumers: 0 })]);
      const r = refused.body.refused[0];
      expect(r.countUnknown === true || r.messages === 3).toBe(true);
      expect((await mgmt.listQueues('/')).some((q) => q.name === `${prefix}log`)).toBe(true);
      const forced = await srv.post('/api/teardown', { designName: 'tds', prefix, force: true });
      expect(forced.body).toMatchObject({ ok: true, left: [], deleted: { queues: [`${prefix}log`] } });
    });

    it("a queue it cannot read is left: ok false, listed with the broker's reason, kept for the next teardown", async () => {
      const prefix = uniquePrefix('tdl');
      await srv.post('/api/deploy', { design: retryLoopDesign('tdl'), prefix });
      onCleanup(() => srv.post('/api/teardown', { designName: 'tdl', prefix, force: true }));
      // the work queue replaced by another connection's exclusive queue: a passive declare is refused (405), not a 404
      const ch = await conn.createChannel();
      await ch.deleteQueue(`${prefix}work.q`);
      const other = await amqp.connect(URL);
      const och = await other.createChannel();
      await och.assertQueue(`${prefix}work.q`, { exclusive: true });
      const td = await srv.post('/api/teardown', { designName: 'tdl', prefix, force: true });
      expect(td.status).toBe(200);
      expect(td.body.ok).toBe(false);
      expect(td.body.left).toEqual([
        { kind: 'queue', name: `${prefix}work.q`, why: expect.stringMatching(/could not be read.*RESOURCE_LOCKED/) },
      ]);
      expect(td.body.deleted.queues.sort()).toEqual([`${prefix}parking.q`, `${prefix}retry.q`]);
      await other.close();
      // the exclusive queue went with its connection: the next teardown finds nothing left
      const again = await srv.post('/api/teardown', { designName: 'tdl', prefix });
      expect(again.body).toMatchObject({ ok: true, left: [], alreadyGone: [`${prefix}work.q`] });
    });

    it('refuses a queue with a consumer', async () => {
      const prefix = uniquePrefix('tdc');
      await srv.post('/api/deploy', { design: retryLoopDesign('tdc'), prefix });
      const ch = await conn.createChannel();
      const { consumerTag } = await ch.consume(`${prefix}work.q`, () => undefined);
      const refused = await srv.post('/api/teardown', { designName: 'tdc', prefix });
      expect(refused.status).toBe(409);
      expect(refused.body.refused).toEqual([{ queue: `${prefix}work.q`, messages: 0, consumers: 1 }]);
      await ch.cancel(consumerTag);
      const ok = await srv.post('/api/teardown', { designName: 'tdc', prefix });
      expect(ok.status).toBe(200);
    });
  });
});
