/**
 * Broker connections: opened with a timeout, one per purpose ('apply' topology, 'trace' consumers,
 * 'probe', 'conformance', ...), so that a failed declaration (which can close a whole connection,
 * e.g. an unknown exchange type) never kills the live trace.
 */
import { EventEmitter } from 'node:events';
import amqp, { type Channel, type ChannelModel, type ConfirmChannel } from 'amqplib';
import { DEFAULT_HEARTBEAT_S, redactUrl, toConnectOptions, type AmqpUrl } from './amqpUrl.js';
import { coalesceWrites } from './coalesceWrites.js';

export type ConnectionPurpose = 'apply' | 'trace' | 'probe' | 'conformance' | 'bench' | 'cli' | 'operate';

export const DEFAULT_CONNECT_TIMEOUT_MS = 5000;

/** Connecting failed; the message is ours (no password), `cause` is amqplib's. */
export class BrokerConnectError extends Error {
  override readonly name = 'BrokerConnectError';
  constructor(
    readonly kind: 'unreachable' | 'timeout' | 'auth' | 'vhost' | 'protocol',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

function describeConnectError(url: AmqpUrl, err: unknown): BrokerConnectError {
  const where = redactUrl(url);
  const e = err as { code?: string; message?: string };
  const msg = String(e?.message ?? err);
  if (e?.code === 'ECONNREFUSED')
    return new BrokerConnectError('unreachable', `broker not reachable at ${where}: connection refused`, {
      cause: err,
    });
  if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN')
    return new BrokerConnectError('unreachable', `broker host '${url.hostname}' not found (${where})`, { cause: err });
  if (e?.code === 'ETIMEDOUT' || /timeout/i.test(msg))
    return new BrokerConnectError('timeout', `broker at ${where} did not answer in time`, { cause: err });
  if (/ACCESS_REFUSED|403|authentication|Handshake terminated/i.test(msg)) {
    return new BrokerConnectError(
      'auth',
      `login refused for user '${url.username}' at ${where} (check the user name and password; guest may only log in from localhost)`,
      { cause: err },
    );
  }
  if (/NOT_ALLOWED|530|vhost|Expected ConnectionOpenOk/i.test(msg)) {
    return new BrokerConnectError(
      'vhost',
      `vhost '${url.vhost}' does not exist or user '${url.username}' may not access it (${where})`,
      { cause: err },
    );
  }
  if (e?.code === 'ECONNRESET' || e?.code === 'EPIPE')
    return new BrokerConnectError(
      'protocol',
      `broker at ${where} closed the connection during the handshake (is it an AMQP 0-9-1 port?)`,
      { cause: err },
    );
  // something answered, but not as an AMQP 0-9-1 broker (an HTTP server, a database, ...)
  if (
    /Socket closed abruptly during opening handshake|Frame size .* exceeds|Unexpected frame|Expected ConnectionStart/i.test(
      msg,
    )
  )
    return new BrokerConnectError(
      'protocol',
      `${where} is not a RabbitMQ AMQP port: the server there did not answer the AMQP 0-9-1 handshake (${msg})`,
      { cause: err },
    );
  return new BrokerConnectError('protocol', `could not connect to ${where}: ${msg.replace(url.password, '***')}`, {
    cause: err,
  });
}

export interface OpenOptions {
  purpose: ConnectionPurpose;
  /** appended to the connection name the broker shows (`retry-studio:<purpose>:<label>`) */
  label?: string;
  timeoutMs?: number;
}

/**
 * One connection, with a handshake timeout. 'error' is always handled (an unhandled
 * connection 'error' crashes Node); callers listen to 'close' for loss.
 */
export async function openConnection(url: AmqpUrl, opts: OpenOptions): Promise<ChannelModel> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const attempt = amqp.connect(toConnectOptions(url), {
    timeout: timeoutMs,
    // small frames (an ack, a reject, one publish) go out at once, not after Nagle's delay (tens of ms per hop)
    noDelay: true,
    clientProperties: { connection_name: `retry-studio:${opts.purpose}${opts.label ? ':' + opts.label : ''}` },
  });
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      reject(
        new BrokerConnectError(
          'timeout',
          `broker at ${redactUrl(url)} did not complete the AMQP handshake within ${timeoutMs} ms (is it a RabbitMQ AMQP port? an HTTP server, for one, stays silent)`,
        ),
      );
    }, timeoutMs);
  });
  try {
    const conn = await Promise.race([attempt, timeout]);
    coalesceWrites(conn);
    conn.on('error', () => {
      /* reported through 'close'; handling it here keeps Node alive */
    });
    return conn;
  } catch (err) {
    if (timedOut) {
      // a late success must not leak a connection
      attempt.then((c) => c.close().catch(() => undefined)).catch(() => undefined);
      throw err;
    }
    throw describeConnectError(url, err);
  } finally {
    clearTimeout(timer);
  }
}

