/**
 * Inputs as issue 42 found them: a file over the stated limit is refused in words, a deep YAML
 * says it is too deep (never "Maximum call stack size exceeded"), a properties file of many
 * keys and hostile code (unbalanced calls, deep brackets) are read in one pass. Sizes here are
 * small enough for a test; `pnpm bench:import-app` times the limit-sized ones.
 */
import { describe, expect, it } from 'vitest';
import { AppConfigFailure, type AppFile } from '../frameworks/types.js';
import { importAppConfig } from './importApp.js';
import { MAX_APP_FILE_CHARS } from './appInputs.js';
import { hostileJava, manyKeysProperties, manyKeysYaml } from '../../testing/appConfigFixtures.js';

function failure(run: () => unknown): AppConfigFailure {
  try {
    run();
  } catch (e) {
    if (e instanceof AppConfigFailure) return e;
    throw e;
  }
  throw new Error('no failure');
}

describe('import-app inputs: bounded and linear', () => {
  it('a file over the limit is refused before it is parsed, naming the limit', () => {
    const big: AppFile = { name: 'application.yml', text: 'a: 1\n'.repeat(MAX_APP_FILE_CHARS / 5 + 1) };
    const e = failure(() => importAppConfig([big]));
    expect(e.error.file).toBe('application.yml');
    expect(e.error.message).toMatch(/import-app reads application configuration files of up to 2 MB/);
  });

  it("YAML nested thousands deep says so, with its line, never the parser's stack overflow", () => {
    const deep: AppFile = {
      name: 'application.yml',
      text: `spring:\n  rabbitmq: ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
    };
    const e = failure(() => importAppConfig([deep]));
    expect(e.error.message).toMatch(/nested too deeply/);
    expect(e.error.message).not.toMatch(/call stack/i);
    expect(e.error.line).toBe(2);
  });

  it('many keys: a properties file and a YAML file are read, their listener found among them', () => {
    for (const file of [manyKeysProperties(30_000), manyKeysYaml(3_000)]) {
      const app = importAppConfig([file]);
      expect(app.design.consumers).toHaveLength(1);
    }
  });

  it('a duplicate key in one YAML document is refused as Spring refuses it', () => {
    const dup: AppFile = {
      name: 'application.yml',
      text: 'spring:\n  rabbitmq:\n    host: a\n  rabbitmq:\n    port: 1\n',
    };
    expect(failure(() => importAppConfig([dup])).error).toMatchObject({
      line: 4,
      message: expect.stringMatching(/appears twice/),
    });
  });

  it('hostile Java: thousands of repeated calls are read in one pass; unclosed ones (nesting past 512) are refused in words, with the line', () => {
    const balanced: AppFile = {
      name: 'Many.java',
      text: `class M {\n  Object a = RetryInterceptorBuilder.stateless().maxAttempts(3).build();\n  @RabbitListener(queues = "q") void on(String s) {}\n  void junk() { x${'.maxAttempts(1)'.repeat(20_000)}; }\n}\n`,
    };
    expect(importAppConfig([balanced]).design.consumers).toHaveLength(1);
    const e = failure(() => importAppConfig([hostileJava(20_000)]));
    expect(e.error).toMatchObject({
      file: 'Hostile.java',
      line: 5,
      message: expect.stringMatching(/brackets nested more than 512 deep/),
    });
  });
});
