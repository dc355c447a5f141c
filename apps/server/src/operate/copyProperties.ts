/**
 * The properties of a re-driven copy: everything the original carries (x-death included), plus
 * the re-drive's marker (core's `redriveMarker`), less what the broker would refuse from this
 * connection (a user-id that is not its user: 406) and the deprecated cluster-id.
 * When the original came off the wire (`RawDelivery`) and none of that needs changing, its
 * property bytes are forwarded as the broker sent them with the marker added to the headers
 * table, so nothing is decoded and re-encoded (and no header value changes type on the way).
 * Otherwise the properties are decoded and encoded again by amqplib.
 */
import type { Message, Options } from 'amqplib';
import { type AmqpTable } from '@retry-studio/topology-core/model';
import { REDRIVE_MARKER_HEADERS, redriveMarker } from '@retry-studio/topology-core/operate';
import { PROPERTY_FLAG, encodePropertyList, encodeTableEntries, type PropertyList } from '../broker/publishFrames.js';
import { RawDelivery } from '../broker/rawDeliveries.js';

/** raw properties with the marker headers' common prefix are decoded (the count goes on, the time is replaced) */
const MARKER_PREFIX = Buffer.from(
  REDRIVE_MARKER_HEADERS.reduce((a, b) => {
    let i = 0;
    while (i < a.length && a[i] === b[i]) i++;
    return a.slice(0, i);
  }),
);
const REWRITTEN = PROPERTY_FLAG.userId | PROPERTY_FLAG.clusterId | PROPERTY_FLAG.continuation;

/** the marker of a first re-drive at one millisecond, encoded once per millisecond */
let firstMarker: { at: number; entries: Buffer } | undefined;

function firstMarkerEntries(nowMs: number): Buffer {
  const at = Math.round(nowMs);
  if (firstMarker?.at !== at)
    firstMarker = { at, entries: encodeTableEntries(redriveMarker({}, at) as Record<string, unknown>) };
  return firstMarker.entries;
}

/**
 * The copy's property flags and list. `headers` is the original's headers as the core reads
 * them (see deadLetterFromAmqp), asked for only when the property bytes cannot be forwarded.
 */
export function copyPropertyList(
  msg: Message,
  username: string,
  headers: () => AmqpTable,
  nowMs: number,
): PropertyList {
  if (msg instanceof RawDelivery) {
    const raw = msg.rawProperties;
    if ((raw.readUInt16BE(0) & REWRITTEN) === 0 && raw.indexOf(MARKER_PREFIX) < 0)
      return { base: raw, headerEntries: firstMarkerEntries(nowMs) };
  }
  return { base: encodePropertyList(copyProperties(msg, username, headers(), nowMs)) };
}

/** The copy's properties as amqplib publish options (mandatory left to the caller). */
export function copyProperties(msg: Message, username: string, headers: AmqpTable, nowMs: number): Options.Publish {
  const p = msg.properties;
  const raw = (p.headers ?? {}) as Record<string, unknown>;
  return {
    headers: { ...raw, ...redriveMarker(headers, nowMs) },
    ...(p.contentType !== undefined ? { contentType: p.contentType as string } : {}),
    ...(p.contentEncoding !== undefined ? { contentEncoding: p.contentEncoding as string } : {}),
    ...(p.deliveryMode !== undefined ? { deliveryMode: p.deliveryMode as number } : {}),
    ...(p.priority !== undefined ? { priority: p.priority as number } : {}),
    ...(p.correlationId !== undefined ? { correlationId: p.correlationId as string } : {}),
    ...(p.replyTo !== undefined ? { replyTo: p.replyTo as string } : {}),
    ...(p.expiration !== undefined ? { expiration: p.expiration as string } : {}),
    ...(p.messageId !== undefined ? { messageId: p.messageId as string } : {}),
    ...(p.timestamp !== undefined ? { timestamp: p.timestamp as number } : {}),
    ...(p.type !== undefined ? { type: p.type as string } : {}),
    ...(p.appId !== undefined ? { appId: p.appId as string } : {}),
    ...(p.userId !== undefined && p.userId === username ? { userId: p.userId as string } : {}),
  };
}
