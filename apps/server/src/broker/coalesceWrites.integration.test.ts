import { describe, expect, it } from 'vitest';
import type { Socket } from 'node:net';
import { TEST_BROKERS } from '../testing/testBrokers.js';
import { withTestConnection } from '../testing/testConnection.js';

describe.each(TEST_BROKERS)('coalesced writes on RabbitMQ $name', (b) => {
  it('500 publishes in one tick leave in a few writev calls, every one confirmed and queued in order', async () => {
    await withTestConnection(b, 'coalesce', async (conn, q) => {
      const ch = await conn.createConfirmChannel();
      await ch.assertQueue(q, { durable: false, autoDelete: false });
      const sock = (conn as unknown as { connection: { stream: Socket } }).connection.stream;
      let writes = 0;
      let writevs = 0;
      const write = sock._write.bind(sock);
      const writev = sock._writev!.bind(sock);
      sock._write = (...args: Parameters<Socket['_write']>) => {
        writes += 1;
        return write(...args);
      };
      sock._writev = (...args: Parameters<NonNullable<Socket['_writev']>>) => {
        writevs += 1;
        return writev(...args);
      };
      for (let i = 0; i < 500; i++) ch.sendToQueue(q, Buffer.from(String(i)));
      await ch.waitForConfirms();
      // without coalescing: one write per publish (500)
      expect(writevs).toBeGreaterThan(0);
      expect(writes + writevs).toBeLessThan(50);
      const got: string[] = [];
      for (let m = await ch.get(q, { noAck: true }); m; m = await ch.get(q, { noAck: true }))
        got.push(m.content.toString());
      expect(got).toEqual(Array.from({ length: 500 }, (_, i) => String(i)));
      await ch.deleteQueue(q);
    });
  });
});
