/**
 * What lint and upgrade-check say the brokers do, re-measured on both test brokers in throwaway
 * vhosts (deleted after, also when a check fails): the fields a definitions import cannot go
 * without (model/definitionFields.ts), a plugin exchange type the broker lacks, and dead letters
 * into a full DLQ (lint/rules/overflowDropsSilently.ts). Each case states what the broker did when
 * it was first measured (README.md beside this file); a change on a broker fails here.
 */
import { describe, expect, it } from 'vitest';
import amqp from 'amqplib';
import { ManagementClient, parseAmqpUrl } from '../../broker/index.js';
import { TEST_BROKERS, type TestBroker } from '../../testing/testBrokers.js';

const full = () => ({
  exchanges: [{ name: 'x', type: 'direct', durable: true, auto_delete: false, internal: false, arguments: {} }],
  queues: [{ name: 'q', durable: true, auto_delete: false, arguments: {} as Record<string, unknown> }],
  bindings: [{ source: 'x', destination: 'q', destination_type: 'queue', routing_key: 'k', arguments: {} }],
  policies: [{ name: 'p', pattern: '^q$', 'apply-to': 'queues', priority: 0, definition: { 'message-ttl': 1000 } }],
});
type Defs = ReturnType<typeof full>;
const without = (pick: (d: Defs) => Record<string, unknown>, field: string) => (d: Defs) => {
  delete pick(d)[field];
  return d;
};

/** what each broker answered, measured: 204, or the start of its 400 answer */
const CASES: readonly {
  readonly what: string;
  readonly make: (d: Defs) => unknown;
  readonly answers: Record<TestBroker['name'], string>;
}[] = [
  {
    what: 'a queue without auto_delete',
    make: without((d) => d.queues[0]!, 'auto_delete'),
    answers: { '3.10': 'function_clause', '4.3': '204' },
  },
  {
    what: 'a queue without durable',
    make: without((d) => d.queues[0]!, 'durable'),
    answers: { '3.10': 'function_clause', '4.3': '204' },
  },
  {
    what: 'a queue without arguments',
    make: without((d) => d.queues[0]!, 'arguments'),
    answers: { '3.10': '204', '4.3': '204' },
  },
  {
    what: 'an exchange without durable',
    make: without((d) => d.exchanges[0]!, 'durable'),
    answers: { '3.10': '{function_clause', '4.3': '204' },
  },
  {
    what: 'an exchange without auto_delete',
    make: without((d) => d.exchanges[0]!, 'auto_delete'),
    answers: { '3.10': '204', '4.3': '204' },
  },
  {
    what: 'an exchange without internal',
    make: without((d) => d.exchanges[0]!, 'internal'),
    answers: { '3.10': '204', '4.3': '204' },
  },
  {
    what: 'a binding without routing_key',
    make: without((d) => d.bindings[0]!, 'routing_key'),
    answers: { '3.10': '204', '4.3': '204' },
  },
  {
    what: 'a policy without apply-to',
    make: without((d) => d.policies[0]!, 'apply-to'),
    answers: { '3.10': '204', '4.3': '204' },
  },
  {
    what: 'an x-delayed-message exchange (no plugin)',
    make: (d) => ({
      ...d,
      exchanges: [{ ...d.exchanges[0]!, type: 'x-delayed-message', arguments: { 'x-delayed-type': 'direct' } }],
    }),
    answers: {
      '3.10': "command_invalid: unknown exchange type 'x-delayed-message'",
      '4.3': "precondition_failed: unknown exchange type 'x-delayed-message'",
    },
  },
];

