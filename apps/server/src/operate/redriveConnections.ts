/**
 * The re-drive's two connections of its own, consume side and publish side, so that each side's
 * loss is known exactly. Each comes back by itself (the broker layer's reconnect with backoff);
 * the job fails only when a side stays down longer than `reconnectMs`, with the reason.
 */
import { ManagedConnection, redactUrl, type AmqpUrl } from '../broker/index.js';

export type Side = 'consume' | 'publish';
export type OpenConnection = Awaited<ReturnType<ManagedConnection['start']>>;

/** What re-opening a side needs from the job. */
export interface SidesHost {
  readonly active: boolean;
  readonly queue: string;
  /** confirmed copies so far, for the failure's message */
  readonly moved: number;
  /** opens the side's channel on a fresh connection (throws when it cannot yet) */
  openSide(side: Side, conn: OpenConnection): Promise<void>;
  reopened(side: Side): void;
  fail(reason: string): void;
}

export class RedriveConnections {
  readonly consume: ManagedConnection;
  readonly publish: ManagedConnection;
  private readonly down = new Map<Side, { since: number; reason: string }>();

  constructor(
    private readonly url: AmqpUrl,
    readonly jobId: string,
    private readonly reconnectMs: number,
    private readonly host: SidesHost,
  ) {
    const backoff = { initialDelayMs: 200, maxDelayMs: 2000 };
    this.consume = new ManagedConnection(url, 'operate', { label: `redrive-${jobId}-consume`, backoff });
    this.publish = new ManagedConnection(url, 'operate', { label: `redrive-${jobId}-publish`, backoff });
    for (const [side, mc] of [['consume', this.consume] as const, ['publish', this.publish] as const])
      mc.on('reconnecting', (e: { attempt: number; error?: Error }) => {
        const d = this.down.get(side);
        if (d && e.error) d.reason = e.error.message;
      });
  }

  /** The connection names the broker shows (consume side, publish side). */
  get names(): { consume: string; publish: string } {
    return {
      consume: `retry-studio:operate:redrive-${this.jobId}-consume`,
      publish: `retry-studio:operate:redrive-${this.jobId}-publish`,
    };
  }

  /** a side is down and being re-opened */
  get anyDown(): boolean {
    return this.down.size > 0;
  }

  start(): Promise<[OpenConnection, OpenConnection]> {
    return Promise.all([this.consume.start(), this.publish.start()]);
  }

  /** the side is down since now (or since it first went) and is re-opened in the background */
  lost(side: Side, what: string): void {
    if (!this.down.has(side)) this.down.set(side, { since: Date.now(), reason: what });
    void this.reopen(side);
  }

  private async reopen(side: Side): Promise<void> {
    const mc = side === 'consume' ? this.consume : this.publish;
    const limit = this.reconnectMs;
    const since = this.down.get(side)?.since ?? Date.now();
    while (this.host.active) {
      const remaining = since + limit - Date.now();
      if (remaining <= 0) {
        const why = this.down.get(side)?.reason ?? 'no reason given';
        return this.host.fail(
          `the ${side} connection to ${redactUrl(this.url)} was lost and did not come back within ${limit} ms (${why}) after moving ${this.host.moved}: every message not yet acked is back in '${this.host.queue}'`,
        );
      }
      // polled, not mc.ready(): a cancel must not leave a timer running for `reconnectMs`
      const conn = mc.current;
      if (!conn) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      try {
        await this.host.openSide(side, conn);
        this.down.delete(side);
        this.host.reopened(side);
        return;
      } catch (err) {
        const msg = (err as Error).message ?? String(err);
        if (side === 'consume' && /NOT_FOUND|404/.test(msg))
          return this.host.fail(`queue '${this.host.queue}' no longer exists (${msg}) after moving ${this.host.moved}`);
        const d = this.down.get(side);
        if (d) d.reason = msg;
        // the broker may still hold the old exclusive consumer for a moment
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.consume.close(), this.publish.close()]);
  }
}
