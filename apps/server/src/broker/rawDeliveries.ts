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
    readonly fields: ConsumeMessage['fields'],
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
  readonly fields: ConsumeMessage['fields'];
  props: Buffer | undefined;
  size: number;
  got: number;
  readonly chunks: Buffer[];
}

const shortStr = (b: Buffer, at: number): [string, number] => {
  const len = b[at]!;
  return [b.toString('utf8', at + 1, at + 1 + len), at + 1 + len];
};

function parseDeliver(p: Buffer): ConsumeMessage['fields'] {
  // class, method (4); consumer-tag; delivery-tag (8); redelivered (bit); exchange; routing-key
  const [consumerTag, at] = shortStr(p, 4);
  const deliveryTag = p.readUInt32BE(at) * 0x1_0000_0000 + p.readUInt32BE(at + 4);
  const redelivered = (p[at + 8]! & 1) === 1;
  const [exchange, at2] = shortStr(p, at + 9);
  const [routingKey] = shortStr(p, at2);
  return { consumerTag, deliveryTag, redelivered, exchange, routingKey };
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

function wrapFrameReader(c: ConnectionLike, channels: Map<number, Tap>): void {
  const base = c.recvFrame;
  const finish = (tap: Tap, content: Buffer): void => {
    const a = tap.cur!;
    tap.cur = undefined;
    tap.onDelivery(new RawDelivery(a.fields, a.props!, content));
  };
  c.recvFrame = function (this: ConnectionLike): unknown {
    for (;;) {
      const rest = this.rest;
      if (rest.length >= FRAME_HEADER_BYTES) {
        const type = rest[0]!;
        const size = rest.readUInt32BE(3);
        const total = FRAME_HEADER_BYTES + size + 1;
        const tap = channels.size === 0 ? undefined : channels.get(rest.readUInt16BE(1));
        const ours =
          tap !== undefined &&
          !(this.maxFrameSize && size > this.maxFrameSize) &&
          (tap.cur !== undefined
            ? type === FRAME_HEADER || type === FRAME_BODY
            : type === FRAME_METHOD && rest.length >= 11 && rest.readUInt32BE(7) === defs.BasicDeliver);
        if (!ours) return base.call(this);
        if (rest.length >= total) {
          if (rest[total - 1] !== FRAME_END) throw new Error('Invalid frame');
          const payload = rest.subarray(FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + size);
          this.rest = rest.subarray(total);
          const a = tap.cur;
          if (type === FRAME_METHOD)
            tap.cur = { fields: parseDeliver(payload), props: undefined, size: 0, got: 0, chunks: [] };
          else if (type === FRAME_HEADER) {
            // class (2), weight (2), body size (8), then flags and properties
            if (a!.props) throw new Error(`a second content header for delivery ${a!.fields.deliveryTag}`);
            a!.props = payload.subarray(12);
            a!.size = payload.readUInt32BE(4) * 0x1_0000_0000 + payload.readUInt32BE(8);
            if (a!.size === 0) finish(tap, Buffer.alloc(0));
          } else {
            if (!a!.props)
              throw new Error(`a body frame before the content header of delivery ${a!.fields.deliveryTag}`);
            a!.chunks.push(payload);
            a!.got += payload.length;
            if (a!.got >= a!.size) finish(tap, a!.chunks.length === 1 ? payload : Buffer.concat(a!.chunks));
          }
          continue;
        }
      }
      // not a whole frame yet
      const incoming = this.stream.read();
      if (incoming === null) return false;
      this.recvSinceLastCheck = true;
      this.rest = rest.length === 0 ? incoming : Buffer.concat([rest, incoming]);
    }
  };
}
