/**
 * NServiceBus's delay infrastructure on RabbitMQ (docs transports/rabbitmq/delayed-delivery): 28
 * binary levels, level N a topic exchange and a quorum queue with TTL 2^N s, the delay written in
 * binary in the routing key, the last hop through `nsb.v2.delay-delivery` to the endpoint.
 */
import type { BindingDef, ExchangeDef, QueueDef } from '../../model/definitions.js';
import { MAX_TTL_MS } from '../../model/arguments.js';

export const LEVELS = 28;
export const DELIVERY_X = 'nsb.v2.delay-delivery';
export const levelName = (level: number): string => `nsb.v2.delay-level-${String(level).padStart(2, '0')}`;

/** The delay infrastructure: level N is a topic exchange and a quorum queue with TTL 2^N s (levels whose TTL RabbitMQ accepts). */
export function delayInfrastructure(): {
  exchanges: ExchangeDef[];
  queues: QueueDef[];
  bindings: BindingDef[];
  top: number;
} {
  const exchanges: ExchangeDef[] = [];
  const queues: QueueDef[] = [];
  const bindings: BindingDef[] = [];
  // a TTL above 2^32-1 ms is refused by the model (and is 49+ days): levels above are left out
  let top = LEVELS - 1;
  while (2 ** top * 1000 > MAX_TTL_MS) top--;
  for (let level = top; level >= 0; level--) {
    const name = levelName(level);
    exchanges.push({ name, type: 'topic', durable: true, auto_delete: false, internal: false, arguments: {} });
    queues.push({
      name,
      durable: true,
      auto_delete: false,
      arguments: {
        'x-queue-type': 'quorum',
        'x-dead-letter-strategy': 'at-least-once',
        'x-overflow': 'reject-publish',
        'x-message-ttl': 2 ** level * 1000,
        'x-dead-letter-exchange': level > 0 ? levelName(level - 1) : DELIVERY_X,
      },
    });
    const skip = '*.'.repeat(LEVELS - 1 - level);
    bindings.push({
      source: name,
      destination: name,
      destination_type: 'queue',
      routing_key: `${skip}1.#`,
      arguments: {},
    });
    if (level > 0)
      bindings.push({
        source: name,
        destination: levelName(level - 1),
        destination_type: 'exchange',
        routing_key: `${skip}0.#`,
        arguments: {},
      });
  }
  exchanges.push({
    name: DELIVERY_X,
    type: 'topic',
    durable: true,
    auto_delete: false,
    internal: false,
    arguments: {},
  });
  bindings.push({
    source: levelName(0),
    destination: DELIVERY_X,
    destination_type: 'exchange',
    routing_key: `${'*.'.repeat(LEVELS - 1)}0.#`,
    arguments: {},
  });
  return { exchanges, queues, bindings, top };
}
