/**
 * lint's text output, made to scale: the findings of one rule are grouped (a count, the first
 * few objects, one message and fix), and so are validation warnings of one kind, so a file of
 * 1,000 queues prints a page, not the same line 1,000 times. `--json` keeps every finding.
 */
import {
  GROUP_AFTER,
  SHOWN_OBJECTS,
  groupFindings,
  objectList,
  type LintFinding,
} from '@retry-studio/topology-core/lint';
import { formatIssues, type ValidationIssue } from '@retry-studio/topology-core/model';

export { GROUP_AFTER, SHOWN_OBJECTS };

export interface LintSection {
  /** the vhost the findings are about (named when the file has several) */
  readonly vhost?: string;
  readonly findings: readonly LintFinding[];
  readonly warnings: readonly ValidationIssue[];
}

/** A message past this many characters is cut (one finding can name every queue of a dead-letter exchange). */
export const MAX_MESSAGE = 600;

const cutMessage = (m: string): string =>
  m.length > MAX_MESSAGE
    ? `${m.slice(0, MAX_MESSAGE)}… (${m.length - MAX_MESSAGE} more characters: --json has it whole)`
    : m;

/** The objects line; none when the finding names no object (a policy no queue of the file matches): never an empty list. */
function objectsLine(objects: readonly string[], count: string): string {
  return objects.length === 0 ? '' : `          objects${count}: ${objectList(objects)}\n`;
}

function formatFinding(f: LintFinding, where = ''): string {
  const count = f.objects.length > SHOWN_OBJECTS ? ` (${f.objects.length})` : '';
  return `${f.severity.padEnd(7)} ${where}${f.id}: ${cutMessage(f.message)}\n${objectsLine(f.objects, count)}          fix: ${f.fix}\n`;
}

function formatGroup(list: readonly LintFinding[], objects: readonly string[], where = ''): string {
  const f = list[0]!;
  return (
    `${f.severity.padEnd(7)} ${where}${f.id}: ${list.length} findings (--json lists every one); the first: ${cutMessage(f.message)}\n` +
    `${objectsLine(objects, ` (${objects.length})`)}          fix: ${f.fix}\n`
  );
}

/** Findings grouped by rule and severity, in the order the rules first appear; `vhost` names it on each line. */
export function formatFindings(findings: readonly LintFinding[], vhost?: string): string {
  const where = vhost !== undefined ? `[vhost ${JSON.stringify(vhost)}] ` : '';
  let out = '';
  for (const g of groupFindings(findings))
    out += g.kind === 'single' ? formatFinding(g.finding, where) : formatGroup(g.findings, g.objects, where);
  return out;
}

/** Validation warnings grouped by code: more than a few of one code print the first and a count. */
export function formatWarnings(warnings: readonly ValidationIssue[]): string {
  const byCode = new Map<string, ValidationIssue[]>();
  for (const w of warnings) byCode.set(w.code, [...(byCode.get(w.code) ?? []), w]);
  const lines: string[] = [];
  for (const list of byCode.values()) {
    if (list.length <= GROUP_AFTER) lines.push(formatIssues(list));
    else
      lines.push(
        `${formatIssues(list.slice(0, 1))} (and ${list.length - 1} more ${list[0]!.code} warnings: --json lists every one)`,
      );
  }
  return lines.join('\n').replace(/^/gm, '  ');
}

export function formatCounts(findings: readonly LintFinding[]): string {
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warn = findings.filter((f) => f.severity === 'warning').length;
  return findings.length === 0
    ? 'no findings'
    : `${errors} error(s), ${warn} warning(s), ${findings.length - errors - warn} info`;
}

/** The whole text report: per vhost when there are several, then the totals. */
export function formatLintText(file: string, kind: string, sections: readonly LintSection[]): string {
  const several = sections.length > 1;
  let out = '';
  for (const s of sections) {
    if (several) out += `== vhost ${JSON.stringify(s.vhost)}\n`;
    if (s.warnings.length > 0) out += `validation warnings:\n${formatWarnings(s.warnings)}\n`;
    if (kind === 'definitions' && (!several || s === sections[0]))
      out += `${file}: RabbitMQ definitions (no consumers: each queue with a dead-letter route and no TTL is assumed to have a consumer that rejects what it fails on, as import-broker scaffolds)\n`;
    out += formatFindings(s.findings, several ? s.vhost : undefined);
    if (several) out += `vhost ${JSON.stringify(s.vhost)}: ${formatCounts(s.findings)}\n`;
  }
  const all = sections.flatMap((s) => s.findings);
  out += several ? `${sections.length} vhosts: ${formatCounts(all)}\n` : `${formatCounts(all)}\n`;
  return out;
}
