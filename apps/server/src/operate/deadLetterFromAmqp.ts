/** An amqplib delivery -> the core's DeadLetterMessage (headers through the broker layer's decoder). */
import type { Message } from 'amqplib';
import type { DeadLetterMessage } from '@retry-studio/topology-core/operate';
import { decodeAmqpTable, decodeXDeath } from '../broker/index.js';

export const BODY_PREVIEW_BYTES = 2048;

export function deadLetterFromAmqp(msg: Message, seq: number): DeadLetterMessage {
  const raw = (msg.properties.headers ?? {}) as Record<string, unknown>;
  const { 'x-death': xd, 'x-stream-offset': offset, ...rest } = raw;
  const p = msg.properties;
  const body = msg.content.subarray(0, BODY_PREVIEW_BYTES).toString('utf8');
  return {
    seq,
    exchange: msg.fields.exchange,
    routingKey: msg.fields.routingKey,
    redelivered: msg.fields.redelivered === true,
    body: msg.content.length > BODY_PREVIEW_BYTES ? `${body}… (${msg.content.length} bytes)` : body,
    bodyBytes: msg.content.length,
    headers: decodeAmqpTable(rest, { truncate: true, binary: 'base64', dropForbiddenKeys: true }),
    xDeath: Array.isArray(xd) ? xd.map(decodeXDeath) : [],
    properties: {
      ...(p.contentType ? { contentType: String(p.contentType) } : {}),
      ...(p.messageId ? { messageId: String(p.messageId) } : {}),
      ...(typeof p.timestamp === 'number' ? { timestamp: p.timestamp } : {}),
      ...(typeof p.deliveryMode === 'number' ? { deliveryMode: p.deliveryMode } : {}),
    },
    ...(typeof offset === 'number' ? { offset } : {}),
  };
}
