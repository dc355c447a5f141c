/**
 * One exit-code convention for every command (exitCodes.ts): 0 answered, 1 the answer is bad
 * news, 2 the question is wrong. Each command is run on a file that answers cleanly, one whose
 * answer is bad news, and a question that is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCliCaptured } from './cliHarness.js';
import { EXIT } from './exitCodes.js';
import { COMMANDS } from './commandRegistry.js';

let dir = '';
const queue = (name: string, args: Record<string, unknown> = {}, vhost = '/') => ({
  name,
  vhost,
  durable: true,
  auto_delete: false,
  arguments: args,
});
const exchange = (name: string, vhost = '/') => ({
  name,
  vhost,
  type: 'direct',
  durable: true,
  auto_delete: false,
  internal: false,
  arguments: {},
});
const bind = (source: string, destination: string, key: string, vhost = '/') => ({
  source,
  vhost,
  destination,
  destination_type: 'queue',
  routing_key: key,
  arguments: {},
});
/** a work queue and a 1 s wait queue dead-lettering into each other: a failing message retries forever */
const loop = (vhost = '/') => ({
  exchanges: [exchange('work', vhost), exchange('retry', vhost)],
  queues: [
    queue('q', { 'x-dead-letter-exchange': 'retry' }, vhost),
    queue('q.wait', { 'x-message-ttl': 1000, 'x-dead-letter-exchange': 'work' }, vhost),
  ],
  bindings: [bind('work', 'q', 'q', vhost), bind('retry', 'q.wait', 'q', vhost)],
});
/** a work queue whose failures rest in a parking queue: every retry ends */
const parked = (vhost = '/') => ({
  exchanges: [exchange('work', vhost), exchange('dead', vhost)],
  queues: [queue('q', { 'x-dead-letter-exchange': 'dead' }, vhost), queue('q.dlq', {}, vhost)],
  bindings: [bind('work', 'q', 'q', vhost), bind('dead', 'q.dlq', 'q', vhost)],
});
const files: Record<string, unknown> = {
  'parked.json': { rabbit_version: '3.10.8', ...parked() },
  'loop.json': { rabbit_version: '3.10.8', ...loop() },
  'ghost-dlx.json': {
    rabbit_version: '3.10.8',
    exchanges: [],
    bindings: [],
    queues: [queue('q', { 'x-dead-letter-exchange': 'ghost' })],
  },
  'invalid.json': { queues: [queue('q', { 'x-message-ttl': -1 })] },
  'two-vhosts.json': {
    rabbit_version: '3.10.8',
    vhosts: [{ name: 'a' }, { name: 'b' }],
    exchanges: [...parked('a').exchanges, ...parked('b').exchanges],
    queues: [...parked('a').queues, ...parked('b').queues],
    bindings: [...parked('a').bindings, ...parked('b').bindings],
  },
  'lazy.json': {
    rabbit_version: '3.10.8',
    exchanges: [],
    bindings: [],
    queues: [queue('l', { 'x-queue-mode': 'lazy' })],
  },
  'mirrored.json': {
    rabbit_version: '3.10.8',
    exchanges: [],
    bindings: [],
    queues: [queue('a.q')],
    policies: [{ name: 'ha', pattern: '^a', 'apply-to': 'queues', priority: 0, definition: { 'ha-mode': 'all' } }],
  },
};
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'retry-cli-exit-'));
  for (const [name, json] of Object.entries(files)) await writeFile(path.join(dir, name), JSON.stringify(json));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cli = (...argv: string[]) => runCliCaptured(dir, argv);
const { answered, badNews, wrongQuestion } = EXIT;

