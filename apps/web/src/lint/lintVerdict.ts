/**
 * What the Inspect tab's summary says of the lint result the Lint tab lists (one result, read
 * by both): every finding counted, info included, so "lint finds nothing" is said only when the
 * Lint badge is 0.
 */
import type { Finding } from './useLint';

export interface LintVerdict {
  readonly tone: 'error' | 'warning' | 'info' | 'pending' | 'clean';
  readonly text: string;
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `pending`: lint of a big design still runs off the page (nothing is said clean before it answers) */
export function lintVerdict(findings: readonly Pick<Finding, 'severity'>[], pending = false): LintVerdict {
  const n = (s: Finding['severity']) => findings.filter((f) => f.severity === s).length;
  const [errors, warnings, infos] = [n('error'), n('warning'), n('info')];
  const others = [warnings ? count(warnings, 'warning') : '', infos ? count(infos, 'note') : '']
    .filter(Boolean)
    .join(' and ');
  if (errors > 0)
    return {
      tone: 'error',
      text: `Valid definitions, but lint finds ${count(errors, 'error')}${others ? ` and ${others}` : ''}: see the Lint tab.`,
    };
  if (warnings > 0) return { tone: 'warning', text: `The design is valid; lint finds ${others}: see the Lint tab.` };
  if (infos > 0) return { tone: 'info', text: `The design is valid; lint has ${others} (info): see the Lint tab.` };
  if (pending) return { tone: 'pending', text: 'The design is valid; lint is still reading it.' };
  return { tone: 'clean', text: 'The design is valid and lint finds nothing.' };
}
