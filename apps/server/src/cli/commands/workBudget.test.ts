/**
 * A command sizes its work before it starts: a rehearsal too big for this machine is refused with
 * exit 2 naming the option (nothing allocated), and the tuner's million-hour run answers with
 * bounded per-second windows, said on stderr.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { runCliCaptured } from '../cliHarness.js';

let dir = '';
const cli = (...argv: string[]) => runCliCaptured(dir, argv);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'rs-budget-'));
  const t = buildTemplate('dlx-ttl-wait-queue', { delayMs: 2000, maxRetries: 3 });
  if (!t.ok) throw new Error('template');
  const d = t.template.design;
  // a length limit: every message is simulated one by one
  const queues = d.topology.queues.map((q, i) =>
    i === 0 ? { ...q, arguments: { ...q.arguments, 'x-max-length': 1_000_000 } } : q,
  );
  await writeFile(path.join(dir, 'capped.json'), JSON.stringify({ ...d, topology: { ...d.topology, queues } }));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('a command over its memory budget is refused before it allocates', () => {
  it('rehearse: 1e9 messages under a length limit -> exit 2 naming --duration', async () => {
    const r = await cli('rehearse', 'capped.json', '--rate', '10000', '--duration', '28h');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^error: --duration: 1,00[78],[0-9]{3},[0-9]{3} messages simulated one by one \(a length limit on orders\.q: .*\): about .* of memory \(estimated\), over the .* this command may take; about [0-9,]+ messages fit; lower the rate or rehearse a shorter time/,
    );
    expect(r.out).toBe('');
  });

  it('tune --rate 100 --duration 1000000h: an answer, per-second figures over wider windows (said so)', async () => {
    const r = await cli('tune', '--rate', '100', '--duration', '1000000h', '--json');
    expect([0, 1]).toContain(r.code);
    expect(r.err).toMatch(/note: per-second figures are averages over \d+ s windows/);
    expect(JSON.parse(r.out)).toHaveProperty('feasible');
  }, 120_000);
});
