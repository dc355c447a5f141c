/**
 * basic.nack / basic.ack with multiple=true, live, on both brokers: a batch worker holds its
 * deliveries and settles the batch at once. Every message the multiple settles gets its own fate
 * (dead-lettered and parked, or requeued and then acked), the trace balances, and it matches the
 * simulator's prediction message for message.
 */
import { describe, expect, it } from 'vitest';
import type { ConsumerAction, ConsumerSpec, Rule } from '@retry-studio/topology-core/model';
import { bindQ, design, uniquePrefix } from '../http/testing.js';
import { TEST_BROKERS, type TestBroker } from '../testing/testBrokers.js';
import { useLiveServer } from '../testing/liveServer.js';

const { srv, onCleanup, waitDone } = useLiveServer();

/** longer than any trace in this file may take: only a settlement ends such a wait */
const RETRY_WAIT_MS = 600_000;

/** a worker with prefetch `size` that holds each failed delivery until it holds `size`, then settles them all with `settle` */
function batchWorker(
  size: number,
  settle: ConsumerAction,
  failure: Extract<ConsumerSpec['behaviour'], { kind: 'worker' }>['failure'],
): ConsumerSpec {
  const onFailure: Rule[] = [
    { when: { kind: 'lt', counter: { kind: 'held' }, value: size }, then: { kind: 'hold' } },
    { then: settle },
  ];
  return {
    id: 'batcher',
    queue: 'work.q',
    prefetch: size,
    behaviour: { kind: 'worker', ...(failure ? { failure } : {}), onFailure },
  };
}

const batchDesign = (name: string, worker: ConsumerSpec, workArgs: Record<string, string | number> = {}) =>
  design({
    name,
    exchanges: [{ name: 'dlx', type: 'fanout', durable: true }],
    queues: [
      { name: 'work.q', durable: true, arguments: { 'x-dead-letter-exchange': 'dlx', ...workArgs } },
      { name: 'parked.q', durable: true },
    ],
    bindings: [bindQ('dlx', 'parked.q')],
    consumers: [worker],
    publishers: [{ id: 'p1', exchange: '', routingKey: 'work.q' }],
  });

