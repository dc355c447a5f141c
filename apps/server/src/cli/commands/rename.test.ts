import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportDefinitions, writeDesignJson } from '@retry-studio/topology-core/io';
import { type Design } from '@retry-studio/topology-core/model';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { runCli } from '../main.js';
import type { CliIo } from './context.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'retry-cli-rename-'));
  const r = buildTemplate('dlx-ttl-wait-queue');
  if (!r.ok) throw new Error('template');
  await writeFile(path.join(dir, 'd.json'), writeDesignJson(r.template.design));
  await writeFile(path.join(dir, 'defs.json'), JSON.stringify(exportDefinitions(r.template.design.topology)));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = { out: (s) => void (out += s), err: (s) => void (err += s), cwd: dir };
  return { code: await runCli(argv, io), out, err };
}

describe('pnpm cli rename', () => {
  it('renames a queue and every reference; the result still lints and simulates as before', async () => {
    const r = await cli('rename', 'd.json', '--queue', 'orders.q', 'orders.work', '--out', 'r.json');
    expect(r.code).toBe(0);
    const d = JSON.parse(await readFile(path.join(dir, 'r.json'), 'utf8')) as Design;
    expect(JSON.stringify(d)).not.toContain('"orders.q"');
    const w = d.consumers[0]!.behaviour;
    expect(w.kind === 'worker' && w.onFailure[0]!.when).toMatchObject({ counter: { queue: 'orders.work' } });
    expect(d.topology.queues[0]!.arguments).toMatchObject({ 'x-dead-letter-routing-key': 'orders.work' });
    const before = await cli('simulate', 'd.json', '--always');
    const after = await cli('simulate', 'r.json', '--always');
    expect(after.out).toContain('attempts:         4');
    expect(after.out.replaceAll('orders.work', 'orders.q')).toBe(before.out);
  });

  it('renames an exchange in a definitions file and writes definitions', async () => {
    const r = await cli('rename', 'defs.json', '--exchange', 'orders.retry', 'orders.dlx');
    expect(r.code).toBe(0);
    const defs = JSON.parse(r.out) as {
      exchanges: { name: string }[];
      queues: { name: string; arguments: Record<string, unknown> }[];
    };
    expect(defs.exchanges.map((x) => x.name)).toContain('orders.dlx');
    expect(defs.queues[0]!.arguments['x-dead-letter-exchange']).toBe('orders.dlx');
  });

  it('refuses a taken or invalid name naming the field, and bad usage', async () => {
    const taken = await cli('rename', 'd.json', '--queue', 'orders.q', 'orders.wait');
    expect(taken.code).toBe(2);
    expect(taken.err).toContain('topology.queues[1].name');
    const bad = await cli('rename', 'd.json', '--exchange', 'orders', 'amq.orders');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('topology.exchanges[0].name');
    expect((await cli('rename', 'd.json', '--queue', '--exchange', 'a', 'b')).code).toBe(2);
    expect((await cli('rename', 'd.json', 'a', 'b')).code).toBe(2);
    expect((await cli('rename', 'd.json', '--queue', 'nope', 'b')).err).toContain('no queue named "nope"');
  });
});

describe('the linter and the simulator on a rename done by hand (every field but the counter)', () => {
  it('lint fails naming the queue and the counter; simulate says the ack came only because the worker stopped failing', async () => {
    const d = JSON.parse((await cli('rename', 'd.json', '--queue', 'orders.q', 'orders.work')).out) as Design;
    const w = d.consumers[0]!;
    if (w.behaviour.kind !== 'worker') throw new Error('worker');
    const first = w.behaviour.onFailure[0]!;
    const stale: Design = {
      ...d,
      consumers: [
        {
          ...w,
          behaviour: {
            ...w.behaviour,
            onFailure: [
              {
                ...first,
                when: { kind: 'lt', counter: { kind: 'deathCount', queue: 'orders.q', reason: 'rejected' }, value: 3 },
              },
              ...w.behaviour.onFailure.slice(1),
            ],
          },
        },
      ],
    };
    await writeFile(path.join(dir, 'stale.json'), writeDesignJson(stale));
    const lint = await cli('lint', 'stale.json');
    expect(lint.code).toBe(1);
    expect(lint.out).toContain('retry-never-ends: orders.work:');
    expect(lint.out).toContain('queue orders.q, reason rejected reads 0');
    const sim = await cli('simulate', 'stale.json', '--fail-first', '20');
    expect(sim.out).toContain(
      'ends in:          acked by worker at attempt 21 (only because the worker stopped failing: failing every time, it never ends)',
    );
  });
});
