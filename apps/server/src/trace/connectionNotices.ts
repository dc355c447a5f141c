/**
 * What a trace says as its connection comes and goes: a notice on loss and on return (then the
 * observers and workers re-attach), the count of reconnects, and the last error a reconnect gave
 * (a trace whose connection is gone for good says it).
 *
 * A connection that will not come back ends the trace at once (`gone`), not when its duration runs
 * out (59 s later, the deployment blocked meanwhile): a reconnect the broker refuses (the login or
 * the vhost: the password changed, the permission or the vhost deleted) twice in a row, or a broker
 * that accepts the socket and then stays silent through two handshakes (its AMQP stopped
 * answering). A broker restarting refuses the socket itself until it is back: that is waited for.
 */
import { BrokerConnectError, type ManagedConnection } from '../broker/index.js';
import type { EventLog } from './eventLog.js';

/** refusals (login, vhost) or silent handshakes in a row after which the connection is gone for good */
export const REFUSALS_BEFORE_GONE = 2;

export class ConnectionNotices {
  reconnects = 0;
  lastError: string | undefined;

  constructor(
    private readonly conn: ManagedConnection,
    private readonly log: EventLog,
    private readonly now: () => number,
    private readonly reattach: () => Promise<void>,
    /** the connection will not come back: the trace ends `failed` with this reason */
    private readonly gone: (reason: string) => void = () => undefined,
  ) {}

  /** reconnects refused (or silent) in a row, and the kind of the last one */
  private refusals = 0;

  private readonly onConnected = () => {
    this.reconnects += 1;
    this.refusals = 0;
    this.log.notice({
      level: 'info',
      code: 'reconnected',
      message: 'trace connection is back: re-attaching observers and workers',
      t: this.now(),
    });
    void this.reattach().catch((err) =>
      this.log.notice({
        level: 'error',
        code: 'reattach-failed',
        message: String((err as Error).message),
        t: this.now(),
      }),
    );
  };
  private readonly onReconnecting = (r: { attempt: number; error?: Error }) => {
    if (r.error) this.lastError = String(r.error.message).slice(0, 200);
    // the first attempt's error is the loss itself; later ones are the reconnects' answers
    const refused =
      r.attempt > 1 &&
      r.error instanceof BrokerConnectError &&
      (r.error.kind === 'auth' || r.error.kind === 'vhost' || r.error.kind === 'timeout');
    this.refusals = refused ? this.refusals + 1 : 0;
    if (this.refusals === REFUSALS_BEFORE_GONE)
      this.gone(
        `${this.refusals} reconnects in a row ${(r.error as BrokerConnectError).kind === 'timeout' ? 'got no answer' : 'were refused'}: ${this.lastError}`,
      );
  };
  private readonly onDisconnected = () => {
    this.log.notice({
      level: 'warn',
      code: 'disconnected',
      message: 'trace connection lost (broker restart?): reconnecting with backoff',
      t: this.now(),
    });
  };

  listen(): void {
    this.conn.on('connected', this.onConnected);
    this.conn.on('disconnected', this.onDisconnected);
    this.conn.on('reconnecting', this.onReconnecting);
  }

  stop(): void {
    this.conn.off('connected', this.onConnected);
    this.conn.off('disconnected', this.onDisconnected);
    this.conn.off('reconnecting', this.onReconnecting);
  }
}
