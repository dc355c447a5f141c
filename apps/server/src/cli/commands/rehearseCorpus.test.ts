/**
 * `rehearse` on every file of the real-world corpus (../corpus/README.md), in process (issue 38):
 * without an outage, and with an outage on the file's first assumed consumer (the first worker
 * lint assumes, in the vhost that has it; a queue with no assumed consumer gets one, said). Each
 * ends with exit 0, or exit 2 with the reason where the file cannot be rehearsed (it declares no
 * queue, or it is refused); never a stack trace; outcomes add up to the messages, copies are at least as many.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDocumentVhosts } from '@retry-studio/topology-core/io';
import { assumedConsumers } from '@retry-studio/topology-core/lint';
import { runCliCaptured } from '../cliHarness.js';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '../corpus');
const FILES = readdirSync(DIR)
  .filter((f) => /\.json(\.tpl)?$/.test(f) && !f.startsWith('broker-'))
  .sort();

interface Rehearsable {
  readonly ok: boolean;
  /** vhosts with queues */
  readonly vhosts?: number;
  /** the first consumer lint assumes (its queue), else the first queue */
  readonly target?: string;
}

function rehearsable(file: string): Rehearsable {
  const r = loadDocumentVhosts(readFileSync(path.join(DIR, file), 'utf8'), { name: file });
  if (!r.ok) return { ok: false };
  const docs = r.docs.filter((d) => d.design.topology.queues.length > 0);
  if (docs.length === 0) return { ok: false };
  for (const d of docs) {
    const first = assumedConsumers(d.design.topology).consumers[0];
    if (first) return { ok: true, vhosts: r.docs.length, target: first.queue };
  }
  return { ok: true, vhosts: r.docs.length, target: docs[0]!.design.topology.queues[0]!.name };
}

type Report = { messages: number; copies: number; outcomes: Record<string, number> };
const reports = (out: string): Report[] => {
  const j = JSON.parse(out) as Report | { vhosts: { report: Report }[] };
  return 'vhosts' in j ? j.vhosts.map((v) => v.report) : [j];
};

describe('rehearse on every corpus file', () => {
  it.each(FILES)('%s', { timeout: 120_000 }, async (file) => {
    const want = rehearsable(file);
    const base = ['rehearse', file, '--rate', '20', '--duration', '30s', '--json'];
    const calm = await runCliCaptured(DIR, base);
    expect(calm.err, file).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
    if (!want.ok) {
      // refused by the file reader (exit 1, its reason) or nothing to rehearse (exit 2)
      expect([1, 2], `${file}: ${calm.err}`).toContain(calm.code);
      expect(calm.err.trim().length).toBeGreaterThan(0);
      return;
    }
    expect(calm.code, `${file}: ${calm.err}`).toBe(0);
    // a whole-broker file is rehearsed per vhost, and says so
    if ((want.vhosts ?? 1) > 1) expect(calm.err).toMatch(/vhosts \(.*\): each rehearsed on its own/);
    for (const r of reports(calm.out)) {
      const o = r.outcomes;
      expect(o.acked! + o.parked! + o.dropped! + o.expired! + o.inFlight!, file).toBe(r.messages);
      expect(r.copies, file).toBeGreaterThanOrEqual(r.messages);
    }
    const hit = await runCliCaptured(DIR, [...base, '--consumer-outage', `${want.target}@5s+10s`]);
    expect(hit.code, `${file} --consumer-outage ${want.target}: ${hit.err}`).toBe(0);
    expect(reports(hit.out).length).toBeGreaterThanOrEqual(1);
  });
});
