/**
 * Deliveries read straight off the wire, for a consumer that moves messages rather than reads
 * them (the re-drive). amqplib turns every delivery into objects as it arrives: the method's
 * fields, every property, every header table entry (x-death's nested tables and arrays
 * included), and a message dispatched through an event emitter. A mover only needs the delivery
 * tag and the bytes, and forwards the properties as the broker sent them (see
 * `publishFrames.ts`): decoding them is left until someone asks (`properties`, decoded once).
 *
 * `interceptDeliveries` takes over one channel's basic.deliver, content-header and body frames
 * on an amqplib connection: it wraps the connection's frame reader, so frames keep their order
 * (a delivery is handled before any later frame reaches amqplib), and every other frame (the
 * channel's replies, a broker's basic.cancel or channel.close, other channels) goes to amqplib
 * as before. amqplib never sees these deliveries: the consume callback given to amqplib gets
 * only the broker's cancel (null). Reaches into amqplib's internals (`connection.recvFrame`,
 * `rest`, `stream`), so it checks what it finds and leaves an amqplib that looks different alone.
 */
import type { Channel, ConsumeMessage, MessageProperties } from 'amqplib';
import { amqpDefs as defs } from './amqplibInternals.js';

const FRAME_METHOD = 1;
const FRAME_HEADER = 2;
const FRAME_BODY = 3;
const FRAME_END = 0xce;
/** type (1) + channel (2) + size (4) */
const FRAME_HEADER_BYTES = 7;

/** One delivery as the broker sent it; shaped like amqplib's message, its properties decoded on first use. */
export class RawDelivery implements ConsumeMessage {
  private decoded: MessageProperties | undefined;
  constructor(
    readonly fields: ConsumeMessage['fields'] | DeliverFields,
    /** the content header's property flags and property list, as the broker wrote them */
    readonly rawProperties: Buffer,
    readonly content: Buffer,
  ) {}

  get properties(): MessageProperties {
    return (this.decoded ??= defs.decode(defs.BasicProperties, this.rawProperties) as MessageProperties);
  }
}

interface ConnectionLike {
  recvFrame: () => unknown;
  rest: Buffer;
  stream: { read: () => Buffer | null };
  recvSinceLastCheck: boolean;
  maxFrameSize?: number;
}

/** a delivery whose header or body frames are still to come */
interface Assembling {
  readonly fields: DeliverFields;
  props: Buffer | undefined;
  size: number;
  got: number;
  /** the body's frames: the array only when there is more than one (most bodies fit one frame) */
  chunks: Buffer | Buffer[] | undefined;
}

type ConsumeFields = ConsumeMessage['fields'];

const shortStr = (b: Buffer, at: number): string => b.toString('utf8', at + 1, at + 1 + b[at]!);

/**
 * basic.deliver's fields: the delivery tag and redelivered flag read at once, the names (consumer
 * tag, exchange, routing key) when asked for (a mover never asks).
 */
export class DeliverFields implements ConsumeFields {
  readonly deliveryTag: number;
  readonly redelivered: boolean;
  /** where the consumer tag's length is, after class and method */
  private static readonly TAG_AT = 4;

  /** `method`: the basic.deliver frame's payload */
  constructor(private readonly method: Buffer) {
    const at = DeliverFields.TAG_AT + 1 + method[DeliverFields.TAG_AT]!;
    this.deliveryTag = method.readUInt32BE(at) * 0x1_0000_0000 + method.readUInt32BE(at + 4);
    this.redelivered = (method[at + 8]! & 1) === 1;
  }

  get consumerTag(): string {
    return shortStr(this.method, DeliverFields.TAG_AT);
  }

  get exchange(): string {
    return shortStr(this.method, this.exchangeAt);
  }

  get routingKey(): string {
    const at = this.exchangeAt;
    return shortStr(this.method, at + 1 + this.method[at]!);
  }

  /** consumer tag, delivery tag (8), redelivered (1) */
  private get exchangeAt(): number {
    return DeliverFields.TAG_AT + 1 + this.method[DeliverFields.TAG_AT]! + 9;
  }

  toJSON(): ConsumeFields {
    return {
      consumerTag: this.consumerTag,
      deliveryTag: this.deliveryTag,
      redelivered: this.redelivered,
      exchange: this.exchange,
      routingKey: this.routingKey,
    };
  }
}

interface Tap {
  readonly onDelivery: (d: RawDelivery) => void;
  /** the delivery whose content header or body frames are still to come */
  cur: Assembling | undefined;
}

/** per connection: the channels whose deliveries are taken over */
const taps = new WeakMap<object, Map<number, Tap>>();

/**
 * From now on, `ch`'s deliveries go to `onDelivery` as RawDelivery, in order, until the channel
 * closes (its number may be given to a new channel, which amqplib then serves as usual).
 * Returns false (nothing changed) when amqplib does not look as expected. A throw from
 * `onDelivery` is amqplib's frame error: it closes the connection.
 */
