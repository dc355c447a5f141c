/**
 * Publishing by the batch, for a mover that forwards what it read (the re-drive): a copy's
 * basic.publish, content header and body frames are written into one buffer with the
 * properties as given (the bytes a `RawDelivery` carries, see rawDeliveries.ts), and a batch
 * goes to amqplib's channel writer as one chunk. amqplib's own publish encodes every property
 * and header (x-death's nested tables included) from objects and writes each message on its
 * own; at 20,000 copies a second that was most of the mover's CPU.
 *
 * Confirms stay amqplib's: each publish registers its callback on the confirm channel in the
 * order its frames are written, so the broker's (multiple) acks and nacks, a closed channel,
 * and `waitForConfirms` work as for amqplib's publish. Nothing else may publish on the channel
 * while a batch is open (the publish sequence would be off). Reaches into amqplib's internals
 * (`connection.channels[ch].buffer`, `pushConfirmCallback`, `frameMax`), so `attach` checks what
 * it finds and returns undefined for an amqplib that looks different.
 */
import type { ConfirmChannel, Options } from 'amqplib';
import { amqpCodec as codec, amqpDefs as defs } from './amqplibInternals.js';

const FRAME_END = 0xce;
/** type, channel, size ... frame-end */
const FRAME_OVERHEAD = 8;
/** a batch is handed over once it holds this much; a buffer holds a few batches */
const FLUSH_AT = 128 * 1024;
const BATCH_BYTES = 1024 * 1024;

/** property flags (AMQP 0-9-1 basic class), in wire order */
export const PROPERTY_FLAG = {
  contentType: 0x8000,
  contentEncoding: 0x4000,
  headers: 0x2000,
  deliveryMode: 0x1000,
  priority: 0x0800,
  correlationId: 0x0400,
  replyTo: 0x0200,
  expiration: 0x0100,
  messageId: 0x0080,
  timestamp: 0x0040,
  type: 0x0020,
  userId: 0x0010,
  appId: 0x0008,
  clusterId: 0x0004,
  /** more flags follow: no RabbitMQ property uses it */
  continuation: 0x0001,
} as const;

/** Property flags and list for `fields`, encoded by amqplib: for a copy whose properties change beyond headers added. */
export function encodePropertyList(fields: Options.Publish): Buffer {
  // a whole content-header frame: frame header (7), class, weight (4), body size (8), the list, frame-end
  const frame = defs.encodeProperties(defs.BasicProperties, 0, 0, fields);
  return frame.subarray(19, frame.length - 1);
}

/**
 * A copy's property flags and list: `base` as it is, or with `headerEntries` (encoded field-table
 * entries, see `encodeTableEntries`) added at the end of its headers table, a headers table
 * created when it has none. Whoever adds entries makes sure none of their names is in the table.
 */
export interface PropertyList {
  readonly base: Buffer;
  readonly headerEntries?: Buffer | undefined;
}

const propertyListLength = (p: PropertyList): number => {
  if (!p.headerEntries) return p.base.length;
  return p.base.length + p.headerEntries.length + ((p.base.readUInt16BE(0) & PROPERTY_FLAG.headers) === 0 ? 4 : 0);
};

/** writes the list at `at`; returns where it ends */
function writePropertyList(out: Buffer, at: number, p: PropertyList): number {
  const { base, headerEntries: entries } = p;
  if (!entries) return at + base.copy(out, at);
  const flags = base.readUInt16BE(0);
  if (flags & PROPERTY_FLAG.continuation) throw new Error('property flags with a continuation bit are not supported');
  let t = 2;
  if (flags & PROPERTY_FLAG.contentType) t += 1 + base[t]!;
  if (flags & PROPERTY_FLAG.contentEncoding) t += 1 + base[t]!;
  const hasTable = (flags & PROPERTY_FLAG.headers) !== 0;
  const tableLen = hasTable ? base.readUInt32BE(t) : 0;
  const tableEnd = hasTable ? t + 4 + tableLen : t;
  out.writeUInt16BE(flags | PROPERTY_FLAG.headers, at);
  let o = at + 2 + base.copy(out, at + 2, 2, t);
  o = out.writeUInt32BE(tableLen + entries.length, o);
  if (hasTable) o += base.copy(out, o, t + 4, tableEnd);
  o += entries.copy(out, o);
  return o + base.copy(out, o, tableEnd);
}

/** The list as one buffer, to compare or inspect: `publish` writes it into its frame in place. */
export function withHeaderEntries(base: Buffer, headerEntries: Buffer): Buffer {
  const p = { base, headerEntries };
  const out = Buffer.allocUnsafe(propertyListLength(p));
  writePropertyList(out, 0, p);
  return out;
}

const SCRATCH = Buffer.alloc(64 * 1024);

/** Field-table entries for `table` as amqplib encodes them (same value types), without the table's length. */
export function encodeTableEntries(table: Record<string, unknown>): Buffer {
  const len = codec.encodeTable(SCRATCH, table, 0);
  return Buffer.from(SCRATCH.subarray(4, len));
}

