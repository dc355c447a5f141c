/**
 * The application-configuration corpus (README.md beside this file): each real file read by
 * import-app gives the attempts, waits and final fate its expectations state (the simulator runs
 * the design read), declares the queues its framework declares, and raises the interaction
 * findings it has (and no other) on a 3.10 and a 4.x broker.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { appJourneys, importAppConfig } from '@retry-studio/topology-core/appconfig';
import { lintDesign } from '@retry-studio/topology-core/lint';
import { parseDesign } from '@retry-studio/topology-core/model';
import { runCliCaptured } from '../cliHarness.js';
import { INTERACTION_RULES } from '../commands/importApp.js';
import { APP_EXPECTED } from './expectations.js';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const FILES = readdirSync(DIR)
  .filter((d) => statSync(path.join(DIR, d)).isDirectory())
  .flatMap((d) => readdirSync(path.join(DIR, d)).map((f) => `${d}/${f}`))
  .sort();

const read = (f: string) => ({ name: f, text: readFileSync(path.join(DIR, f), 'utf8') });

function endingOf(e: ReturnType<typeof appJourneys>[number]['endsIn']): string {
  return e.kind === 'queue' ? `queue:${e.queue}` : e.kind;
}

describe('the application-configuration corpus', () => {
  it('has expectations and a README source line for every file, and every framework', () => {
    const readme = readFileSync(path.join(DIR, 'README.md'), 'utf8');
    expect(FILES.sort()).toEqual(Object.keys(APP_EXPECTED).sort());
    for (const f of FILES) expect(readme, `${f} is not in README.md`).toContain(f);
    const perFramework = new Map<string, number>();
    for (const e of Object.values(APP_EXPECTED))
      perFramework.set(e.framework, (perFramework.get(e.framework) ?? 0) + 1);
    expect([...perFramework.keys()].sort()).toEqual([
      'celery',
      'masstransit',
      'nestjs-rabbitmq',
      'nservicebus',
      'rascal',
      'spring-amqp',
      'spring-boot',
      'spring-cloud-stream',
    ]);
    for (const [fw, n] of perFramework) expect(n, `${fw}: at least four real files`).toBeGreaterThanOrEqual(4);
  });

  it.each(FILES)('%s: attempts, waits, final fate and declared queues', (file) => {
    const want = APP_EXPECTED[file]!;
    const app = importAppConfig([read(file)]);
    expect(app.frameworks).toEqual([want.framework]);
    const queues = app.design.topology.queues.map((q) => q.name).sort();
    if (typeof want.queues === 'number') expect(queues.length).toBe(want.queues);
    else expect(queues).toEqual([...want.queues].sort());
    const journeys = appJourneys(app.design);
    expect(journeys.map((j) => j.consumer).sort()).toEqual(want.consumers.map((c) => c.id).sort());
    for (const c of want.consumers) {
      const j = journeys.find((x) => x.consumer === c.id)!;
      expect(j.queue).toBe(c.queue);
      expect(endingOf(j.endsIn)).toBe(c.ends);
      if (c.ends === 'cycling') expect(j.attempts).toBeGreaterThan(100);
      else {
        expect(j.attempts).toBe(c.attempts);
        expect(j.delaysMs).toEqual(c.delaysMs);
      }
      // every consumer says where it came from
      const s = app.design.sources?.[`consumer:${c.id}`];
      expect(s?.file).toBe(file);
      expect(s!.line).toBeGreaterThanOrEqual(1);
    }
    for (const n of want.notes ?? []) expect(app.notes.map((x) => x.text).join('\n')).toContain(n);
  });

  it.each(FILES)('%s: the interaction findings, each at a line of the file', (file) => {
    const want = APP_EXPECTED[file]!;
    for (const profile of ['3.10', '4.x'] as const) {
      const app = importAppConfig([read(file)], { profile });
      const found = lintDesign(app.design).filter((f) => INTERACTION_RULES.has(f.id));
      expect([...new Set(found.map((f) => f.id))].sort(), `${file} on ${profile}`).toEqual(
        [...want.findings[profile]].sort(),
      );
      for (const f of found) {
        expect(f.at?.file).toBe(file);
        expect(f.at!.line).toBeGreaterThanOrEqual(1);
        expect(f.at!.line).toBeLessThanOrEqual(read(file).text.split('\n').length);
      }
    }
  });

  it('import-app writes a valid design for every file (exit 0) and lint takes the file directly', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'rs-appcorpus-'));
    try {
      for (const f of FILES) {
        const r = await runCliCaptured(DIR, ['import-app', f, '--out', path.join(tmp, 'd.json')]);
        expect(r.code, `${f}: ${r.err}`).toBe(0);
        expect(parseDesign(JSON.parse(readFileSync(path.join(tmp, 'd.json'), 'utf8'))).ok).toBe(true);
        const lint = await runCliCaptured(DIR, ['lint', f, '--json']);
        expect([0, 1]).toContain(lint.code);
        expect(JSON.parse(lint.out).kind).toBe('app-config');
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});
