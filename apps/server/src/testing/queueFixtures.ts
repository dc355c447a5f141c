/** Queue definitions the tests share. */
import type { QueueDef } from '@retry-studio/topology-core/model';

/** a quorum queue's arguments for at-least-once dead-lettering (RabbitMQ needs reject-publish with it) */
export const AT_LEAST_ONCE_DEAD_LETTERING = {
  'x-dead-letter-strategy': 'at-least-once',
  'x-overflow': 'reject-publish',
} as const;

/** a durable quorum queue that dead-letters to `dlx` at least once */
export function atLeastOnceQuorumQueue(name: string, dlx: string): QueueDef {
  return {
    name,
    durable: true,
    arguments: { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': dlx, ...AT_LEAST_ONCE_DEAD_LETTERING },
  };
}
