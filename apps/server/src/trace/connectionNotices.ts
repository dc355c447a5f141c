/**
 * What a trace says as its connection comes and goes: a notice on loss and on return (then the
 * observers and workers re-attach), the count of reconnects, and the last error a reconnect gave
 * (a trace whose connection is gone for good says it).
 */
import type { ManagedConnection } from '../broker/index.js';
import type { EventLog } from './eventLog.js';

export class ConnectionNotices {
  reconnects = 0;
  lastError: string | undefined;

  constructor(
    private readonly conn: ManagedConnection,
    private readonly log: EventLog,
    private readonly now: () => number,
    private readonly reattach: () => Promise<void>,
  ) {}

  private readonly onConnected = () => {
    this.reconnects += 1;
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
  private readonly onReconnecting = (r: { error?: Error }) => {
    if (r.error) this.lastError = String(r.error.message).slice(0, 200);
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
