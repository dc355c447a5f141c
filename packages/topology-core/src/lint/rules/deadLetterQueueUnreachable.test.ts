import { describe, expect, it } from 'vitest';
import { T } from '../../../testing/builders.js';
import { lintTopology } from '../lintDesign.js';

/** orders and payments dead-letter into `dead` (direct) with their own names as keys; the DLQ is bound with `dlq` */
const twoQueues = (dlqKey: string, dlrk?: string) =>
  T.topology(
    T.exchange('app', 'topic'),
    T.exchange('dead'),
    T.queue('orders', { dlx: 'dead', ...(dlrk ? { dlrk } : {}) }),
    T.queue('payments', { dlx: 'dead', ...(dlrk ? { dlrk } : {}) }),
    T.queue('dead-letters'),
    T.bind('app', 'orders', 'orders'),
    T.bind('app', 'payments', 'payments'),
    T.bind('dead', 'dead-letters', dlqKey),
  );
const unreachable = (t: ReturnType<typeof T.topology>) =>
  lintTopology(t).filter((f) => f.id === 'dead-letter-queue-unreachable');

describe('dead-letter-queue-unreachable', () => {
  it('a DLQ bound with a key no dead letter carries: named, with the keys they do carry', () => {
    const [f] = unreachable(twoQueues('dlq'));
    expect(f!.message).toBe(
      'dead-letters is bound to dead with "dlq", but the dead letters that reach it carry "orders", "payments": none matches, so nothing ever reaches dead-letters.',
    );
    expect(f!.objects).toEqual(['queue:dead-letters', 'exchange:dead']);
  });
  it('a DLQ bound with a key the dead letters carry, or given by a dead-letter routing key, is reached', () => {
    expect(unreachable(twoQueues('orders'))).toEqual([]);
    expect(unreachable(twoQueues('dlq', 'dlq'))).toEqual([]);
  });
  it('a topic DLX: a pattern that overlaps the keys the dead letters carry is reached, one that does not is named', () => {
    const topic = (key: string) => {
      const t = twoQueues(key);
      return { ...t, exchanges: t.exchanges.map((x) => (x.name === 'dead' ? { ...x, type: 'topic' as const } : x)) };
    };
    expect(unreachable(topic('#'))).toEqual([]);
    expect(unreachable(topic('pay*'))).toHaveLength(1);
    expect(unreachable(topic('payments.#'))).toEqual([]);
  });
});
