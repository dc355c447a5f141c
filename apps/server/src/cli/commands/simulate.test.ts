/**
 * simulate on a definitions file (issue 21.6 and 21.7): outcomes named for what happens next,
 * repetition summarised, output bounded for a looping message, the policy tie it assumed.
 * Files built from one builder (a work queue, its retry loop, a DLQ and policies).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliCaptured } from '../cliHarness.js';

let dir = '';
const cli = (...argv: string[]) => runCliCaptured(dir, argv);

/** work -> (retry) -> work.wait (5 s TTL) -> (back) -> work, or work -> (dead) -> work.dlq. */
function definitions(o: { loop: boolean; policies?: unknown[] }) {
  const x = (name: string, type = 'direct') => ({
    name,
    vhost: '/',
    type,
    durable: true,
    auto_delete: false,
    internal: false,
    arguments: {},
  });
  const q = (name: string, args: Record<string, unknown> = {}) => ({
    name,
    vhost: '/',
    durable: true,
    auto_delete: false,
    arguments: args,
  });
  const b = (source: string, destination: string, key: string) => ({
    source,
    vhost: '/',
    destination,
    destination_type: 'queue',
    routing_key: key,
    arguments: {},
  });
  return {
    rabbit_version: '3.10.8',
    exchanges: [x('app'), x('retry'), x('back'), x('dead')],
    queues: [
      q('work', { 'x-dead-letter-exchange': o.loop ? 'retry' : 'dead' }),
      q('work.wait', { 'x-message-ttl': 5000, 'x-dead-letter-exchange': 'back' }),
      q('work.dlq'),
      q('other'),
    ],
    bindings: [
      b('app', 'work', 'job'),
      b('retry', 'work.wait', 'job'),
      b('back', 'work', 'job'),
      b('dead', 'work.dlq', 'job'),
      b('app', 'other', 'other'),
    ],
    policies: o.policies ?? [],
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'retry-cli-simulate-'));
  await writeFile(path.join(dir, 'loop.json'), JSON.stringify(definitions({ loop: true })));
  // five services of one shape: each work queue dead-letters to its own DLQ
  const svc = (i: number) => ({
    exchanges: [`svc${i}`, `svc${i}.dead`].map((name) => ({
      name,
      vhost: '/',
      type: 'direct',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    })),
    queues: [
      {
        name: `svc${i}.q`,
        vhost: '/',
        durable: true,
        auto_delete: false,
        arguments: { 'x-dead-letter-exchange': `svc${i}.dead` },
      },
      { name: `svc${i}.dlq`, vhost: '/', durable: true, auto_delete: false, arguments: {} },
    ],
    bindings: [
      {
        source: `svc${i}`,
        vhost: '/',
        destination: `svc${i}.q`,
        destination_type: 'queue',
        routing_key: 'job',
        arguments: {},
      },
      {
        source: `svc${i}.dead`,
        vhost: '/',
        destination: `svc${i}.dlq`,
        destination_type: 'queue',
        routing_key: 'job',
        arguments: {},
      },
    ],
  });
  const five = [0, 1, 2, 3, 4].map(svc);
  await writeFile(
    path.join(dir, 'five.json'),
    JSON.stringify({
      rabbit_version: '3.10.8',
      exchanges: five.flatMap((x) => x.exchanges),
      queues: five.flatMap((x) => x.queues),
      bindings: five.flatMap((x) => x.bindings),
    }),
  );
  const dlqTtl = {
    vhost: '/',
    name: 'dlq-ttl',
    pattern: '\\.dlq$',
    'apply-to': 'queues',
    priority: 0,
    definition: { 'message-ttl': 7 * 24 * 3600 * 1000 },
  };
  await writeFile(path.join(dir, 'dlq.json'), JSON.stringify(definitions({ loop: false, policies: [dlqTtl] })));
  const limits = {
    vhost: '/',
    name: 'limits',
    pattern: '.*',
    'apply-to': 'queues',
    priority: 0,
    definition: { 'max-length': 1000 },
  };
  await writeFile(path.join(dir, 'tie.json'), JSON.stringify(definitions({ loop: false, policies: [dlqTtl, limits] })));
  // policies only, as RabbitMQ's own case1 and the prometheus overview file hold them (corpus/README.md)
  await writeFile(
    path.join(dir, 'policies-only.json'),
    JSON.stringify({ vhosts: [{ name: '/' }], queues: [], exchanges: [], bindings: [], policies: [dlqTtl, limits] }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const worker = ['--publish', 'app:job', '--consumer', 'work=worker'];

describe('pnpm cli simulate: outcomes and bounded output', () => {
  it('copies of one shape are one journey with a count (issue 38: grouped output)', async () => {
    const r = await cli('simulate', 'five.json');
    expect(r.out).toContain(
      '5 messages of one journey, each through its own objects (svc0-1, svc1-1, svc2-1, ...); the first: svc0.q -> svc0.dlq',
    );
    expect(r.out.match(/messages of one journey/g)).toHaveLength(1);
  });

  it('one message of a TTL loop: repetition summarised, about 1 KB instead of 1.3 MB', async () => {
    const r = await cli('simulate', 'loop.json', ...worker);
    // a retry that never ends is bad news (cli/exitCodes.ts)
    expect(r.code).toBe(1);
    expect(r.out).toContain('delays:           5 s × 17,280');
    expect(r.out).toContain('msg-1: (work -> work.wait) × 17,281');
    expect(r.out).toMatch(/ends: still moving when the 24 h horizon ended: attempt [0-9,]+, cycling/);
    expect(r.out.length).toBeLessThan(2_000);
  });

  it('--messages 20: one journey told once, and --json stays bounded (runs folded)', async () => {
    const r = await cli('simulate', 'loop.json', ...worker, '--messages', '20');
    // 20 looping messages fill the simulator's event bound before the 24 h horizon: it says so
    expect(r.out).toMatch(/20 messages \(msg-1, msg-2, msg-3, \.\.\.\): \(work -> work\.wait\) × [0-9,]+/);
    expect(r.out).toMatch(/ends: still moving when the run's event bound stopped it at [0-9.]+ h: attempt [0-9,]+/);
    expect(r.out.length).toBeLessThan(2_000);
    const j = await cli('simulate', 'loop.json', ...worker, '--messages', '20', '--json');
    expect(j.out.length).toBeLessThan(100_000);
    const m = JSON.parse(j.out).messages[0];
    expect(m.pathRuns[0]).toMatchObject({ items: ['work', 'work.wait'] });
    expect(m.pathRuns[0].count).toBeGreaterThan(1000);
    expect(m.delaysMsRuns).toEqual([{ items: [5000], count: m.attempts - 1 }]);
    expect(m.attemptTimesHead.slice(0, 3)).toEqual([0, 5000, 10000]);
  });

  it('a message parked in a DLQ whose policy gives it 7 days: parked, expires and is dropped, not unbounded', async () => {
    const r = await cli('simulate', 'dlq.json', ...worker);
    expect(r.out).toContain('ends in:          parked in work.dlq; expires after 7 d (policy dlq-ttl) and is dropped');
    expect(r.out).not.toContain('unbounded');
    expect(r.out).not.toContain('never settles');
  });

  it('says which of two equal-priority policies it simulated with', async () => {
    const r = await cli('simulate', 'tie.json', ...worker);
    expect(r.out).toContain(
      "policy tie: dlq-ttl, limits (priority 0) match work.dlq: RabbitMQ's choice is unspecified; simulated with limits",
    );
    expect(JSON.parse((await cli('simulate', 'tie.json', ...worker, '--json')).out).policyTies).toEqual([
      { queues: ['work.dlq'], policies: ['dlq-ttl', 'limits'], assumed: 'limits', pinned: false },
    ]);
  });

  it('a definitions file with policies and no queue says so, not that publishers or consumers are missing', async () => {
    const r = await cli('simulate', 'policies-only.json');
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'the definitions declare no queue (they hold 2 policies and 0 exchange(s): policies for queues the applications declare)',
    );
    expect(r.err).not.toContain('has no publishers or consumers');
  });
});
