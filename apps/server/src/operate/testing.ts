/**
 * Integration-test fixture: a throwaway vhost on a real broker holding an orders topology and
 * real dead letters (published, then rejected by a consumer, so the broker wrote x-death).
 */
import type { ChannelModel } from 'amqplib';
import { ManagementClient, openConnection, parseAmqpUrl, withVhost } from '../broker/index.js';
import type { TestBroker } from '../testing/testBrokers.js';
import { operateTarget, type OperateTarget } from './operateTarget.js';

export interface DeadLetterVhost {
  readonly vhost: string;
  readonly target: OperateTarget;
  readonly conn: ChannelModel;
  /** depth of a queue right now (AMQP passive declare: exact) */
  depth(queue: string): Promise<number>;
  /** every message of a queue, drained (acked): bodies and headers */
  drain(queue: string): Promise<{ body: string; headers: Record<string, unknown> }[]>;
  /** publish then reject n messages on `orders.work`, so they dead-letter into `orders.dlq` */
  deadLetter(
    n: number,
    opts?: {
      bodyPrefix?: string;
      body?: (i: number) => string;
      messageId?: (i: number) => string;
      headers?: Record<string, unknown>;
      routingKey?: string;
    },
  ): Promise<void>;
  cleanup(): Promise<void>;
}

export const ORDERS = { exchange: 'orders', work: 'orders.work', dlx: 'orders.dlx', dlq: 'orders.dlq' } as const;

export async function deadLetterVhost(
  broker: TestBroker,
  name: string,
  opts: { dlqType?: 'classic' | 'quorum' | 'stream' } = {},
): Promise<DeadLetterVhost> {
  const url = parseAmqpUrl(broker.amqpUrl);
  const mgmt = new ManagementClient(url, { baseUrl: broker.managementUrl, timeoutMs: 20_000 });
  const vhost = `rs-operate-${name}-${process.pid}-${Date.now().toString(36)}`;
  await mgmt.createVhost(vhost);
  const conn = await openConnection(withVhost(url, vhost), { purpose: 'operate', label: 'test' });
  const ch = await conn.createConfirmChannel();
  await ch.assertExchange(ORDERS.exchange, 'topic', { durable: true });
  await ch.assertExchange(ORDERS.dlx, 'fanout', { durable: true });
  await ch.assertQueue(ORDERS.work, { durable: true, arguments: { 'x-dead-letter-exchange': ORDERS.dlx } });
  const dlqType = opts.dlqType ?? 'classic';
  await ch.assertQueue(ORDERS.dlq, {
    durable: true,
    arguments: dlqType === 'classic' ? {} : { 'x-queue-type': dlqType },
  });
  await ch.bindQueue(ORDERS.work, ORDERS.exchange, 'order.*');
  await ch.bindQueue(ORDERS.dlq, ORDERS.dlx, '');
  await ch.close();

  const depth = async (queue: string): Promise<number> => {
    const c = await conn.createChannel();
    try {
      return (await c.checkQueue(queue)).messageCount;
    } finally {
      await c.close().catch(() => undefined);
    }
  };
  return {
    vhost,
    conn,
    target: await operateTarget(url, { vhost, managementUrl: broker.managementUrl }),
    depth,
    async drain(queue) {
      const c = await conn.createChannel();
      const out: { body: string; headers: Record<string, unknown> }[] = [];
      for (;;) {
        const m = await c.get(queue, { noAck: true });
        if (!m) break;
        out.push({ body: m.content.toString(), headers: (m.properties.headers ?? {}) as Record<string, unknown> });
      }
      await c.close();
      return out;
    },
    async deadLetter(n, o = {}) {
      const start = await depth(ORDERS.dlq);
      const pub = await conn.createConfirmChannel();
      for (let i = 0; i < n; i++)
        pub.publish(
          ORDERS.exchange,
          o.routingKey ?? 'order.created',
          Buffer.from(o.body ? o.body(i) : `${o.bodyPrefix ?? 'm'}-${i}`),
          {
            persistent: true,
            ...(o.messageId ? { messageId: o.messageId(i) } : {}),
            ...(o.headers ? { headers: o.headers } : {}),
          },
        );
      await pub.waitForConfirms();
      await pub.close();
      const c = await conn.createChannel();
      await c.prefetch(500);
      let rejected = 0;
      await new Promise<void>((resolve) => {
        void c.consume(ORDERS.work, (m) => {
          if (!m) return;
          c.reject(m, false);
          if (++rejected === n) resolve();
        });
      });
      await c.close();
      // dead-lettering is asynchronous: wait until the DLQ holds them (a stream's declare says 0: ask the management API)
      const count =
        dlqType === 'stream'
          ? async () => Number((await mgmt.queue(vhost, ORDERS.dlq))?.messages ?? 0)
          : () => depth(ORDERS.dlq);
      for (let i = 0; i < 200 && (await count()) < start + n; i++) await new Promise((r) => setTimeout(r, 100));
    },
    async cleanup() {
      await conn.close().catch(() => undefined);
      await mgmt.deleteVhost(vhost);
    },
  };
}