async function inVhost<T>(broker: TestBroker, fn: (m: ManagementClient, vhost: string) => Promise<T>): Promise<T> {
  const m = new ManagementClient(parseAmqpUrl(broker.amqpUrl), { baseUrl: broker.managementUrl, timeoutMs: 20_000 });
  const vhost = `rs-corpus-truths-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  await m.createVhost(vhost);
  try {
    return await fn(m, vhost);
  } finally {
    await m.deleteVhost(vhost);
  }
}

describe.each(TEST_BROKERS)('RabbitMQ $name', (broker) => {
  it.each(CASES)(
    'a definitions import with $what',
    async ({ make, answers }) => {
      const answer = await inVhost(broker, (m, vhost) =>
        m.loadDefinitions(vhost, make(full())).then(
          () => '204',
          (e: Error) => e.message.replace(/^.*failed with \d+: /s, '').replace(/^\{"error":"[^"]*","reason":"/, ''),
        ),
      );
      expect(answer.startsWith(answers[broker.name]), answer).toBe(true);
    },
    30_000,
  );

  it("a policy with a stream's max-age applies to no classic or quorum queue, not even its message-ttl; one without it does", async () => {
    const applied = await inVhost(broker, async (m, vhost) => {
      await m.loadDefinitions(vhost, {
        queues: [
          { name: 'with-age.classic', durable: true, auto_delete: false, arguments: {} },
          { name: 'with-age.quorum', durable: true, auto_delete: false, arguments: { 'x-queue-type': 'quorum' } },
          { name: 'ttl-only.classic', durable: true, auto_delete: false, arguments: {} },
        ],
        policies: [
          {
            name: 'age',
            pattern: '^with-age',
            'apply-to': 'queues',
            priority: 0,
            definition: { 'message-ttl': 60000, 'max-age': '1D' },
          },
          {
            name: 'ttl',
            pattern: '^ttl-only',
            'apply-to': 'queues',
            priority: 0,
            definition: { 'message-ttl': 60000 },
          },
        ],
      });
      // a queue's policy appears with its first statistics (every few seconds)
      for (let i = 0; i < 40; i++) {
        const qs = await m.listQueues(vhost);
        // 3.10.8 lists no `policy` field on a quorum queue no policy applies to: wait for the statistics instead
        if (qs.length === 3 && qs.every((q) => 'messages' in q) && qs.some((q) => q.policy))
          return Object.fromEntries(qs.map((q) => [q.name, q.policy || null]));
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error('no queue statistics within 20 s');
    });
    expect(applied).toEqual({ 'with-age.classic': null, 'with-age.quorum': null, 'ttl-only.classic': 'ttl' });
  }, 60_000);

  it.each([
    // a quorum DLQ takes at-most-once dead letters past its limit (no channel to refuse them); a classic one drops them
    { type: 'quorum', overflow: 'reject-publish', kept: 5 },
    { type: 'classic', overflow: 'reject-publish', kept: 2 },
    { type: 'quorum', overflow: 'drop-head', kept: 2 },
  ])(
    'five dead letters into a $type DLQ with max-length 2 and $overflow: $kept kept',
    async ({ type, overflow, kept }) => {
      const depth = await inVhost(broker, async (_m, vhost) => {
        const c = await amqp.connect(`${broker.amqpUrl}${encodeURIComponent(vhost)}`);
        try {
          const ch = await c.createChannel();
          await ch.assertExchange('dlx', 'fanout');
          await ch.assertQueue('dlq', {
            durable: true,
            arguments: { 'x-queue-type': type, 'x-max-length': 2, 'x-overflow': overflow },
          });
          await ch.bindQueue('dlq', 'dlx', '');
          await ch.assertQueue('work', { durable: true, arguments: { 'x-dead-letter-exchange': 'dlx' } });
          for (let i = 0; i < 5; i++) ch.sendToQueue('work', Buffer.from(`m${i}`));
          for (let got = 0; got < 5;) {
            const msg = await ch.get('work');
            if (msg) {
              ch.reject(msg, false);
              got++;
            } else await new Promise((r) => setTimeout(r, 50));
          }
          // dead-lettering is asynchronous: wait until the depth settles
          let last = -1;
          for (let i = 0; i < 40; i++) {
            await new Promise((r) => setTimeout(r, 150));
            const n = (await ch.checkQueue('dlq')).messageCount;
            if (n === last && n >= kept) break;
            last = n;
          }
          return (await ch.checkQueue('dlq')).messageCount;
        } finally {
          await c.close();
        }
      });
      expect(depth).toBe(kept);
    },
    30_000,
  );
});
