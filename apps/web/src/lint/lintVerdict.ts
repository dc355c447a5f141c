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

/**
 * `pending`: a big design's validation and lint still run off the page (offpage/): nothing is said valid or
 * clean before they answer (the findings shown meanwhile are the last version's)
 */
export function lintVerdict(findings: readonly Pick<Finding, 'severity'>[], pending = false): LintVerdict {
  if (pending) return { tone: 'pending', text: 'Validation and lint are still reading the design.' };
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
  return { tone: 'clean', text: 'The design is valid and lint finds nothing.' };
}