describe('one exit-code convention for every command', () => {
  it.each<[string, string[], number]>([
    ['lint: no error', ['lint', 'parked.json'], answered],
    ['lint: an error finding', ['lint', 'ghost-dlx.json'], badNews],
    ['lint: a file the broker refuses (the field named)', ['lint', 'invalid.json'], badNews],
    ['lint: an unknown option', ['lint', 'parked.json', '--colour'], wrongQuestion],
    ['lint: a vhost the file does not hold', ['lint', 'two-vhosts.json', '--vhost', 'c'], wrongQuestion],
    ['lint: a file that is not there', ['lint', 'missing.json'], wrongQuestion],
    ['simulate: every retry ends', ['simulate', 'parked.json'], answered],
    ['simulate: a retry that never ends', ['simulate', 'loop.json', '--always'], badNews],
    ['simulate: a bad --consumer', ['simulate', 'parked.json', '--consumer', 'q'], wrongQuestion],
    ['compare: strategies that end', ['compare', 'requeue-once', 'chained-ttl'], answered],
    ['compare: one never ends', ['compare', 'chained-ttl', 'loop.json', '--always'], badNews],
    ['compare: a bad option value', ['compare', '--fail-first', 'many'], wrongQuestion],
    ['upgrade-check: notes only', ['upgrade-check', 'lazy.json', '--from', '3.10', '--to', '4.3'], answered],
    [
      'upgrade-check: a refused declaration',
      ['upgrade-check', 'mirrored.json', '--from', '3.10', '--to', '4.3'],
      badNews,
    ],
    ['upgrade-check: no --to', ['upgrade-check', 'lazy.json', '--from', '3.10'], wrongQuestion],
    ['import: read', ['import', 'parked.json'], answered],
    ['import: a vhost the file does not hold', ['import', 'two-vhosts.json', '--vhost', 'c'], wrongQuestion],
    ['export: one vhost', ['export', 'parked.json', '--format', 'amqplib'], answered],
    ['export: two vhosts into a one-vhost format', ['export', 'two-vhosts.json', '--format', 'amqplib'], wrongQuestion],
    ['rename: renamed', ['rename', 'parked.json', '--queue', 'q', 'q2'], answered],
    ['rename: no such queue', ['rename', 'parked.json', '--queue', 'nope', 'q2'], wrongQuestion],
    ['generate: built', ['generate', 'chained-ttl'], answered],
    ['generate: an unknown template', ['generate', 'nope'], wrongQuestion],
    ['generate: a bad parameter', ['generate', 'dlx-ttl-wait-queue', '--param', 'maxRetries=lots'], wrongQuestion],
    ['templates', ['templates'], answered],
    [
      'import-broker: an unreachable broker',
      ['import-broker', '--url', 'amqp://guest:guest@127.0.0.1:5999/'],
      wrongQuestion,
    ],
    [
      'dlq: an unreachable broker',
      ['dlq', 'browse', '--url', 'amqp://guest:guest@127.0.0.1:5999/', '--queue', 'q'],
      wrongQuestion,
    ],
    ['an unknown command', ['frobnicate'], wrongQuestion],
  ])('%s', async (_, argv, code) => {
    const r = await cli(...argv);
    expect(r.code, `${argv.join(' ')}\n${r.err}`).toBe(code);
    if (code !== answered) expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('a multi-vhost file is answered per vhost: upgrade-check runs each and says so', async () => {
    const r = await cli('upgrade-check', 'two-vhosts.json', '--from', '3.10', '--to', '4.3');
    expect(r.code).toBe(answered);
    expect(r.err).toContain('holds 2 vhosts: each is checked on its own');
    expect(r.out).toContain('== vhost "a"');
    expect(r.out).toContain('== vhost "b"');
    const j = JSON.parse(
      (await cli('upgrade-check', 'two-vhosts.json', '--from', '3.10', '--to', '4.3', '--json')).out,
    );
    expect(j.vhosts.map((v: { vhost: string }) => v.vhost)).toEqual(['a', 'b']);
    // one design out: one vhost must be chosen
    const m = await cli(
      'upgrade-check',
      'two-vhosts.json',
      '--from',
      '3.10',
      '--to',
      '4.3',
      '--migrated-out',
      'm.json',
    );
    expect(m.code).toBe(wrongQuestion);
    expect(m.err).toContain('pick one with --vhost');
  });

  it("every command's --help states the convention", async () => {
    for (const c of COMMANDS) {
      const r = await cli(c.name, '--help');
      expect(r.code, c.name).toBe(answered);
      expect(r.out, c.name).toContain('exit codes (every command):');
    }
  });
});
