/**
 * Publishing with a publisher confirm and a timeout (amqplib's callback may never run when a
 * connection dies, so every confirm is bounded), honouring backpressure: when publish() returns
 * false the message is already buffered, so we wait for 'drain' instead of resending.
 */
import type { ConfirmChannel, Options } from 'amqplib';

export const DEFAULT_CONFIRM_TIMEOUT_MS = 5000;

export type ConfirmOutcome = 'acked' | 'nacked';

export class ConfirmTimeoutError extends Error {
  override readonly name = 'ConfirmTimeoutError';
  constructor(
    readonly exchange: string,
    readonly routingKey: string,
    readonly timeoutMs: number,
  ) {
    super(
      `no publisher confirm within ${timeoutMs} ms for a publish to exchange '${exchange}' with routing key '${routingKey}'`,
    );
  }
}

export class ChannelClosedError extends Error {
  override readonly name = 'ChannelClosedError';
}

export interface ConfirmPublishOptions {
  timeoutMs?: number;
}

/** Waits for 'drain' (or channel close) with a timeout. */
export function waitForDrain(ch: ConfirmChannel, timeoutMs = DEFAULT_CONFIRM_TIMEOUT_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error): void => {
      clearTimeout(t);
      ch.off('drain', onDrain);
      ch.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = (): void => done();
    const onClose = (): void => done(new ChannelClosedError('channel closed while waiting for drain'));
    const t = setTimeout(() => done(new Error(`channel did not drain within ${timeoutMs} ms`)), timeoutMs);
    ch.on('drain', onDrain);
    ch.on('close', onClose);
  });
}

/**
 * Publishes and resolves 'acked' or 'nacked' (the broker refused it, e.g. `x-overflow:
 * reject-publish`). Rejects with ConfirmTimeoutError, or when the channel closes first.
 * A mandatory publish that is returned is still 'acked' (the return arrives first on the channel's
 * 'return' event).
 */
export function publishConfirmed(
  ch: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  options: Options.Publish = {},
  { timeoutMs = DEFAULT_CONFIRM_TIMEOUT_MS }: ConfirmPublishOptions = {},
): Promise<ConfirmOutcome> {
  return new Promise<ConfirmOutcome>((resolve, reject) => {
    let settled = false;
    let confirmed: ConfirmOutcome | undefined;
    let drained = true;
    const finish = (err: Error | undefined, outcome?: ConfirmOutcome): void => {
      if (settled) return;
      if (err) {
        settled = true;
        cleanup();
        reject(err);
        return;
      }
      if (outcome) confirmed = outcome;
      if (confirmed && drained) {
        settled = true;
        cleanup();
        resolve(confirmed);
      }
    };
    const onClose = (): void =>
      finish(new ChannelClosedError(`channel closed before the confirm for a publish to '${exchange}'`));
    const onDrain = (): void => {
      drained = true;
      finish(undefined);
    };
    const timer = setTimeout(() => finish(new ConfirmTimeoutError(exchange, routingKey, timeoutMs)), timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      ch.off('close', onClose);
      ch.off('drain', onDrain);
    };
    ch.on('close', onClose);
    try {
      const ok = ch.publish(exchange, routingKey, content, options, (err) => {
        // amqplib calls back with 'message nacked' for a nack and 'channel closed' when the channel dies
        if (err && /channel closed/i.test(String((err as Error).message ?? err))) {
          finish(new ChannelClosedError(`channel closed before the confirm for a publish to '${exchange}'`));
        } else {
          finish(undefined, err ? 'nacked' : 'acked');
        }
      });
      if (!ok) {
        drained = false;
        ch.on('drain', onDrain);
      }
    } catch (err) {
      finish(err as Error);
    }
  });
}

/** unconfirmed publishes a ConfirmedPublisher allows at once by default */
const DEFAULT_MAX_IN_FLIGHT_PUBLISHES = 1000;

/**
 * For floods: at most `maxInFlight` unconfirmed publishes at a time, so memory stays bounded
 * whatever the caller's rate. `publish` resolves once the message is handed to the channel (it
 * waits while the window is full); `flush` waits for every confirm.
 */
export class ConfirmedPublisher {
  private inFlight = 0;
  private readonly waiters: (() => void)[] = [];
  private readonly pending = new Set<Promise<void>>();
  readonly stats = { published: 0, acked: 0, nacked: 0, failed: 0, maxInFlight: 0 };
  /** the first failure (timeout, channel closed); later publishes are refused */
  error: Error | undefined;

  constructor(
    private readonly ch: ConfirmChannel,
    private readonly options: { maxInFlight?: number; timeoutMs?: number } = {},
  ) {
    // each unconfirmed publish listens for 'close' (and 'drain'): as many as the window, and no
    // more (a leak past the window still warns: MaxListenersExceededWarning was in the server log)
    const window = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT_PUBLISHES;
    if (ch.getMaxListeners() !== 0 && ch.getMaxListeners() < window + 10) ch.setMaxListeners(window + 10);
  }

  async publish(exchange: string, routingKey: string, content: Buffer, props: Options.Publish = {}): Promise<void> {
    if (this.error) throw this.error;
    const max = this.options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT_PUBLISHES;
    while (this.inFlight >= max) await new Promise<void>((r) => this.waiters.push(r));
    if (this.error) throw this.error;
    this.inFlight += 1;
    this.stats.published += 1;
    this.stats.maxInFlight = Math.max(this.stats.maxInFlight, this.inFlight);
    const p = publishConfirmed(this.ch, exchange, routingKey, content, props, { timeoutMs: this.options.timeoutMs })
      .then(
        (o) => {
          if (o === 'acked') this.stats.acked += 1;
          else this.stats.nacked += 1;
        },
        (err: Error) => {
          this.stats.failed += 1;
          this.error ??= err;
        },
      )
      .finally(() => {
        this.inFlight -= 1;
        this.pending.delete(p);
        this.waiters.shift()?.();
      });
    this.pending.add(p);
  }

  async flush(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
    if (this.error) throw this.error;
  }
}
