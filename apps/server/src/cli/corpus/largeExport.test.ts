/**
 * A 50 MB whole-broker export (10,000 queues in 4 vhosts, built here, never committed): every
 * command finishes in seconds, says what it did, and prints a bounded amount (`--json` and
 * exports written with --out excepted: they are the data).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../cliHarness.js';
import { largeExport } from './largeExport.js';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rs-large-'));
  writeFileSync(path.join(dir, 'big.json'), JSON.stringify(largeExport({ queues: 10_000, targetBytes: 50_000_000 })));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// measured on the shared 2-core machine: lint 3.4-13 s (4 vhosts, by load), the others 0.4-5.5 s; the bound leaves room for a loaded CI
const SECONDS = 60;

describe('a 50 MB export with 10,000 queues', () => {
  it('is about 50 MB', () => {
    expect(readFileSync(path.join(dir, 'big.json')).length).toBeGreaterThan(45_000_000);
  });

  it.each([
    [['lint', 'big.json'], 0, /4 vhosts: 0 error\(s\)/],
    [['import', 'big.json', '--out', 'design.json'], 0, /wrote design\.tenant-3\.json/],
    [
      ['import', 'big.json', '--vhost', 'nope'],
      // the question is wrong (cli/exitCodes.ts)
      2,
      /vhost "nope" is not in the file; its vhosts with objects: "\/" \(3 exchanges, 2500 queues/,
    ],
    [['export', 'big.json', '--format', 'definitions', '--out', 'all.json'], 0, /wrote all\.json/],
    [
      ['export', 'big.json', '--format', 'terraform', '--source-vhost', 'tenant-2', '--out', 'main.tf'],
      0,
      /wrote main\.tf/,
    ],
    [['export', 'big.json', '--format', 'operator', '--out', 'all.yaml'], 0, /wrote all\.yaml/],
    [['export', 'big.json', '--format', 'asyncapi'], 2, /has objects in 4 vhosts .*pick one with --source-vhost/],
    [
      ['simulate', 'big.json', '--vhost', '/', '--publish', 'events:svc0.work.x', '--consumer', 'svc0.work=worker'],
      0,
      /retry budget/,
    ],
    [['rename', 'big.json', '--queue', 'svc0.work', 'svc0.main', '--out', 'renamed.json'], 0, /wrote renamed\.json/],
  ] as const)('%j exits %i in seconds with bounded output', { timeout: 120_000 }, async (argv, code, says) => {
    const t0 = Date.now();
    const r = await runCliCaptured(dir, [...argv]);
    const ms = Date.now() - t0;
    expect(r.code, r.err.slice(0, 500)).toBe(code);
    expect(r.out + r.err).toMatch(says);
    expect(ms, `${argv.join(' ')} took ${ms} ms`).toBeLessThan(SECONDS * 1000);
    expect(r.out.length + r.err.length).toBeLessThan(100_000);
  });

  it('keeps every object in its vhost through a definitions export', () => {
    const out = JSON.parse(readFileSync(path.join(dir, 'all.json'), 'utf8')) as {
      queues: { vhost: string }[];
      vhosts: { name: string }[];
    };
    expect(out.vhosts.map((v) => v.name)).toEqual(['/', 'tenant-1', 'tenant-2', 'tenant-3']);
    expect(out.queues).toHaveLength(10_000);
    expect(out.queues.filter((q) => q.vhost === 'tenant-2')).toHaveLength(2500);
    // never written back: users, permissions, parameters
    expect(readFileSync(path.join(dir, 'all.json'), 'utf8')).not.toContain('move-dlq');
    expect(readFileSync(path.join(dir, 'main.tf'), 'utf8')).toContain('resource "rabbitmq_vhost" "vhost"');
  });
});

describe('1,000 quorum queues', () => {
  it('lint prints each rule once with a count (it printed the same line 1,000 times: 333 KB), --json keeps every finding', async () => {
    writeFileSync(path.join(dir, 'thousand.json'), JSON.stringify(largeExport({ queues: 1000, vhosts: 1 })));
    const text = await runCliCaptured(dir, ['lint', 'thousand.json']);
    expect(text.code).toBe(0);
    expect(text.out.length).toBeLessThan(10_000);
    expect(text.out).toMatch(
      /info {4}quorum-default-delivery-limit: \d+ findings \(--json lists every one\)|warning overflow-drops-silently: \d+ findings/,
    );
    const json = JSON.parse((await runCliCaptured(dir, ['lint', 'thousand.json', '--json'])).out) as {
      findings: unknown[];
    };
    expect(json.findings.length).toBeGreaterThan(300);
  });
});