describe.each(TEST_BROKERS)('nack multiple, live on RabbitMQ $name', (b: TestBroker) => {
  const on = { broker: b.amqpUrl, managementUrl: b.managementUrl };
  const deployAndTrace = async (d: ReturnType<typeof design>, tag: string, messages: number) => {
    const prefix = uniquePrefix(tag);
    const dep = await srv.post('/api/deploy', { design: d, prefix, ...on });
    expect(dep.status, JSON.stringify(dep.body)).toBe(200);
    onCleanup(() => srv.post('/api/teardown', { designName: d.name, prefix, ...on, force: true }));
    const t = await srv.post('/api/trace', { design: d, prefix, messages, ...on });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
    const summary = await waitDone(t.body.id, 60_000);
    const pred = await srv.get(`/api/trace/${t.body.id}/prediction`);
    expect(pred.status).toBe(200);
    return { summary, comparison: pred.body.comparison };
  };

  it('a batch of three nacked with multiple, requeue=false: all three dead-lettered and parked, balanced, as predicted', async () => {
    const d = batchDesign(
      'nack-multiple-dead-letters',
      batchWorker(3, { kind: 'reject', multiple: true }, { kind: 'always' }),
    );
    const { summary, comparison } = await deployAndTrace(d, 'nackmulti', 6);
    expect(summary).toMatchObject({
      state: 'complete',
      published: 6,
      acked: 0,
      parked: 6,
      inFlight: 0,
      dropped: 0,
      balanced: true,
    });
    expect(summary.resting).toEqual({ 'parked.q': 6 });
    // one rejected and one dead-letter hop per message, though only two basic.nack went out
    expect(summary.eventCounts.rejected).toBe(6);
    expect(summary.eventCounts['dead-lettered']).toBe(6);
    expect(comparison).toMatchObject({ messagesCompared: 6, matching: 6 });
    expect(comparison.firstDifference).toBeUndefined();
  });

  it('a batch nacked with multiple, requeue=true, then each acked on its second attempt: three acks, balanced, as predicted', async () => {
    const d = batchDesign(
      'nack-multiple-requeue',
      batchWorker(3, { kind: 'requeue', multiple: true }, { kind: 'failFirst', n: 1 }),
    );
    const { summary, comparison } = await deployAndTrace(d, 'nackmultirq', 3);
    expect(summary).toMatchObject({
      state: 'complete',
      published: 3,
      acked: 3,
      parked: 0,
      inFlight: 0,
      dropped: 0,
      balanced: true,
    });
    expect(summary.eventCounts.requeued).toBe(3);
    expect(summary.eventCounts.delivered).toBe(6);
    expect(comparison).toMatchObject({ messagesCompared: 3, matching: 3 });
    expect(comparison.firstDifference).toBeUndefined();
  });

  it('a quorum queue with delivery limit 1: 3.10 counts the nacked returns and dead-letters the batch, 4.3 does not and acks it', async () => {
    const quorum = { 'x-queue-type': 'quorum', 'x-delivery-limit': 1 };
    // the prediction runs under the design's profile: the one the Broker tab suggests for this broker
    const d = {
      ...batchDesign(
        'nack-multiple-quorum',
        batchWorker(3, { kind: 'requeue', multiple: true }, { kind: 'failFirst', n: 2 }),
        quorum,
      ),
      profile: b.name,
    };
    const { summary, comparison } = await deployAndTrace(d, 'nackmultiqq', 3);
    const fates = b.name === '3.10' ? { acked: 0, parked: 3 } : { acked: 3, parked: 0 };
    expect(summary).toMatchObject({
      state: 'complete',
      published: 3,
      ...fates,
      inFlight: 0,
      dropped: 0,
      balanced: true,
    });
    expect(summary.eventCounts['dead-lettered'] ?? 0).toBe(b.name === '3.10' ? 3 : 0);
    expect(comparison).toMatchObject({ messagesCompared: 3, matching: 3 });
    expect(comparison.firstDifference).toBeUndefined();
  });

  it('a delivery still in its in-process retry when a later ack multiple settles it is not acked again', async () => {
    // p1-1 fails and waits to retry; p1-2 succeeds meanwhile and acks with multiple: p1-1 goes with it.
    // The order is fixed, not raced: p1-1's one retry waits 10 min, far past the trace's 60 s bound, so
    // the only way it ends within the test is p1-2's ack multiple (which also ends the wait at once).
    // (With a 3 s retry a loaded 2-core CI machine once let p1-1's retries run out first: parked, not acked.)
    // Acking p1-1 again would be an unknown delivery tag: the broker would close the channel and requeue.
    const worker: ConsumerSpec = {
      id: 'batcher',
      queue: 'work.q',
      prefetch: 3,
      behaviour: {
        kind: 'worker',
        failure: { kind: 'poison', bodies: ['p1-1'] },
        onSuccess: { kind: 'ack', multiple: true },
        onFailure: [
          {
            then: {
              kind: 'retryInProcess',
              maxAttempts: 2,
              backoff: { initialMs: RETRY_WAIT_MS, multiplier: 1, maxMs: RETRY_WAIT_MS },
              recover: { kind: 'reject' },
            },
          },
        ],
      },
    };
    const { summary, comparison } = await deployAndTrace(
      batchDesign('ack-multiple-pending', worker),
      'ackmultipending',
      3,
    );
    expect(summary).toMatchObject({
      state: 'complete',
      published: 3,
      acked: 3,
      parked: 0,
      inFlight: 0,
      dropped: 0,
      balanced: true,
    });
    expect(summary.eventCounts.acked).toBe(3);
    expect(summary.eventCounts.requeued ?? 0).toBe(0);
    expect(summary.eventCounts.rejected ?? 0).toBe(0);
    // p1-1 was processed once: its retry found it settled (and did not wait out its 10 min)
    expect(summary.eventCounts.processed).toBe(3);
    expect(comparison).toMatchObject({ messagesCompared: 3, matching: 3 });
  });
});
