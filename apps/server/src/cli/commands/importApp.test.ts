import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../cliHarness.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'rs-import-app-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => writeFileSync(path.join(dir, name), text);

describe('retry-studio import-app', () => {
  it('bad input: exit 2, the file and line named, nothing written', async () => {
    write('broken.yml', 'spring:\n  rabbitmq:\n   listener: [\n');
    write('plain.yml', 'spring:\n  rabbitmq:\n    host: localhost\n');
    write('notes.txt', 'hello');
    for (const [file, want] of [
      ['broken.yml', /broken\.yml:4:1: YAML syntax error/],
      ['plain.yml', /plain\.yml: no RabbitMQ listener or binding/],
      ['notes.txt', /notes\.txt: unknown kind of file/],
    ] as const) {
      const r = await runCliCaptured(dir, ['import-app', file, '--out', 'out.json']);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(want);
      expect(existsSync(path.join(dir, 'out.json'))).toBe(false);
    }
    const bad = await runCliCaptured(dir, ['import-app', 'plain.yml', '--framework', 'kafka']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--framework must be one of/);
  });

  it('writes the design with --out and prints what a failing message does and the findings', async () => {
    write('application.yml', 'spring.rabbitmq.listener.simple.retry:\n  enabled: false\n  max-attempts: 3\n');
    const r = await runCliCaptured(dir, ['import-app', 'application.yml', '--out', 'design.json']);
    expect(r.code).toBe(0);
    const design = JSON.parse(readFileSync(path.join(dir, 'design.json'), 'utf8'));
    expect(design.sources['consumer:app-listener']).toMatchObject({
      framework: 'spring-boot',
      file: 'application.yml',
      line: 2,
    });
    expect(r.out).toMatch(/still moving when the run's event bound stopped it .*cycling in app\.queue; it never ends/);
    expect(r.out).toMatch(/error requeue-rejected-forever at application\.yml:2/);
    expect(r.out).toMatch(/warning framework-key-ignored at application\.yml:3/);
  });

  it('lint --format sarif points a finding at the configuration line', async () => {
    write('boot.yml', 'spring.rabbitmq.listener.simple.retry:\n  enabled: false\n');
    const r = await runCliCaptured(dir, ['lint', 'boot.yml', '--format', 'sarif']);
    const results = JSON.parse(r.out).runs[0].results as {
      ruleId: string;
      locations: { physicalLocation: { region: { startLine: number } } }[];
    }[];
    const f = results.find((x) => x.ruleId === 'requeue-rejected-forever');
    expect(f?.locations[0]!.physicalLocation.region.startLine).toBe(2);
  });
});
