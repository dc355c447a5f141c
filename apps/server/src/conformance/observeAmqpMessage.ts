/** A message as amqplib delivered it -> the normalised ObservedMessage / ObservedDelivery of retry-scenario/1. */
import type { ConsumeMessage, Message } from 'amqplib';
import type { ObservedDelivery, ObservedMessage } from '@retry-studio/topology-core/scenario';
import { headersForScenario } from '../broker/index.js';

export function bodyOf(m: Message): string {
  return m.content.toString('utf8');
}

export function observeMessage(m: Message): ObservedMessage {
  const n = headersForScenario(m.properties.headers as Record<string, unknown> | undefined);
  const out: {
    body: string;
    'x-death'?: ObservedMessage['x-death'];
    headers?: ObservedMessage['headers'];
    expiration?: string;
  } = {
    body: bodyOf(m),
  };
  if (n['x-death']) out['x-death'] = n['x-death'];
  if (n.headers) out.headers = n.headers;
  const exp = m.properties.expiration as unknown;
  if (exp !== undefined && exp !== null && exp !== '') out.expiration = String(exp);
  return out;
}

export function observeDelivery(m: ConsumeMessage): ObservedDelivery {
  return { ...observeMessage(m), redelivered: m.fields.redelivered };
}
