/** `pnpm cli upgrade-check` on files: exit codes, the report, and bad input caught before anything is declared. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeDesignJson } from '@retry-studio/topology-core/io';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { runCliCaptured } from '../cliHarness.js';

let dir = '';
const queue = (name: string, args: Record<string, unknown>, vhost?: string) => ({
  name,
  durable: true,
  auto_delete: false,
  arguments: args,
  ...(vhost ? { vhost } : {}),
});
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'retry-cli-upgrade-'));
  const r = buildTemplate('quorum-delivery-limit');
  if (!r.ok) throw new Error('template');
  await writeFile(path.join(dir, 'nack.json'), writeDesignJson(r.template.design));
  await writeFile(
    path.join(dir, 'legacy.json'),
    JSON.stringify({
      rabbit_version: '3.13.7',
      exchanges: [],
      bindings: [],
      queues: [queue('a.q', { 'x-queue-version': 1 })],
      policies: [{ name: 'ha', pattern: '^a', 'apply-to': 'queues', priority: 0, definition: { 'ha-mode': 'all' } }],
    }),
  );
  await writeFile(
    path.join(dir, 'lazy.json'),
    JSON.stringify({
      rabbit_version: '3.10.8',
      exchanges: [],
      bindings: [],
      queues: [queue('l.q', { 'x-queue-mode': 'lazy' })],
    }),
  );
  await writeFile(
    path.join(dir, 'many.json'),
    JSON.stringify({
      rabbit_version: '3.10.8',
      exchanges: [],
      bindings: [],
      queues: Array.from({ length: 18 }, (_, i) => queue(`svc${i}.q`, { 'x-queue-type': 'quorum' })),
    }),
  );
  await writeFile(
    path.join(dir, 'two.json'),
    JSON.stringify({
      rabbit_version: '3.13.7',
      vhosts: [{ name: 'a' }, { name: 'b' }],
      exchanges: [],
      bindings: [],
      queues: [queue('x', {}, 'a'), queue('y', {}, 'b')],
    }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (...argv: string[]) => runCliCaptured(dir, ['upgrade-check', ...argv]);

describe('pnpm cli upgrade-check', () => {
  it("refused declarations: exit 1, each object named with the broker's words and the fix", async () => {
    const r = await cli('legacy.json', '--from', '3.10', '--to', '4.3');
    expect(r.code).toBe(1);
    expect(r.out).toContain('REFUSED          classic-mirroring-policy: policy ha sets classic mirroring');
    expect(r.out).toContain("broker says: PRECONDITION_FAILED - invalid arg 'x-queue-version' for queue 'a.q'");
    expect(r.out).toMatch(/FAIL: 2 declaration\(s\) refused, 0 fate\(s\) changed/);
  });
  it('a fate that changes (nack + delivery limit on 4.3): exit 1, one sentence per queue; the migration keeps the fate', async () => {
    const r = await cli('nack.json', '--from', '3.10', '--to', '4.3');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /BEHAVIOUR-CHANGED fate-changed: jobs\.q \(always failing.*on 3\.10 .*; on 4\.3 still moving.*it never ends.*a basic\.nack no longer counts toward x-delivery-limit/,
    );
    expect(r.out).toContain('basic.nack requeue -> basic.reject requeue');
    expect(r.out).toContain('all match');
  });
  it('notes only (lazy mode ignored): exit 0', async () => {
    const r = await cli('lazy.json', '--from', '3.10', '--to', '4.3');
    expect(r.out).toContain('IGNORED          lazy-queue-mode');
    expect(r.code).toBe(0);
  });
  it('--json and --migrated-out: the findings, the migration and its fates; the migrated design is a file', async () => {
    const r = await cli('nack.json', '--from', '3.10', '--to', '4.3', '--json', '--migrated-out', 'm.json');
    const j = JSON.parse(r.out) as {
      blocking: boolean;
      findings: { kind: string }[];
      migration: { fatesMatch: boolean };
    };
    expect([j.blocking, j.migration.fatesMatch]).toEqual([true, true]);
    expect(j.findings.some((f) => f.kind === 'behaviour-changed')).toBe(true);
    const m = JSON.parse(await readFile(path.join(dir, 'm.json'), 'utf8')) as { profile: string };
    expect(m.profile).toBe('4.3');
    // the migration checked again: nothing blocking left
    expect((await cli('m.json', '--from', '4.3', '--to', '4.x')).out).not.toContain('fate-changed');
  });
  it('identical findings collapse into one, with a count and the objects (18 quorum queues without a limit)', async () => {
    const r = await cli('many.json', '--from', '3.10', '--to', '4.x');
    expect(r.out.match(/quorum-default-delivery-limit/g)).toHaveLength(1);
    expect(r.out).toContain(
      'DEFAULT-CHANGED  quorum-default-delivery-limit: 18 findings (--json lists every one); the first:',
    );
    expect(r.out).toContain('objects (18): queue:svc0.q, queue:svc1.q,');
    expect(r.out).toContain('... and 10 more');
    // --json keeps every one
    expect(JSON.parse((await cli('many.json', '--from', '3.10', '--to', '4.x', '--json')).out).findings).toHaveLength(
      18,
    );
  });
  it.each([
    [['legacy.json', '--from', '3.10', '--to', '5.0'], '--to: unknown profile "5.0"'],
    [['legacy.json', '--from', '4.3', '--to', '4.3'], '--from and --to are both 4.3'],
    [['legacy.json', '--to', '4.3'], '--from: which broker line'],
    [['legacy.json', '--from', '3.10'], '--to: which broker line'],
    [['two.json', '--from', '3.10', '--to', '4.3', '--vhost', 'c'], 'vhost "c" is not in the file'],
    [
      ['legacy.json', '--from', '3.10', '--to', '4.3', '--verify-on', 'amqp://guest:guest@127.0.0.1:5999/'],
      '--verify-on:',
    ],
  ])('bad input %j: a clear error naming the option', async (argv, message) => {
    const r = await cli(...argv);
    expect(r.code).toBeGreaterThan(0);
    expect(r.err).toContain(message);
    expect(r.out).toBe('');
  });
});
