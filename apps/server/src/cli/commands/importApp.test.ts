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

  it('--env and --spring-profile: the environment and the profile file beside it are read, each value says where it came from', async () => {
    write(
      'application.yml',
      'spring.rabbitmq.listener.simple.retry:\n  enabled: true\n  initial-interval: ${FIRST_WAIT:1s}\n',
    );
    write('application-prod.yml', 'spring.rabbitmq.listener.simple.retry.multiplier: 3\n');
    write(
      'prod.env',
      '# the production environment\nSPRING_RABBITMQ_LISTENER_SIMPLE_RETRY_MAX_ATTEMPTS=4\nFIRST_WAIT=2s\n',
    );
    const r = await runCliCaptured(dir, [
      'import-app',
      'application.yml',
      '--env',
      'prod.env',
      '--spring-profile',
      'prod',
    ]);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/4 attempts, waits 2 s, 6 s, 10 s/);
    expect(r.err).toMatch(
      /max-attempts = 4 {2}\(prod\.env:2; env SPRING_RABBITMQ_LISTENER_SIMPLE_RETRY_MAX_ATTEMPTS\)/,
    );
    expect(r.err).toMatch(/multiplier = 3 {2}\(application-prod\.yml:1\)/);
    expect(r.err).toMatch(/environment read from: prod\.env/);
    const without = await runCliCaptured(dir, ['import-app', 'application.yml']);
    expect(without.err).toMatch(/3 attempts, waits 1 s, 1 s/);
  });

  it("a file past the readers' limit is refused with exit 2 and the limit named", async () => {
    write('huge.yml', 'k: v\n'.repeat(600_000));
    const r = await runCliCaptured(dir, ['import-app', 'huge.yml']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/huge\.yml: it is 2\.9 MB; import-app reads application configuration files of up to 2 MB/);
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
