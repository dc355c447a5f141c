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
/** a batch is handed over once it holds this much */
const BATCH_BYTES = 128 * 1024;

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
 * The property list `raw` with `entries` (encoded field-table entries, see `encodeTableEntries`)
 * added at the end of its headers table, a headers table created when it has none. The caller
 * makes sure none of the entries' names is in the table already.
 */
export function withHeaderEntries(raw: Buffer, entries: Buffer): Buffer {
  const flags = raw.readUInt16BE(0);
  if (flags & PROPERTY_FLAG.continuation) throw new Error('property flags with a continuation bit are not supported');
  let at = 2;
  if (flags & PROPERTY_FLAG.contentType) at += 1 + raw[at]!;
  if (flags & PROPERTY_FLAG.contentEncoding) at += 1 + raw[at]!;
  const hasTable = (flags & PROPERTY_FLAG.headers) !== 0;
  const tableLen = hasTable ? raw.readUInt32BE(at) : 0;
  const tableEnd = hasTable ? at + 4 + tableLen : at;
  const out = Buffer.allocUnsafe(raw.length + entries.length + (hasTable ? 0 : 4));
  out.writeUInt16BE(flags | PROPERTY_FLAG.headers, 0);
  raw.copy(out, 2, 2, at);
  out.writeUInt32BE(tableLen + entries.length, at);
  let o = at + 4;
  if (hasTable) o += raw.copy(out, o, at + 4, tableEnd);
  o += entries.copy(out, o);
  raw.copy(out, o, tableEnd);
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
  private chunks: Buffer[] = [];
  private size = 0;

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
    properties: Buffer,
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
    const headerSize = 12 + properties.length;
    const total = FRAME_OVERHEAD * (2 + bodyFrames) + methodSize + headerSize + content.length;
    const b = Buffer.allocUnsafe(total);
    let o = 0;
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
    o += properties.copy(b, o);
    b[o++] = FRAME_END;
    for (let from = 0; from < content.length; from += maxBody) {
      const end = Math.min(content.length, from + maxBody);
      b[o++] = 3;
      o = b.writeUInt16BE(chan, o);
      o = b.writeUInt32BE(end - from, o);
      o += content.copy(b, o, from, end);
      b[o++] = FRAME_END;
    }
    this.chunks.push(b);
    this.size += total;
    this.internals.pushConfirmCallback(onConfirm);
    return this.size < BATCH_BYTES;
  }

  /** Hands the batch to the channel's writer; false when the writer is full (wait for the channel's 'drain'). */
  flush(): boolean {
    if (this.chunks.length === 0) return true;
    const conn = this.internals.connection;
    const rec = conn.channels[this.internals.ch];
    const batch = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    this.chunks = [];
    this.size = 0;
    // the channel closed with the batch unsent: amqplib already failed its confirm callbacks
    if (rec?.channel !== this.ch) return true;
    conn.sentSinceLastCheck = true;
    return rec.buffer.write(batch);
  }

  get channel(): ConfirmChannel {
    return this.ch;
  }
}
