/** Fixture builders for what goes on the wire through amqplib (typed values in its `{ '!': type }` notation). */

/** One x-death entry as a client would publish it (amqplib encodes `time` as an AMQP timestamp). */
export function wireXDeath(
  queue: string,
  reason: string,
  exchange: string,
  routingKeys: string[],
  count = 1,
  timeSeconds = 1_700_000_000,
): Record<string, unknown> {
  return {
    count,
    reason,
    queue,
    time: { '!': 'timestamp', value: timeSeconds },
    exchange,
    'routing-keys': routingKeys,
  };
}