export function interceptDeliveries(ch: Channel, onDelivery: (d: RawDelivery) => void): boolean {
  const internals = ch as unknown as { ch?: unknown; connection?: Partial<ConnectionLike> };
  const c = internals.connection;
  const channel = internals.ch;
  if (
    typeof channel !== 'number' ||
    !c ||
    typeof c.recvFrame !== 'function' ||
    !Buffer.isBuffer(c.rest) ||
    typeof c.stream?.read !== 'function'
  )
    return false;
  let channels = taps.get(c);
  if (!channels) {
    channels = new Map();
    taps.set(c, channels);
    wrapFrameReader(c as ConnectionLike, channels);
  }
  const tap: Tap = { onDelivery, cur: undefined };
  channels.set(channel, tap);
  ch.once('close', () => {
    if (channels.get(channel) === tap) channels.delete(channel);
  });
  return true;
}

/** what is left of `rest` from `off` (a function, not a closure per read: tsx names every closure it makes) */
const unread = (rest: Buffer, off: number): Buffer => (off === 0 ? rest : rest.subarray(off));

function wrapFrameReader(c: ConnectionLike, channels: Map<number, Tap>): void {
  const base = c.recvFrame;
  const finish = (tap: Tap, content: Buffer): void => {
    const a = tap.cur!;
    tap.cur = undefined;
    tap.onDelivery(new RawDelivery(a.fields, a.props!, content));
  };
  /**
   * bytes read past the frame that straddled two reads: only that frame is copied together
   * (amqplib concatenates the whole read onto the rest, a copy of nearly every byte received)
   */
  let tail: Buffer | undefined;
  c.recvFrame = function (this: ConnectionLike): unknown {
    // frames are read at an offset into `rest`; `this.rest` is set only when amqplib takes over or the read ends
    let rest = this.rest;
    let off = 0;
    for (;;) {
      if (off === rest.length && tail) [rest, off, tail] = [tail, 0, undefined];
      const avail = rest.length - off;
      let total = 0;
      if (avail >= FRAME_HEADER_BYTES) {
        const size = rest.readUInt32BE(off + 3);
        // too large: amqplib's reader says so
        if (this.maxFrameSize && size > this.maxFrameSize) return ((this.rest = unread(rest, off)), base.call(this));
        total = FRAME_HEADER_BYTES + size + 1;
        if (avail >= total) {
          const type = rest[off]!;
          const tap = channels.size === 0 ? undefined : channels.get(rest.readUInt16BE(off + 1));
          const ours =
            tap !== undefined &&
            (tap.cur !== undefined
              ? type === FRAME_HEADER || type === FRAME_BODY
              : type === FRAME_METHOD && rest.readUInt32BE(off + FRAME_HEADER_BYTES) === defs.BasicDeliver);
          // a whole frame that is not ours: amqplib parses it (and reads nothing, it is whole)
          if (!ours) return ((this.rest = unread(rest, off)), base.call(this));
          if (rest[off + total - 1] !== FRAME_END) throw new Error('Invalid frame');
          const from = off + FRAME_HEADER_BYTES;
          const to = off + total - 1;
          off += total;
          const a = tap.cur;
          if (type === FRAME_METHOD)
            tap.cur = {
              fields: new DeliverFields(rest.subarray(from, to)),
              props: undefined,
              size: 0,
              got: 0,
              chunks: undefined,
            };
          else if (type === FRAME_HEADER) {
            // class (2), weight (2), body size (8), then flags and properties
            if (a!.props) throw new Error(`a second content header for delivery ${a!.fields.deliveryTag}`);
            a!.props = rest.subarray(from + 12, to);
            a!.size = rest.readUInt32BE(from + 4) * 0x1_0000_0000 + rest.readUInt32BE(from + 8);
            if (a!.size === 0) finish(tap, Buffer.alloc(0));
          } else {
            if (!a!.props)
              throw new Error(`a body frame before the content header of delivery ${a!.fields.deliveryTag}`);
            const payload = rest.subarray(from, to);
            const c = a!.chunks;
            if (c === undefined) a!.chunks = payload;
            else if (Array.isArray(c)) c.push(payload);
            else a!.chunks = [c, payload];
            a!.got += payload.length;
            if (a!.got >= a!.size) finish(tap, Array.isArray(a!.chunks) ? Buffer.concat(a!.chunks) : payload);
          }
          continue;
        }
      }
      // not a whole frame yet: what was left over, else the socket
      const more = tail ?? this.stream.read();
      tail = undefined;
      const left = (this.rest = unread(rest, off));
      if (more === null) return false;
      this.recvSinceLastCheck = true;
      off = 0;
      if (left.length === 0) {
        rest = more;
        continue;
      }
      // enough to finish the frame (or its header) is copied onto it; the rest waits in `tail`
      const need = (total > 0 ? total : FRAME_HEADER_BYTES) - left.length;
      if (more.length <= need) rest = Buffer.concat([left, more]);
      else {
        rest = Buffer.concat([left, more.subarray(0, need)]);
        tail = more.subarray(need);
      }
    }
  };
}
