import { describe, expect, it } from 'vitest';
import type { LintFinding } from '@retry-studio/topology-core/lint';
import type { ValidationIssue } from '@retry-studio/topology-core/model';
import { GROUP_AFTER, MAX_MESSAGE, SHOWN_OBJECTS, formatFindings, formatLintText, formatWarnings } from './lintText.js';

const finding = (i: number, id = 'overflow-drops-silently'): LintFinding => ({
  id,
  severity: 'warning',
  message: `q${i} has a length limit and no DLX`,
  objects: [`queue:q${i}`],
  fix: 'Add a DLX.',
});

describe('lint text output that scales', () => {
  it('prints up to a few findings of a rule one by one', () => {
    const out = formatFindings(Array.from({ length: GROUP_AFTER }, (_, i) => finding(i)));
    expect(out.match(/^warning overflow-drops-silently: q\d/gm)).toHaveLength(GROUP_AFTER);
  });

  it('groups 1,000 findings of one rule: the count, the first message, the first objects, one fix', () => {
    const out = formatFindings([...Array.from({ length: 1000 }, (_, i) => finding(i)), finding(0, 'dlx-missing')]);
    expect(out).toContain(
      'warning overflow-drops-silently: 1000 findings (--json lists every one); the first: q0 has a length limit and no DLX',
    );
    expect(out).toContain(
      'objects (1000): queue:q0, queue:q1, queue:q2, queue:q3, queue:q4, queue:q5, queue:q6, queue:q7, ... and 992 more',
    );
    expect(out.match(/fix: Add a DLX\./g)).toHaveLength(2);
    expect(out).toContain('warning dlx-missing: q0');
    expect(out.length).toBeLessThan(1000);
  });

  it('a finding that names no object (a policy no queue of the file matches) prints no empty objects line, alone or grouped', () => {
    const none = (i: number): LintFinding => ({ ...finding(i, 'policy-key-refused'), severity: 'error', objects: [] });
    for (const out of [
      formatFindings([none(0)]),
      formatFindings(Array.from({ length: GROUP_AFTER + 1 }, (_, i) => none(i))),
    ]) {
      expect(out).not.toMatch(/objects( \(0\))?: *\n/);
      expect(out).toContain('fix: Add a DLX.');
    }
    expect(formatFindings([finding(0)])).toContain('objects: queue:q0');
  });

  it('groups validation warnings of one code', () => {
    const w = (i: number): ValidationIssue => ({
      path: `queues[${i}].arguments.x-foo`,
      code: 'unknown-argument',
      message: 'unknown queue argument "x-foo"',
    });
    const out = formatWarnings(Array.from({ length: 500 }, (_, i) => w(i)));
    expect(out).toBe(
      '  queues[0].arguments.x-foo: unknown queue argument "x-foo" (and 499 more unknown-argument warnings: --json lists every one)',
    );
  });

  it('names each vhost of a whole-broker file, then the totals', () => {
    const out = formatLintText('f.json', 'definitions', [
      { vhost: 'a', findings: [finding(1)], warnings: [] },
      { vhost: 'b', findings: [], warnings: [] },
    ]);
    expect(out).toContain('== vhost "a"');
    expect(out).toContain('vhost "a": 0 error(s), 1 warning(s), 0 info');
    expect(out).toContain('warning [vhost "a"] overflow-drops-silently: q1 has a length limit');
    expect(out).toContain('vhost "b": no findings');
    expect(out.trimEnd().split('\n').at(-1)).toBe('2 vhosts: 0 error(s), 1 warning(s), 0 info');
  });
});

describe('one finding that names many objects', () => {
  it('prints the first objects and a count, and cuts a long message (--json keeps it whole)', () => {
    const objects = Array.from({ length: 900 }, (_, i) => `queue:svc${i}.work` as const);
    const message = `Dead letters from 900 queues go to events: ${objects.join(', ')}`;
    const out = formatFindings([
      { id: 'dead-letter-unroutable', severity: 'warning', message, objects, fix: 'bind them' },
    ]);
    expect(out).toContain(`objects (900): queue:svc0.work, queue:svc1.work`);
    expect(out).toContain(`... and ${900 - SHOWN_OBJECTS} more`);
    expect(out).toContain(`more characters: --json has it whole)`);
    expect(out.length).toBeLessThan(MAX_MESSAGE + 1_000);
  });
});
