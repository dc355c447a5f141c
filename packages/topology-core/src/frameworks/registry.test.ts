/** Every framework is one registered object, whole: in the design format's list, with cited defaults, real rule ids and dated keys. */
import { describe, expect, it } from 'vitest';
import { APP_FRAMEWORKS } from '../model/source.js';
import { LINT_RULE_IDS } from '../lint/rules.js';
import { FRAMEWORKS, fileKind, frameworkFix, isAppConfigFile } from './registry.js';

describe('the framework registry', () => {
  it('registers exactly the frameworks the design format names, each once', () => {
    expect(FRAMEWORKS.map((f) => f.id).sort()).toEqual([...APP_FRAMEWORKS].sort());
  });

  it('each framework: defaults with a source, fixes for rules that exist, keys with the version that introduced them', () => {
    for (const f of FRAMEWORKS) {
      expect(f.fileKinds.length, f.id).toBeGreaterThan(0);
      for (const [k, d] of Object.entries(f.defaults)) expect(d.cite, `${f.id} default ${k}`).toMatch(/^https:\/\//);
      for (const rule of Object.keys(f.fixes)) expect(LINT_RULE_IDS, `${f.id} fix for ${rule}`).toContain(rule);
      for (const e of f.keys?.entries ?? []) expect(e.since, `${f.id} key ${e.key}`).toMatch(/^\d+\.\d+$/);
    }
    expect(frameworkFix('spring-boot', 'requeue-rejected-forever')).toMatch(/default-requeue-rejected: false/);
    expect(frameworkFix('celery', 'no-such-rule')).toBeUndefined();
  });

  it('tells a Rascal JSON from a definitions export, and knows the code kinds', () => {
    expect(isAppConfigFile('rascal.json', '{ "vhosts": { "/": { "queues": ["q"] } } }')).toBe(true);
    expect(isAppConfigFile('defs.json', '{ "rabbit_version": "3.13.0", "vhosts": [{ "name": "/" }] }')).toBe(false);
    expect(isAppConfigFile('design.json')).toBe(false);
    expect(['a.ts', 'b.mjs', 'C.kt', 'd.cs', 'e.py', 'application.yml', '.env'].map(fileKind)).toEqual([
      'javascript',
      'javascript',
      'java',
      'csharp',
      'python',
      'config',
      'config',
    ]);
  });
});
