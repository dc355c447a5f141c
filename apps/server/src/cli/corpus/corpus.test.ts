/**
 * The real-world corpus (README.md beside this file): every CLI command on every file, in
 * process. Each must end cleanly (cli/exitCodes.ts: exit 0, or 1 or 2 with a reason), never a stack trace,
 * and print a bounded amount. The expectations were written from reading each file. Every file with a
 * queue rehearses (exit 0) with the actors lint assumes, with no outage and with one on its first assumed
 * consumer (issue 38), and answers upgrade-check 3.10 -> 4.3.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS, type ReadDocument } from '@retry-studio/topology-core/io';
import { assumedConsumers } from '@retry-studio/topology-core/lint';
import { runCliCaptured } from '../cliHarness.js';
import { EXPECTED } from './expectations.js';
import { CORPUS_DIR as DIR, CORPUS_FILES as FILES, readCorpusFile } from './corpusFiles.js';

/** About 100 KB: what any command may print for one of these files. */
const MAX_OUTPUT = 100_000;

/** The first queue the one consumer assumption gives a worker, and its vhost: where an outage is rehearsed. */
function firstAssumedConsumer(docs: readonly ReadDocument[]): { queue: string; vhost?: string } | undefined {
  for (const d of docs) {
    const roles = assumedConsumers(d.design.topology).roles;
    const queue = Object.keys(roles).find((q) => roles[q] === 'work');
    if (queue !== undefined) return { queue, ...(d.vhost !== undefined ? { vhost: d.vhost } : {}) };
  }
  return undefined;
}

describe('the real-world corpus', () => {
  it('has at least 20 files, each with its expectations and its source in the README', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(20);
    const readme = readFileSync(path.join(DIR, 'README.md'), 'utf8');
    for (const f of FILES) {
      expect(EXPECTED[f], `${f} has no expectations`).toBeDefined();
      expect(readme, `${f} is not in README.md`).toContain(f);
    }
  });

  it.each(FILES)('%s reads as expected (vhosts, queues, notes)', async (file) => {
    const want = EXPECTED[file]!;
    const r = await readCorpusFile(file);
    if (want.error) {
      expect(r.ok).toBe(false);
      expect(!r.ok && r.errors.map((e) => e.code)).toContain(want.error);
      return;
    }
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const got = Object.fromEntries(r.docs.map((d) => [d.vhost ?? '(none)', d.design.topology.queues.length]));
    expect(got).toEqual(want.vhosts);
    const codes = new Set(r.docs.flatMap((d) => d.warnings.map((w) => w.code)));
    for (const n of want.notes ?? []) expect([...codes], `${file}: note ${n}`).toContain(n);
  });

  it.each(FILES)('%s: every command ends cleanly with bounded output', { timeout: 120_000 }, async (file) => {
    const want = EXPECTED[file]!;
    const r = await readCorpusFile(file);
    const docs = r.ok ? r.docs : [];
    const outage = firstAssumedConsumer(docs);
    const withQueues = docs.find((d) => d.design.topology.queues.length > 0)?.vhost;
    const rehearsal = (vhost: string | undefined, extra: string[] = []): string[] => [
      'rehearse',
      file,
      '--rate',
      '5',
      '--duration',
      '20s',
      ...extra,
      ...(vhost !== undefined && docs.length > 1 ? ['--vhost', vhost] : []),
    ];
    const firstQueue = docs.flatMap((d) => d.design.topology.queues)[0]?.name;
    const b = docs.flatMap((d) => d.design.topology.bindings).find((x) => x.destination_type === 'queue');
    const runs: string[][] = [
      ['lint', file],
      ['lint', file, '--json'],
      ['import', file],
      ['compare', file],
      ['simulate', file],
      ...(b
        ? [
            [
              'simulate',
              file,
              '--publish',
              `${b.source}:${b.routing_key.replace(/[#*]/g, 'x')}`,
              '--consumer',
              `${b.destination}=worker`,
            ],
          ]
        : []),
      ...EXPORT_FORMATS.map((f) => ['export', file, '--format', f]),
      ...(firstQueue ? [['rename', file, '--queue', firstQueue, `${firstQueue}.renamed`]] : []),
      // rehearse reads one vhost: a file of several is rehearsed on its first vhost with a queue (see the README's defects)
      rehearsal(withQueues),
      ...(outage ? [rehearsal(outage.vhost, ['--outage', `${outage.queue}@2s+5s`])] : []),
      ['upgrade-check', file, '--from', '3.10', '--to', '4.3'],
    ];
    for (const argv of runs) {
      const res = await runCliCaptured(DIR, argv);
      const label = argv.join(' ');
      // cli/exitCodes.ts: 0 answered, 1 bad news, 2 the question is wrong (a one-vhost format for a file of several)
      expect([0, 1, 2], `${label}: exit ${res.code}\n${res.err}`).toContain(res.code);
      expect(res.err + res.out, `${label}: a stack trace`).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
      expect(res.out.length + res.err.length, `${label}: ${res.out.length + res.err.length} characters`).toBeLessThan(
        MAX_OUTPUT,
      );
      // what is not an answer says why; a retry that never ends, or a refused upgrade, is said in the answer itself
      const loops = (argv[0] === 'simulate' || argv[0] === 'compare') && /never (ends|settles)/.test(res.out);
      const refusedUpgrade = argv[0] === 'upgrade-check' && res.code === 1 && /^FAIL: /m.test(res.out);
      if (res.code > 0 && !loops && !refusedUpgrade)
        expect(res.err, `${label}: exit ${res.code} without a reason`).toMatch(/^error: /m);
      // lint finds what reading the file says it should
      if (argv[0] === 'lint' && argv[2] === '--json' && (want.findings || want.absent)) {
        const ids = (JSON.parse(res.out) as { findings: { id: string }[] }).findings.map((f) => f.id);
        for (const id of want.findings ?? []) expect(ids, `${file}: lint ${id}`).toContain(id);
        for (const id of want.absent ?? []) expect(ids, `${file}: lint ${id} (a wrong finding)`).not.toContain(id);
      }
      // every file with a queue simulates and compares, with the actors lint assumes (issue 29.5)
      if (
        (argv[0] === 'simulate' || argv[0] === 'compare') &&
        argv.length === 2 &&
        docs.some((d) => d.design.topology.queues.length > 0)
      )
        expect([0, 1], `${label}: ${res.err}`).toContain(res.code);
      // a file that cannot be read fails every command the same way, naming the problem
      if (want.error && argv[0] !== 'compare') expect(res.code, label).toBe(1);
      // every file with a queue rehearses, with and without an outage on its first assumed consumer (issue 38)
      if (argv[0] === 'rehearse' && docs.some((d) => d.design.topology.queues.length > 0))
        expect(res.code, `${label}: ${res.err}`).toBe(0);
    }
  });
});
