/**
 * Streams' settings (issue 38): a stream's retention is no overflow to dead-letter, and a stream's
 * keys in a policy keep the whole policy off classic and quorum queues (measured on 3.10.8 and
 * 4.3.6: a policy of message-ttl and max-age gives a classic or quorum queue no policy at all).
 */
import { describe, expect, it } from 'vitest';
import { T } from '../../../testing/builders.js';
import { lintTopology } from '../lintDesign.js';
import { queueEffectiveSettings } from '../../model/effectiveSettings.js';

/** an events stream and a classic DLQ, one retention policy for both (a 7-day TTL meant for the DLQ) */
const shared = T.topology(
  T.queue('events', { stream: true }),
  T.queue('orders.dlq'),
  T.queue('billing.dlq', { quorum: true }),
  T.policy('keep-7d', '^(events|.*\\.dlq)$', {
    'max-age': '7D',
    'max-length-bytes': 1_000_000_000,
    'message-ttl': 604_800_000,
  }),
);

describe("a policy a queue's type does not take", () => {
  it('the DLQs get none of it: named, with the TTL that is not in force', () => {
    const f = lintTopology(shared).filter((x) => x.id === 'policy-skipped-by-queue-type');
    expect(f.map((x) => x.message)).toEqual([
      'policy keep-7d sets max-age, which a classic queue does not take: RabbitMQ applies none of the policy to orders.dlq (measured on 3.10.8 and 4.3.6), so its max-length-bytes, message-ttl are not in force there either.',
      'policy keep-7d sets max-age, which a quorum queue does not take: RabbitMQ applies none of the policy to billing.dlq (measured on 3.10.8 and 4.3.6), so its max-length-bytes, message-ttl are not in force there either.',
    ]);
    expect(queueEffectiveSettings(shared.queues[1]!, shared).settings['x-message-ttl']).toBeUndefined();
  });
  it("a stream's retention is not called an overflow to dead-letter", () => {
    const ids = lintTopology(shared).map((x) => `${x.id}: ${x.objects.join(',')}`);
    expect(ids.filter((x) => x.includes('queue:events'))).toEqual([]);
  });
});