export interface BackoffOptions {
  initialDelayMs?: number;
  maxDelayMs?: number;
  factor?: number;
  /** give up after this many failed attempts in a row (default: never) */
  maxAttempts?: number;
}

export function backoffDelay(attempt: number, o: BackoffOptions = {}): number {
  const initial = o.initialDelayMs ?? 200;
  const max = o.maxDelayMs ?? 10_000;
  const factor = o.factor ?? 2;
  const base = Math.min(max, initial * factor ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** A connection lost mid-run, said in words (amqplib's "Heartbeat timeout": the broker went silent). */
export class ConnectionLostError extends Error {
  constructor(url: AmqpUrl, cause?: Error) {
    super(`the connection to ${redactUrl(url)} was lost: ${lossReason(url, cause)}`, cause ? { cause } : undefined);
    this.name = 'ConnectionLostError';
  }
}

/** why a connection went away, in words */
export function lossReason(url: AmqpUrl, cause?: Error): string {
  const m = cause?.message ?? '';
  if (m === 'Heartbeat timeout')
    return `the broker stopped answering on AMQP (no heartbeat for two intervals of ${url.heartbeat ?? DEFAULT_HEARTBEAT_S} s)`;
  if (/ECONNRESET|EPIPE|socket hang up|Unexpected close/i.test(m)) return 'the broker closed the connection';
  return m ? m.replace(/\s*\n+\s*/g, ' ') : 'closed by the broker';
}

/**
 * A connection that comes back: when the broker restarts (or the connection closes for any
 * reason other than our own close()), it reconnects with exponential backoff and emits
 * 'connected' again so users can redo their setup (channels, consumers).
 *
 * Events: 'connected' (ChannelModel), 'disconnected' (Error | undefined), 'reconnecting'
 * ({attempt, delayMs, error}), 'failed' (Error: gave up).
 * 'error' and 'close' may both fire for one loss: only one reconnect loop ever runs.
 */
export class ManagedConnection extends EventEmitter {
  private conn: ChannelModel | undefined;
  private closing = false;
  private reconnecting = false;
  private generation = 0;

  constructor(
    readonly url: AmqpUrl,
    readonly purpose: ConnectionPurpose,
    private readonly options: { timeoutMs?: number; backoff?: BackoffOptions; label?: string } = {},
  ) {
    super();
    // an 'error' without listeners would throw
    this.on('error', () => undefined);
  }

  get current(): ChannelModel | undefined {
    return this.conn;
  }

  get isOpen(): boolean {
    return this.conn !== undefined;
  }

  /**
   * First connection. By default it fails fast with a clear error; with `waitMs` it keeps
   * retrying with backoff for that long (a broker that is still starting).
   */
  async start(options: { waitMs?: number } = {}): Promise<ChannelModel> {
    if (this.conn) return this.conn;
    try {
      const conn = await openConnection(this.url, {
        purpose: this.purpose,
        timeoutMs: this.options.timeoutMs,
        label: this.options.label,
      });
      this.adopt(conn);
      return conn;
    } catch (err) {
      if (!options.waitMs) throw err;
      void this.reconnectLoop(err as Error);
      try {
        return await this.ready(options.waitMs);
      } catch {
        await this.close();
        throw err;
      }
    }
  }

  /** the next loss, shared by every caller racing against it (one listener however many race) */
  private nextLoss: Promise<never> | undefined;

  /**
   * Rejects with ConnectionLostError when the connection is lost (not by close()): a run that
   * cannot go on without it races its work against this, and ends in seconds with the reason
   * (a broker gone silent: two missed heartbeats) instead of waiting on a channel that never answers.
   */
  whenLost(): Promise<never> {
    if (!this.nextLoss) {
      const p = new Promise<never>((_, reject) =>
        this.once('disconnected', (err?: Error) => {
          if (this.nextLoss === p) this.nextLoss = undefined;
          reject(new ConnectionLostError(this.url, err));
        }),
      );
      p.catch(() => undefined); // nobody racing at that moment is fine
      this.nextLoss = p;
    }
    return this.nextLoss;
  }

  /** the next 'connected', shared by every caller waiting for it (one listener, however many wait: no MaxListenersExceededWarning) */
  private nextConnected: Promise<ChannelModel> | undefined;

  /** Resolves with an open connection, waiting for a reconnect when one is under way. */
  async ready(timeoutMs = 30_000): Promise<ChannelModel> {
    if (this.conn) return this.conn;
    if (this.closing) throw new Error(`${this.purpose} connection is closed`);
    this.nextConnected ??= new Promise<ChannelModel>((resolve) =>
      this.once('connected', (c: ChannelModel) => {
        this.nextConnected = undefined;
        resolve(c);
      }),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${this.purpose} connection to ${redactUrl(this.url)} not back within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.nextConnected, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async createChannel(): Promise<Channel> {
    const ch = await (await this.ready()).createChannel();
    ch.on('error', () => undefined);
    return ch;
  }

  async createConfirmChannel(): Promise<ConfirmChannel> {
    const ch = await (await this.ready()).createConfirmChannel();
    ch.on('error', () => undefined);
    return ch;
  }

  private adopt(conn: ChannelModel): void {
    const gen = ++this.generation;
    this.conn = conn;
    let lost = false;
    const onLoss = (err?: Error): void => {
      if (lost || gen !== this.generation) return;
      lost = true;
      this.conn = undefined;
      this.emit('disconnected', err);
      if (!this.closing) void this.reconnectLoop(err);
    };
    conn.on('error', (err: Error) => onLoss(err));
    conn.on('close', (err?: Error) => onLoss(err));
    this.emit('connected', conn);
  }

  private async reconnectLoop(cause?: Error): Promise<void> {
    if (this.reconnecting) return;
    this.reconnecting = true;
    let attempt = 0;
    let lastError: Error | undefined = cause;
    try {
      while (!this.closing) {
        attempt += 1;
        if (this.options.backoff?.maxAttempts !== undefined && attempt > this.options.backoff.maxAttempts) {
          this.emit('failed', lastError ?? new Error('gave up reconnecting'));
          return;
        }
        const delayMs = backoffDelay(attempt, this.options.backoff);
        this.emit('reconnecting', { attempt, delayMs, error: lastError });
        await new Promise((r) => setTimeout(r, delayMs));
        if (this.closing) return;
        try {
          const conn = await openConnection(this.url, {
            purpose: this.purpose,
            timeoutMs: this.options.timeoutMs,
            label: this.options.label,
          });
          if (this.closing) {
            await conn.close().catch(() => undefined);
            return;
          }
          this.adopt(conn);
          return;
        } catch (err) {
          lastError = err as Error;
        }
      }
    } finally {
      this.reconnecting = false;
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const c = this.conn;
    this.conn = undefined;
    if (c) await closeWithin(c, CLOSE_WAIT_MS);
  }
}

/** how long a close waits for the broker's close-ok before the socket is dropped */
const CLOSE_WAIT_MS = 5_000;

/**
 * Closes `c`, waiting at most `ms` for the broker's close-ok: a broker that closed the connection
 * itself at the same moment (a vhost deleted, a password changed) or went silent never answers,
 * and a shutdown must not wait on it. The socket is dropped then; the broker cleans up its side.
 */
async function closeWithin(c: ChannelModel, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), ms)));
  const ended = await Promise.race([
    c.close().then(
      () => 'closed' as const,
      () => 'closed' as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  if (ended === 'late')
    (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/** Runs `fn` on a fresh channel that is closed afterwards (passive checks close channels on 404). */
export async function withThrowawayChannel<T>(conn: ChannelModel, fn: (ch: Channel) => Promise<T>): Promise<T> {
  const ch = await conn.createChannel();
  ch.on('error', () => undefined);
  try {
    return await fn(ch);
  } finally {
    await ch.close().catch(() => undefined);
  }
}