interface ChannelInternals {
  ch: number;
  connection: {
    channels: ({ channel: unknown; buffer: { write: (b: Buffer) => boolean } } | null)[];
    frameMax: number;
    sentSinceLastCheck: boolean;
  };
  pushConfirmCallback: (cb: ((err: unknown) => void) | false) => void;
}

export class FramePublisher {
  /** the batch being written, and how much of it is */
  private buf: Buffer = Buffer.allocUnsafeSlow(BATCH_BYTES);
  private used = 0;

  private constructor(
    private readonly ch: ConfirmChannel,
    private readonly internals: ChannelInternals,
  ) {}

  /** undefined when amqplib does not look as expected: publish with amqplib's own `publish` then */
  static attach(ch: ConfirmChannel): FramePublisher | undefined {
    const c = ch as unknown as Partial<ChannelInternals>;
    if (
      typeof c.ch !== 'number' ||
      typeof c.pushConfirmCallback !== 'function' ||
      typeof c.connection?.frameMax !== 'number'
    )
      return undefined;
    if (typeof c.connection.channels?.[c.ch]?.buffer?.write !== 'function') return undefined;
    return new FramePublisher(ch, c as ChannelInternals);
  }

  /**
   * Adds one publish to the batch; `onConfirm` gets null (ack) or an error (nack, channel
   * closed), as amqplib's publish callback does. Throws when the channel is closed.
   * Returns false when the batch should be flushed (it is large).
   */
  publish(
    exchange: string,
    routingKey: string,
    mandatory: boolean,
    properties: PropertyList,
    content: Buffer,
    onConfirm: (err: unknown) => void,
  ): boolean {
    const chan = this.internals.ch;
    if (this.internals.connection.channels[chan]?.channel !== this.ch) throw new Error('Channel closed');
    const exLen = Buffer.byteLength(exchange);
    const rkLen = Buffer.byteLength(routingKey);
    if (exLen > 255) throw new TypeError(`exchange name is ${exLen} bytes: at most 255`);
    if (rkLen > 255) throw new TypeError(`routing key is ${rkLen} bytes: at most 255`);
    const maxBody = this.internals.connection.frameMax - FRAME_OVERHEAD;
    const bodyFrames = content.length === 0 ? 0 : Math.ceil(content.length / maxBody);
    // method: class+method (4), reserved short (2), exchange, routing key, bits (1)
    const methodSize = 4 + 2 + 1 + exLen + 1 + rkLen + 1;
    // header: class (2), weight (2), body size (8), properties
    const headerSize = 12 + propertyListLength(properties);
    const total = FRAME_OVERHEAD * (2 + bodyFrames) + methodSize + headerSize + content.length;
    if (this.used + total > this.buf.length) {
      this.flush();
      if (total > this.buf.length) this.buf = Buffer.allocUnsafeSlow(total);
    }
    const b = this.buf;
    let o = this.used;
    b[o++] = 1;
    o = b.writeUInt16BE(chan, o);
    o = b.writeUInt32BE(methodSize, o);
    o = b.writeUInt32BE(defs.BasicPublish, o);
    o = b.writeUInt16BE(0, o);
    b[o++] = exLen;
    o += b.write(exchange, o, 'utf8');
    b[o++] = rkLen;
    o += b.write(routingKey, o, 'utf8');
    b[o++] = mandatory ? 1 : 0;
    b[o++] = FRAME_END;
    b[o++] = 2;
    o = b.writeUInt16BE(chan, o);
    o = b.writeUInt32BE(headerSize, o);
    o = b.writeUInt16BE(defs.BasicProperties, o);
    o = b.writeUInt16BE(0, o);
    o = b.writeUInt32BE(Math.floor(content.length / 0x1_0000_0000), o);
    o = b.writeUInt32BE(content.length >>> 0, o);
    o = writePropertyList(b, o, properties);
    b[o++] = FRAME_END;
    for (let from = 0; from < content.length; from += maxBody) {
      const end = Math.min(content.length, from + maxBody);
      b[o++] = 3;
      o = b.writeUInt16BE(chan, o);
      o = b.writeUInt32BE(end - from, o);
      o += content.copy(b, o, from, end);
      b[o++] = FRAME_END;
    }
    this.used = o;
    this.internals.pushConfirmCallback(onConfirm);
    return o < FLUSH_AT;
  }

  /** Hands the batch to the channel's writer; false when the writer is full (wait for the channel's 'drain'). */
  flush(): boolean {
    if (this.used === 0) return true;
    const conn = this.internals.connection;
    const rec = conn.channels[this.internals.ch];
    const batch = this.buf.subarray(0, this.used);
    // the rest of the buffer is the next batch: the writer holds on to this one until it is sent
    this.buf =
      this.buf.length - this.used >= FLUSH_AT ? this.buf.subarray(this.used) : Buffer.allocUnsafeSlow(BATCH_BYTES);
    this.used = 0;
    // the channel closed with the batch unsent: amqplib already failed its confirm callbacks
    if (rec?.channel !== this.ch) return true;
    conn.sentSinceLastCheck = true;
    return rec.buffer.write(batch);
  }

  get channel(): ConfirmChannel {
    return this.ch;
  }
}
