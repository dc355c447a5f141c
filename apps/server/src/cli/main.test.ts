import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { runCliCaptured } from './cliHarness.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'retry-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (...argv: string[]) => runCliCaptured(dir, argv);
const write = (name: string, v: unknown) =>
  writeFile(path.join(dir, name), typeof v === 'string' ? v : JSON.stringify(v));

describe('pnpm cli', () => {
  it('templates lists every id; --json has param schemas', async () => {
    const r = await cli('templates');
    expect(r.code).toBe(0);
    expect(r.out).toContain('dlx-ttl-wait-queue');
    expect(r.out).toContain('quorum-delayed-retry');
    const j = JSON.parse((await cli('templates', '--json')).out);
    expect(j).toHaveLength(17);
    expect(j.find((t: { id: string }) => t.id === 'chained-ttl').params[1]).toMatchObject({
      name: 'delaysMs',
      type: 'integer-list',
      min: 1,
    });
  });

  it('generate: params, formats, --out, and errors naming the param', async () => {
    const d = await cli('generate', 'chained-ttl', '--param', 'delaysMs=100,200', '--param', 'prefix=pay');
    expect(d.code).toBe(0);
    expect(JSON.parse(d.out).topology.queues.map((q: { name: string }) => q.name)).toContain('pay.wait.2');
    for (const f of ['definitions', 'rabbitmqadmin', 'amqplib', 'rascal', 'consumers'])
      expect((await cli('generate', 'delayed-exchange', '--format', f)).code).toBe(0);
    expect((await cli('generate', 'dlx-ttl-wait-queue', '--out', 'g.json')).code).toBe(0);
    expect(JSON.parse(await readFile(path.join(dir, 'g.json'), 'utf8')).format).toBe('retry-studio/design');
    const bad = await cli('generate', 'dlx-ttl-wait-queue', '--param', 'maxRetries=lots');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('params.maxRetries');
    expect((await cli('generate', 'nope')).err).toContain('unknown template "nope"');
    expect((await cli('generate', 'requeue-once', '--format', 'pdf')).code).toBe(2);
  });

  it('generate --portable swaps the delayed exchange for TTL queues and says what changed', async () => {
    const r = await cli('generate', 'delayed-exchange', '--portable', '--format', 'definitions');
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('x-delayed-message');
    expect(r.err).toContain('now an ordinary direct exchange');
  });

  it('lint: exit 1 on errors, 0 otherwise; --json; definitions files too', async () => {
    await write('bad-design.json', {
      format: 'retry-studio/design',
      version: 1,
      name: 'x',
      topology: { exchanges: [], queues: [{ name: 'q' }], bindings: [] },
      consumers: [{ id: 'w', queue: 'q', behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'requeue' } }] } }],
      publishers: [],
    });
    const r = await cli('lint', 'bad-design.json');
    expect(r.code).toBe(1);
    expect(r.out).toContain('requeue-without-limit');
    const j = JSON.parse((await cli('lint', 'bad-design.json', '--json')).out);
    expect(j.errors).toBe(1);
    await write('defs.json', {
      queues: [{ name: 'q', durable: true, auto_delete: false, arguments: { 'x-dead-letter-exchange': 'ghost' } }],
      exchanges: [],
      bindings: [],
    });
    const d = await cli('lint', 'defs.json');
    expect(d.code).toBe(1);
    expect(d.out).toContain('dlx-missing');
    expect(d.out).toContain('RabbitMQ definitions');
    await cli('generate', 'chained-ttl', '--out', 'ok.json');
    expect((await cli('lint', 'ok.json')).code).toBe(0);
  });

  it('lint --previous flags immutable argument changes', async () => {
    await cli('generate', 'dlx-ttl-wait-queue', '--out', 'v1.json');
    await cli('generate', 'dlx-ttl-wait-queue', '--param', 'delayMs=9000', '--out', 'v2.json');
    const r = await cli('lint', 'v2.json', '--previous', 'v1.json');
    expect(r.code).toBe(1);
    expect(r.out).toContain('immutable-argument-change');
  });

  it('bad input: clear error naming the field, no stack trace', async () => {
    await write('ttl.json', { queues: [{ name: 'q', arguments: { 'x-message-ttl': 1.5 } }] });
    const r = await cli('lint', 'ttl.json');
    expect(r.code).toBe(1);
    expect(r.err).toContain('queues[0].arguments.x-message-ttl');
    expect(r.err).not.toMatch(/\n\s+at /);
    await write('broken.json', '{ not json');
    expect((await cli('simulate', 'broken.json')).err).toContain('not valid JSON');
    expect((await cli('export', 'missing.json', '--format', 'definitions')).err).toContain('no such file');
    await write('design-bad.json', {
      format: 'retry-studio/design',
      version: 1,
      name: 'x',
      topology: { queues: [{ name: 'amq.q' }] },
      consumers: [],
      publishers: [],
    });
    expect((await cli('lint', 'design-bad.json')).err).toContain('topology.queues[0].name');
    expect((await cli('simulate', 'x.json', '--fail-first', 'two')).code).toBe(2);
    expect((await cli('frobnicate')).code).toBe(2);
  });

  it('simulate prints the budget and each message path; --json', async () => {
    await cli('generate', 'dlx-ttl-wait-queue', '--param', 'delayMs=1000', '--out', 's.json');
    const r = await cli('simulate', 's.json', '--fail-first', '2', '--messages', '3');
    expect(r.code).toBe(0);
    expect(r.out).toContain('attempts:         3');
    expect(r.out).toContain('delays:           1 s, 1 s');
    // messages with the same journey are told once
    expect(r.out).toContain(
      '3 messages (msg-1, msg-2, msg-3): orders.q -> orders.wait -> orders.q -> orders.wait -> orders.q',
    );
    const j = JSON.parse((await cli('simulate', 's.json', '--always', '--json')).out);
    expect(j.budget).toMatchObject({
      attempts: 4,
      endsIn: { kind: 'queue', queue: 'orders.parking' },
      endsInText: 'parked in orders.parking',
    });
    await write('defs2.json', { queues: [{ name: 'q', durable: true, auto_delete: false, arguments: {} }] });
    // a queue nothing routes to is fed by its name through the default exchange (issue 29.5): it simulates, saying so
    const byName = await cli('simulate', 'defs2.json');
    expect(byName.code).toBe(0);
    expect(byName.err).toContain('(default exchange):q');
    expect(byName.err).toContain('1 idle queue(s), no consumer: q');
  });

  it('simulate a definitions file with ad-hoc --publish and --consumer', async () => {
    await cli(
      'generate',
      'dlx-ttl-wait-queue',
      '--param',
      'delayMs=1000',
      '--format',
      'definitions',
      '--out',
      'wait.defs.json',
    );
    const r = await cli(
      'simulate',
      'wait.defs.json',
      '--publish',
      'orders:task',
      '--consumer',
      'orders.q=reject,reject,ack',
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain('msg-1: orders.q -> orders.wait -> orders.q -> orders.wait -> orders.q');
    // a worker that always fails: the x-death limit lived in the consumer, so nothing stops the loop
    const w = await cli(
      'simulate',
      'wait.defs.json',
      '--publish',
      'orders:task',
      '--consumer',
      'orders.q=worker',
      '--json',
    );
    expect(JSON.parse(w.out).budget.endsIn.kind).toBe('cycling');
    expect((await cli('simulate', 'wait.defs.json', '--publish', 'nope')).code).toBe(2);
    expect((await cli('simulate', 'wait.defs.json', '--publish', 'ghost:k')).err).toContain('publishers[0].exchange');
  });

  it('export and import: definitions <-> design', async () => {
    await cli(
      'generate',
      'binary-delay-levels',
      '--param',
      'levels=3',
      '--param',
      'delaysMs=1000,3000',
      '--out',
      'b.json',
    );
    const defs = await cli('export', 'b.json', '--format', 'definitions', '--vhost', 'v1', '--out', 'b.defs.json');
    expect(defs.code).toBe(0);
    const imp = await cli('import', 'b.defs.json');
    expect(imp.code).toBe(0);
    expect(imp.err).toContain('definitions; 5 exchanges, 5 queues');
    const back = JSON.parse(imp.out);
    expect(back.topology.queues).toHaveLength(5);
    expect(back.consumers).toEqual([]);
    expect((await cli('export', 'b.defs.json', '--format', 'rabbitmqadmin')).out).toContain('declare binding');
  });

  it('scenario writes a retry-scenario/1 file for a template (and refuses what the format cannot express)', async () => {
    const r = await cli('scenario', 'dlx-ttl-wait-queue', '--param', 'delayMs=200', '--param', 'maxRetries=1');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.out);
    expect(s).toMatchObject({
      format: 'retry-scenario/1',
      name: 'template-dlx-ttl-wait-queue',
      consumers: [
        { queue: 'orders.q', actions: ['reject', { republish: { exchange: '', routing_key: 'orders.parking' } }] },
      ],
    });
    expect((await cli('scenario', 'delayed-exchange', '--portable')).code).toBe(0);
    const bad = await cli('scenario', 'binary-delay-levels');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('cannot be written as a retry-scenario/1 file');
  });

  it('compare runs each strategy to its own horizon (sim/retryHorizon.ts), not a fixed day', async () => {
    const DAY = 86_400_000;
    const q = (name: string, args: Record<string, unknown> = {}) => ({
      name,
      vhost: '/',
      durable: true,
      auto_delete: false,
      arguments: args,
    });
    const x = (name: string) => ({
      name,
      vhost: '/',
      type: 'direct',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    });
    const b = (source: string, destination: string) => ({
      source,
      vhost: '/',
      destination,
      destination_type: 'queue',
      routing_key: 'job',
      arguments: {},
    });
    // work fails into a DLQ that keeps dead letters 3 days, then dead-letters them to a parking queue
    await write('three-day-dlq.json', {
      rabbit_version: '3.10.8',
      exchanges: [x('app'), x('dead'), x('parking')],
      queues: [
        q('work', { 'x-dead-letter-exchange': 'dead' }),
        q('work.dlq', { 'x-message-ttl': 3 * DAY, 'x-dead-letter-exchange': 'parking' }),
        q('parked'),
      ],
      bindings: [b('app', 'work'), b('dead', 'work.dlq'), b('parking', 'parked')],
    });
    const r = await cli('compare', 'three-day-dlq.json', '--always', '--json');
    expect(r.code).toBe(0);
    const [row] = JSON.parse(r.out) as { outcome: unknown; timeToFinalMs: number }[];
    expect(row!.outcome).toMatchObject({ kind: 'parked', queue: 'parked' });
    expect(row!.timeToFinalMs).toBe(3 * DAY);
  });

  it('compare puts strategies side by side', async () => {
    const r = await cli('compare', 'requeue-once', 'chained-ttl', '--always');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toMatch(/^strategy\s+attempts/);
    expect(r.out).toContain('chained-ttl');
  });
});

describe('the CLI as a process', () => {
  it('exits 1 with a one-line error and no stack trace', async () => {
    const file = path.join(dir, 'ttl2.json');
    await writeFile(file, JSON.stringify({ queues: [{ name: 'q', arguments: { 'x-message-ttl': -1 } }] }));
    const run = promisify(execFile);
    const err = await run('npx', ['tsx', path.join(__dirname, '../bin/retryStudio.ts'), 'lint', file], {
      cwd: path.join(__dirname, '../..'),
    }).catch((e: { code: number; stderr: string; stdout: string }) => e);
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stderr: string }).stderr).toContain('queues[0].arguments.x-message-ttl');
    expect((err as { stderr: string }).stderr).not.toMatch(/\n\s+at /);
  }, 30_000);
});
