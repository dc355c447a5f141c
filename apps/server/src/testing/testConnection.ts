import type { ChannelModel } from 'amqplib';
import { parseAmqpUrl } from '../broker/amqpUrl.js';
import { openConnection } from '../broker/connection.js';
import type { TestBroker } from './testBrokers.js';

/** A connection to `broker` for one test and a queue-name prefix of its own; the connection is closed whatever happens. */
export async function withTestConnection<T>(
  broker: TestBroker,
  label: string,
  fn: (conn: ChannelModel, prefix: string) => Promise<T>,
): Promise<T> {
  const conn = await openConnection(parseAmqpUrl(broker.amqpUrl), { purpose: 'apply', label: `${label}-test` });
  try {
    return await fn(conn, `retry-studio.test.${label}.${process.pid}.${Date.now()}`);
  } finally {
    await conn.close().catch(() => undefined);
  }
}
