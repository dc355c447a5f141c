import { describe, expect, it } from 'vitest';
import { objectLocator } from '../io/objectLocations.js';
import { lintGithub } from './githubReport.js';
import type { LintFinding } from './types.js';

describe('lintGithub', () => {
  it('GitHub annotations point at the first object the file holds, escaped', () => {
    const text = JSON.stringify({ queues: [{ name: 'q,1', vhost: '/' }] }, null, 2);
    const f: LintFinding = {
      id: 'x',
      severity: 'warning',
      message: 'two\nlines 100%',
      objects: ['consumer:scaffolded', 'queue:q,1'],
      fix: 'do y',
    };
    const out = lintGithub({ file: 'defs/a b.json', findings: [f], locate: objectLocator(text) });
    expect(out).toBe(
      '::warning file=defs/a b.json,line=3,col=5,title=x (consumer%3Ascaffolded%2C queue%3Aq%2C1)::two%0Alines 100%25%0AFix: do y\n',
    );
  });
});
