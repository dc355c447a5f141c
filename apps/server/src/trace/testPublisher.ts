/**
 * Publishes a trace's test messages with confirms, a bounded window of unconfirmed publishes
 * (memory stays bounded for 100,000 messages; `publishConfirmed` also waits for 'drain' when
 * amqplib's buffer is full), an optional rate, and retries across a broker restart
 * (at-least-once: a message whose confirm was lost is published again with the same id).
 */
import type { ConfirmChannel, Options } from 'amqplib';
import type { PublisherSpec } from '@retry-studio/topology-core/model';
import type { TracePublishStats } from '@retry-studio/contract';
import { ChannelSlot, publishConfirmed, type ManagedConnection } from '../broker/index.js';
import { MSG_HEADER, TRACE_HEADER } from './observer.js';
import type { TraceOptions } from './traceOptions.js';

export interface TestMessage {
  readonly msgId: string;
  readonly exchange: string;
  readonly routingKey: string;
  readonly body: string;
  readonly options: Options.Publish;
}

/** the contract's counts (a trace summary's `publish`), counted up here */
export type PublishStats = { -readonly [K in keyof TracePublishStats]: TracePublishStats[K] };

export interface TestPublisherOptions {
  readonly window?: number;
  readonly ratePerSecond?: number;
  readonly confirmTimeoutMs?: number;
  /** first publish of a message (not retries) */
  readonly onPublish?: (m: TestMessage) => void;
  readonly onConfirmed?: (m: TestMessage, outcome: 'acked' | 'nacked') => void;
  readonly onReturn?: (msg: { fields: { exchange: string; routingKey: string }; properties: Options.Publish }) => void;
  readonly isStopped?: () => boolean;
}

export class TestPublisher {
  readonly stats: PublishStats = { published: 0, confirmed: 0, nacked: 0, retried: 0, maxInFlight: 0, windowWaits: 0 };
  /** why the last publish or channel failed (a trace that could not publish everything says it) */
  lastError: string | undefined;
  /** the one publish channel: concurrent publishes share it (a promise, not a flag) */
  readonly channels: ChannelSlot<ConfirmChannel>;

  constructor(
    private readonly conn: ManagedConnection,
    private readonly opts: TestPublisherOptions = {},
  ) {
    this.channels = new ChannelSlot(
      () => this.conn.createConfirmChannel(),
      (ch) => {
        ch.setMaxListeners(0); // one 'close' listener per unconfirmed publish (bounded by the window)
        ch.on('return', (msg) => this.opts.onReturn?.(msg as never));
      },
    );
  }

  private channel(): Promise<ConfirmChannel> {
    return this.channels.get();
  }

  async run(messages: Iterable<TestMessage>): Promise<void> {
    const window = this.opts.window ?? 500;
    const inFlight = new Set<Promise<void>>();
    // a slot frees: wake the one waiter (Promise.race over the whole window would cost O(window) per publish)
    let wake: (() => void) | undefined;
    const retry: TestMessage[] = [];
    const started = performance.now();
    let n = 0;
    const send = (m: TestMessage, first: boolean): Promise<void> => {
      const p = (async () => {
        let ch: ConfirmChannel;
        try {
          ch = await this.channel();
        } catch (err) {
          this.lastError = `no publish channel: ${String((err as Error).message ?? err).slice(0, 200)}`;
          retry.push(m);
          return;
        }
        if (first) {
          this.stats.published += 1;
          this.opts.onPublish?.(m);
        }
        try {
          const outcome = await publishConfirmed(ch, m.exchange, m.routingKey, Buffer.from(m.body), m.options, {
            timeoutMs: this.opts.confirmTimeoutMs ?? 10_000,
          });
          if (outcome === 'acked') this.stats.confirmed += 1;
          else this.stats.nacked += 1;
          this.opts.onConfirmed?.(m, outcome);
        } catch (err) {
          // connection lost or confirm timed out: unknown outcome, publish again (same msgId)
          this.lastError = String((err as Error).message ?? err).slice(0, 200);
          retry.push(m);
        }
      })();
      inFlight.add(p);
      void p.finally(() => {
        inFlight.delete(p);
        const w = wake;
        wake = undefined;
        w?.();
      });
      this.stats.maxInFlight = Math.max(this.stats.maxInFlight, inFlight.size);
      return p;
    };
    const throttle = async () => {
      while (inFlight.size >= window) {
        this.stats.windowWaits += 1;
        await new Promise<void>((r) => (wake = r));
      }
      if (this.opts.ratePerSecond) {
        const due = started + (n / this.opts.ratePerSecond) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    };
    for (const m of messages) {
      if (this.opts.isStopped?.()) break;
      await throttle();
      n += 1;
      void send(m, true);
    }
    for (let round = 0; round < 50; round++) {
      await Promise.all(inFlight);
      if (retry.length === 0 || this.opts.isStopped?.()) break;
      await this.conn.ready(120_000).catch(() => undefined);
      const again = retry.splice(0);
      for (const m of again) {
        await throttle();
        this.stats.retried += 1;
        void send(m, false);
      }
    }
    await Promise.all(inFlight);
  }

  async close(): Promise<void> {
    await this.channels.close();
  }
}

/** the trace's options that shape its test messages */
export type TestMessageOptions = Pick<TraceOptions, 'messages' | 'headers' | 'expiration' | 'priority' | 'persistent'>;

/** A trace's test messages from a publisher node (real names), named as the simulator names them: `${publisher}-${n}`. */
export function* testMessages(p: PublisherSpec, opts: TestMessageOptions, traceId: string): Generator<TestMessage> {
  const n = opts.messages ?? 1;
  const props = p.properties ?? {};
  for (let i = 1; i <= n; i++) {
    const msgId = `${p.id}-${i}`;
    const expiration = opts.expiration ?? props.expiration;
    const priority = opts.priority ?? props.priority;
    yield {
      msgId,
      exchange: p.exchange,
      routingKey: p.routingKey,
      body: `${p.bodyPrefix ?? p.id}-${i}`,
      options: {
        headers: { ...(props.headers ?? {}), ...(opts.headers ?? {}), [TRACE_HEADER]: traceId, [MSG_HEADER]: msgId },
        persistent: opts.persistent ?? true,
        // always mandatory: a return is how an unroutable first hop is seen
        mandatory: true,
        messageId: props.message_id ?? msgId,
        ...(expiration !== undefined ? { expiration } : {}),
        ...(priority !== undefined ? { priority } : {}),
      },
    };
  }
}

/**
 * A test message's 1-based index: the number after its id's last '-' (0: none). Read without a
 * match object: it is asked for every event of a trace.
 */
export function messageIndexOf(msgId: string): number {
  let n = 0;
  let scale = 1;
  for (let i = msgId.length - 1; i >= 0; i--) {
    const c = msgId.charCodeAt(i) - 48;
    if (c >= 0 && c <= 9) {
      n += c * scale;
      scale *= 10;
    } else return msgId.charCodeAt(i) === 45 && scale > 1 ? n : 0;
  }
  return 0;
}
