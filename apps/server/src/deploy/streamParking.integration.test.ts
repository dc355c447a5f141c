/**
 * A template with parking=stream, deployed through the HTTP API on both brokers: the parking place
 * is declared as a durable stream, a message that runs out of retries is parked in it (with its
 * x-first-death-* headers: a stream keeps no client-set x-death), browsing it (twice) shows it and removes nothing, and a re-drive from it is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import amqp from 'amqplib';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { bindQ, design, uniquePrefix } from '../http/testing.js';
import { useLiveServer } from '../testing/liveServer.js';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { operateTarget, OperateError } from '../operate/operateTarget.js';
import { browseQueue } from '../operate/browse.js';
import { startRedrive } from '../operate/redrive.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe.each(TEST_BROKERS)('a stream parking place on RabbitMQ $name', (broker) => {
  const url = parseAmqpUrl(broker.amqpUrl);
  const mgmt = new ManagementClient(url, { baseUrl: broker.managementUrl });
  const { srv, onCleanup } = useLiveServer({ broker });
  let conn: amqp.ChannelModel;

  beforeAll(async () => {
    conn = await amqp.connect(broker.amqpUrl);
    onCleanup(() => conn.close());
  });

  it('deploys dlx-ttl-wait-queue parking=stream; the parked copy says where it first died; browse reads it and removes nothing', async () => {
    const built = buildTemplate('dlx-ttl-wait-queue', { parking: 'stream', maxRetries: 1, delayMs: 100 });
    if (!built.ok) throw new Error('template');
    const design = built.template.design;
    const prefix = uniquePrefix('stream-park');
    const dep = await srv.post('/api/deploy', { design, prefix });
    expect(dep.status).toBe(200);
    expect(dep.body.result.ok).toBe(true);
    onCleanup(() => srv.post('/api/teardown', { designName: design.name, prefix, force: true }));
    const [work, parking] = [`${prefix}orders.q`, `${prefix}orders.parking`];
    expect(await mgmt.queue('/', parking)).toMatchObject({ type: 'stream', durable: true });
    // deploying is idempotent for a stream too: the plan says unchanged, no conflict
    const replan = await srv.post('/api/plan', { design, prefix });
    expect(replan.body.plan.summary).toMatchObject({ create: 0, conflict: 0, unsupported: 0 });

    // the template's worker, by hand: reject while (q, rejected) < 1, then republish to the parking stream with its headers and ack
    const ch = await conn.createConfirmChannel();
    await ch.prefetch(1);
    const { consumerTag } = await ch.consume(work, (m) => {
      if (!m) return;
      const deaths = (m.properties.headers?.['x-death'] ?? []) as { queue: string; reason: string; count: number }[];
      const n = deaths.find((d) => d.queue === work && d.reason === 'rejected')?.count ?? 0;
      if (n < 1) return ch.reject(m, false);
      ch.publish('', parking, m.content, { headers: m.properties.headers, persistent: true }, () => ch.ack(m));
    });
    ch.publish(`${prefix}orders`, 'task', Buffer.from('fails-always'), { persistent: true });
    await ch.waitForConfirms();

    const target = await operateTarget(url, { vhost: '/', managementUrl: broker.managementUrl });
    let b = await browseQueue(target, conn, { queue: parking, limit: 10, idleMs: 500 });
    for (let i = 0; i < 40 && b.messages.length === 0; i++) {
      await sleep(250);
      b = await browseQueue(target, conn, { queue: parking, limit: 10, idleMs: 500 });
    }
    await ch.cancel(consumerTag);
    await ch.close();
    expect(b.effect.kind).toBe('none');
    expect(b.queueType).toBe('stream');
    expect(b.messages.map((m) => m.body)).toEqual(['fails-always']);
    // a stream keeps no client-set x-death (measured on 3.10.8 and 4.3.6): the copy says where it first died in x-first-death-*
    expect(b.messages[0]!.xDeath).toEqual([]);
    expect(b.messages[0]!.headers).toMatchObject({
      'x-first-death-queue': work,
      'x-first-death-reason': 'rejected',
      'x-first-death-exchange': `${prefix}orders`,
    });
    expect(b.messages[0]!.offset).toBe(0);
    // read again: the same message, not marked redelivered, nothing removed
    const again = await browseQueue(target, conn, { queue: parking, limit: 10, idleMs: 500 });
    expect(again.messages.map((m) => [m.body, m.redelivered])).toEqual([['fails-always', false]]);
    // a re-drive would have to remove messages from the stream: refused, naming the queue
    const err = await startRedrive(target, { queue: parking, target: { kind: 'original' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperateError);
    expect(err).toMatchObject({ field: 'queue', message: expect.stringMatching(/is a stream/) });
  });

  it('a queue dead-lettering straight into a stream: 4.3 keeps the rejected message with its x-death, 3.10 drops it', async () => {
    const d = design({
      name: 'dl-into-stream',
      exchanges: [{ name: 'dlx', type: 'fanout', durable: true }],
      queues: [
        { name: 'work', durable: true, arguments: { 'x-dead-letter-exchange': 'dlx' } },
        { name: 'dead', durable: true, arguments: { 'x-queue-type': 'stream' } },
      ],
      bindings: [bindQ('dlx', 'dead')],
    });
    const prefix = uniquePrefix('stream-dl');
    const dep = await srv.post('/api/deploy', {
      design: { ...d, profile: broker.name === '3.10' ? '3.10' : '4.3' },
      prefix,
    });
    expect(dep.status).toBe(200);
    onCleanup(() => srv.post('/api/teardown', { designName: d.name, prefix, force: true }));
    const ch = await conn.createConfirmChannel();
    ch.sendToQueue(`${prefix}work`, Buffer.from('rejected-1'));
    await ch.waitForConfirms();
    const m = await ch.get(`${prefix}work`, { noAck: false });
    if (!m) throw new Error('no message');
    ch.reject(m, false);
    await ch.close();
    const target = await operateTarget(url, { vhost: '/', managementUrl: broker.managementUrl });
    const b = await browseQueue(target, conn, { queue: `${prefix}dead`, limit: 10, idleMs: 1500 });
    if (broker.name === '3.10') {
      expect(b.messages).toEqual([]);
      return;
    }
    expect(b.messages.map((x) => x.body)).toEqual(['rejected-1']);
    expect(b.messages[0]!.xDeath).toEqual([
      expect.objectContaining({ queue: `${prefix}work`, reason: 'rejected', count: 1 }),
    ]);
    const again = await browseQueue(target, conn, { queue: `${prefix}dead`, limit: 10, idleMs: 500 });
    expect(again.messages.map((x) => x.body)).toEqual(['rejected-1']);
  });
});
