/**
 * One channel per purpose, opened once and shared by every caller.
 *
 * Why a promise and not a field: a flag set after `await createChannel()` lets every caller that
 * arrives while the first channel is being opened open its own (a trace's 50 concurrent publishes
 * left 49 channels open; after a few traces the connection hit the broker's 2,047-channel limit).
 * Concurrent callers here await the same promise. A channel that closes (broker restart, channel
 * error) empties the slot, and the next caller opens a new one; `close()` closes what is open or
 * being opened.
 */
import type { Channel, ConfirmChannel } from 'amqplib';

export class ChannelSlot<C extends Channel | ConfirmChannel> {
  private pending: Promise<C> | undefined;
  /** the channel once open (close() never waits for an open under way: it may wait for a reconnect) */
  private open_: C | undefined;
  private closed = false;
  /** channels opened over the slot's life (a test reads it: one per purpose, plus one per loss) */
  opened = 0;

  constructor(
    private readonly open: () => Promise<C>,
    /** set up a new channel (listeners) before anyone uses it */
    private readonly prepare: (ch: C) => void = () => undefined,
  ) {}

  /** the open channel, opening it once when there is none */
  get(): Promise<C> {
    if (this.closed) return Promise.reject(new Error('the channel was closed for good'));
    if (this.pending) return this.pending;
    const p = this.open().then(
      (ch) => {
        this.opened += 1;
        this.prepare(ch);
        ch.on('close', () => {
          if (this.pending === p) this.pending = undefined;
          if (this.open_ === ch) this.open_ = undefined;
        });
        if (this.closed) {
          void ch.close().catch(() => undefined);
          throw new Error('the channel was closed for good');
        }
        this.open_ = ch;
        return ch;
      },
      (err: unknown) => {
        // a failed open leaves the slot empty: the next caller tries again
        if (this.pending === p) this.pending = undefined;
        throw err;
      },
    );
    this.pending = p;
    return p;
  }

  /** closes the open channel (one being opened is closed as soon as it opens); the slot opens no other */
  async close(): Promise<void> {
    this.closed = true;
    this.pending = undefined;
    const ch = this.open_;
    this.open_ = undefined;
    await ch?.close().catch(() => undefined);
  }
}
