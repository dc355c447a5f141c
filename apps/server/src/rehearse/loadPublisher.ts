/** Publishes a rehearsal's arrivals on a real broker at their instants (the core's arrivalSegments), persistent and confirmed. */
import type { ConfirmChannel } from 'amqplib';
import type { PublisherSpec } from '@retry-studio/topology-core/model';
import { arrivalAt, type ArrivalSegment } from '@retry-studio/topology-core/rehearse';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** publishes every arrival; `sentAt[ordinal]` is when it went (ms since the start); resolves once all are confirmed */
export async function publishArrivals(
  ch: ConfirmChannel,
  p: PublisherSpec,
  segments: readonly ArrivalSegment[],
  now: () => number,
  sentAt: Map<number, number>,
  bodyBytes: number,
): Promise<number> {
  let sent = 0;
  const pad = bodyBytes > 0 ? ' '.repeat(Math.max(0, bodyBytes - 12)) : '';
  for (const s of segments)
    for (let k = 0; k < s.count; k++) {
      const due = arrivalAt(s, k);
      const wait = due - now();
      if (wait > 1) await sleep(wait);
      const ordinal = s.firstOrdinal + k;
      sentAt.set(ordinal, now());
      // the body is the message's ordinal (the workers' failure schedule reads it), padded to the load's size
      // persistent, as the calibration measured (and as retried work usually is)
      ch.publish(p.exchange, p.routingKey, Buffer.from(String(ordinal) + pad), {
        persistent: true,
        ...(p.properties?.headers ? { headers: { ...p.properties.headers } } : {}),
        ...(p.properties?.expiration !== undefined ? { expiration: String(p.properties.expiration) } : {}),
      });
      sent++;
    }
  await ch.waitForConfirms();
  return sent;
}
