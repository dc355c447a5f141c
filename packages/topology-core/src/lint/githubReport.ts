/**
 * Lint findings as GitHub Actions workflow commands (`::error file=F,line=L,col=C,title=T::M`):
 * annotations on the pull request, at the line of the object each finding concerns.
 */
import type { LintSeverity } from './types.js';
import { findingLocation, type LintReportInput } from './sarifReport.js';

const COMMAND: Record<LintSeverity, 'error' | 'warning' | 'notice'> = {
  error: 'error',
  warning: 'warning',
  info: 'notice',
};

// escaping as GitHub's toolkit does (@actions/core's command.ts)
const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function lintGithub(input: Omit<LintReportInput, 'toolVersion'>): string {
  return input.findings
    .map((f) => {
      const at = f.at ? { line: f.at.line, column: 1 } : findingLocation(f, input.locate);
      const props = [
        `file=${escapeProperty(f.at?.file ?? input.file)}`,
        ...(at ? [`line=${at.line}`, `col=${at.column}`] : []),
        `title=${escapeProperty(`${f.id} (${f.objects.join(', ')})`)}`,
      ];
      return `::${COMMAND[f.severity]} ${props.join(',')}::${escapeData(`${f.vhost !== undefined ? `vhost ${JSON.stringify(f.vhost)}: ` : ''}${f.message}\nFix: ${f.fix}`)}\n`;
    })
    .join('');
}
