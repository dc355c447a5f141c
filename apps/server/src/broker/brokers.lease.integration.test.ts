/**
 * Leased connections: overlapping jobs share one connection per purpose, and it is closed once
 * the last job released it and it stayed idle (no connection of the app outlives its work).
 */
import { describe, expect, it } from 'vitest';
import { Brokers } from './brokers.js';
import { parseAmqpUrl } from './amqpUrl.js';
import { BROKER_310 } from '../testing/testBrokers.js';
import { waitUntil } from '../testing/waitUntil.js';

const url = parseAmqpUrl(BROKER_310.amqpUrl);

describe('Brokers.lease', () => {
  it('shares one connection between overlapping leases and closes it when idle', async () => {
    const brokers = new Brokers(300);
    try {
      const [a, b] = await Promise.all([brokers.lease(url, '/', 'operate'), brokers.lease(url, '/', 'operate')]);
      expect(a.conn).toBe(b.conn);
      expect(brokers.openConnections()).toEqual([{ purpose: 'operate', users: 2 }]);
      a.release();
      a.release(); // twice is once
      expect(brokers.openConnections()).toEqual([{ purpose: 'operate', users: 1 }]);
      b.release();
      // a lease taken again before the idle time keeps the same connection
      const c = await brokers.lease(url, '/', 'operate');
      expect(c.conn).toBe(a.conn);
      c.release();
      // closed once idle for 300 ms: waited for (a fixed 600 ms raced the close on a loaded machine)
      await waitUntil(() => brokers.openConnections().length === 0 && !a.conn.isOpen, 'the idle connection closed', {
        timeoutMs: 15_000,
      });
      // and a job after that gets a new, working connection
      const used = await brokers.using(url, '/', 'operate', async (conn) => {
        const ch = await conn.createChannel();
        await ch.checkExchange('amq.direct');
        await ch.close();
        return conn;
      });
      expect(used).not.toBe(a.conn);
    } finally {
      await brokers.closeAll();
    }
  });
});
