/**
 * The compact message record. What many messages have in common (the exchange and routing keys
 * they were published or dead-lettered with, headers, x-death, expiration) is one immutable
 * `MsgShape`, shared between messages that got it the same way; a record is its logical message,
 * body and shape. A burst of 100,000 messages through a retry loop then allocates one small
 * record per hop, not a full copy of every field.
 */
import type { AmqpValue } from '../model/definitions.js';
import type { XDeathEntry } from '../model/xDeath.js';
import type { Logical, Msg, MsgShape } from './types.js';

/** A class with getters: `{ ...rec }` copies only logical, body, bytes and shape. */
export class MsgRec implements Msg {
  constructor(
    readonly logical: Logical,
    readonly body: string,
    /** UTF-8 size of the body */
    readonly bytes: number,
    readonly shape: MsgShape,
  ) {}
  get id(): string {
    return this.logical.id;
  }
  get exchange(): string {
    return this.shape.exchange;
  }
  get routingKeys(): readonly string[] {
    return this.shape.routingKeys;
  }
  get headers(): { readonly [k: string]: AmqpValue } {
    return this.shape.headers;
  }
  get xDeath(): readonly XDeathEntry[] | undefined {
    return this.shape.xDeath;
  }
  get xDeathFromClient(): boolean {
    return this.shape.xDeathFromClient;
  }
  get expiration(): string | undefined {
    return this.shape.expiration;
  }
  get ccInKeys(): boolean {
    return this.shape.ccInKeys;
  }
  get deliveryCount(): number {
    return this.shape.deliveryCount;
  }
}

/**
 * Objects that are shared between messages (interned): deriving from one with the same inputs
 * gives the same output, so it can be cached. Only these are cache keys, so no cache grows per
 * message; WeakMaps let unused ones go.
 */
const SHARED = new WeakSet<object>();
export const markShared = <T extends object>(o: T): T => {
  SHARED.add(o);
  return o;
};
export const isShared = (o: object): boolean => SHARED.has(o);

/** the shape of a client publish without headers (the common case): one per (exchange, keys, expiration) */
const PUBLISH_SHAPES = new WeakMap<readonly string[], MsgShape[]>();
export function plainPublishShape(
  exchange: string,
  routingKeys: readonly string[],
  expiration: string | undefined,
  empty: { readonly [k: string]: AmqpValue },
): MsgShape {
  let list = PUBLISH_SHAPES.get(routingKeys);
  if (!list) {
    list = [];
    PUBLISH_SHAPES.set(routingKeys, list);
  }
  for (let i = 0; i < list.length; i++) {
    const s = list[i] as MsgShape;
    if (s.exchange === exchange && s.expiration === expiration) return s;
  }
  const s: MsgShape = markShared({
    exchange,
    routingKeys,
    headers: empty,
    xDeath: undefined,
    xDeathFromClient: false,
    expiration,
    ccInKeys: true,
    deliveryCount: 0,
  });
  if (list.length < 64) list.push(s);
  return s;
}
