// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { lintVerdict } from './lintVerdict';

const f = (...s: ('error' | 'warning' | 'info')[]) => s.map((severity) => ({ severity }));

describe("the Inspect tab's lint verdict", () => {
  it('says "finds nothing" only when there is nothing (the badge is 0)', () => {
    expect(lintVerdict([])).toEqual({ tone: 'clean', text: 'The design is valid and lint finds nothing.' });
    // one info finding: the badge says 1, so does the summary
    expect(lintVerdict(f('info'))).toEqual({
      tone: 'info',
      text: 'The design is valid; lint has 1 note (info): see the Lint tab.',
    });
  });
  it('counts every severity, the worst first', () => {
    expect(lintVerdict(f('warning', 'info', 'info')).text).toBe(
      'The design is valid; lint finds 1 warning and 2 notes: see the Lint tab.',
    );
    expect(lintVerdict(f('error', 'error', 'warning')).text).toBe(
      'Valid definitions, but lint finds 2 errors and 1 warning: see the Lint tab.',
    );
  });
  it('says nothing valid or clean while a big design is still read off the page', () => {
    expect(lintVerdict([], true)).toEqual({
      tone: 'pending',
      text: 'Validation and lint are still reading the design.',
    });
    // the last version's findings stay listed meanwhile: the verdict waits for this one
    expect(lintVerdict(f('warning'), true).tone).toBe('pending');
  });
});
