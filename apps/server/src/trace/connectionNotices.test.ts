import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BrokerConnectError, type ManagedConnection } from '../broker/index.js';
import { ConnectionNotices } from './connectionNotices.js';
import { EventLog } from './eventLog.js';

/** a connection's events as ManagedConnection emits them (the notices only listen) */
function watched() {
  const conn = new EventEmitter();
  const gone: string[] = [];
  const notices = new ConnectionNotices(
    conn as unknown as ManagedConnection,
    new EventLog(),
    () => 0,
    async () => undefined,
    (d) => gone.push(d),
  );
  notices.listen();
  const reconnecting = (attempt: number, error?: Error) => conn.emit('reconnecting', { attempt, delayMs: 0, error });
  return { conn, gone, reconnecting };
}

const refused = () => new BrokerConnectError('auth', "login refused for user 'u' at amqp://127.0.0.1:5672/v");
const unreachable = () => new BrokerConnectError('unreachable', 'broker not reachable: connection refused');

describe('ConnectionNotices: a connection that will not come back', () => {
  it('is gone after two refused reconnects in a row, said once with the broker’s refusal', () => {
    const { gone, reconnecting } = watched();
    // attempt 1 carries the loss itself (the broker closed it), not a reconnect's answer
    reconnecting(1, refused());
    reconnecting(2, refused());
    expect(gone).toEqual([]);
    reconnecting(3, refused());
    reconnecting(4, refused());
    expect(gone).toEqual(["2 reconnects in a row were refused: login refused for user 'u' at amqp://127.0.0.1:5672/v"]);
  });

  it('a broker restarting (the socket refused) is waited for; a silent handshake twice is gone', () => {
    const { conn, gone, reconnecting } = watched();
    for (let i = 2; i < 20; i++) reconnecting(i, unreachable());
    expect(gone).toEqual([]);
    reconnecting(20, refused());
    conn.emit('connected', {});
    reconnecting(2, refused()); // a new loss: the count starts again
    expect(gone).toEqual([]);
    conn.emit('connected', {});
    const silent = new BrokerConnectError('timeout', 'did not complete the AMQP handshake within 5000 ms');
    reconnecting(2, silent);
    reconnecting(3, silent);
    expect(gone).toEqual(['2 reconnects in a row got no answer: did not complete the AMQP handshake within 5000 ms']);
  });
});
