/**
 * Lint findings as a SARIF 2.1.0 log (code scanning reads it): each rule with its descriptions,
 * default level and help; each finding with its level, message and where the object it concerns
 * is written in the linted file (line and column read from the file, objectLocations.ts).
 */
import type { LintFinding, LintSeverity } from './types.js';
import { RULES } from './rules.js';
import { ruleDoc } from './ruleDocs.js';
import type { ObjectLocation } from '../io/objectLocations.js';

export interface LintReportInput {
  /** the linted file as the user named it (relative paths stay relative: the repository's) */
  readonly file: string;
  /** the findings; in a whole-broker file each names its vhost */
  readonly findings: readonly (LintFinding & { readonly vhost?: string })[];
  readonly toolVersion: string;
  /** where an object (node id) of a vhost is written in the file */
  readonly locate: (id: string, vhost?: string) => ObjectLocation | undefined;
}

const SARIF_LEVEL: Record<LintSeverity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

/** A file path as a URI reference: forward slashes, each segment percent-encoded. */
export const fileUri = (file: string): string =>
  file
    .replace(/\\/g, '/')
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');

/** The first object of a finding that the file holds (a finding may name a scaffolded consumer first). */
export function findingLocation(
  f: LintReportInput['findings'][number],
  locate: LintReportInput['locate'],
): ObjectLocation | undefined {
  for (const o of f.objects) {
    const l = locate(o, f.vhost);
    if (l) return l;
  }
  return undefined;
}

export function lintSarif(input: LintReportInput): Record<string, unknown> {
  const ruleIds = [...new Set([...RULES.map((r) => r.id), ...input.findings.map((f) => f.id)])];
  const titles = new Map(RULES.map((r) => [r.id, r.title]));
  const uri = fileUri(input.file);
  const rules = ruleIds.map((id) => {
    const title = titles.get(id) ?? id;
    const doc = ruleDoc(id, title);
    return {
      id,
      name: id.replace(/(^|-)([a-z])/g, (_m, _d: string, c: string) => c.toUpperCase()),
      shortDescription: { text: title },
      fullDescription: { text: doc.description },
      defaultConfiguration: { level: SARIF_LEVEL[doc.level] },
      help: { text: doc.help },
    };
  });
  const results = input.findings.map((f) => {
    // a finding read from an application's configuration points at its line in that file
    const at = f.at ? { line: f.at.line, column: 1 } : findingLocation(f, input.locate);
    const fUri = f.at ? fileUri(f.at.file) : uri;
    return {
      ruleId: f.id,
      ruleIndex: ruleIds.indexOf(f.id),
      level: SARIF_LEVEL[f.severity],
      message: {
        text: `${f.vhost !== undefined ? `vhost ${JSON.stringify(f.vhost)}: ` : ''}${f.message} Fix: ${f.fix}`,
      },
      locations: [
        {
          physicalLocation: {
            artifactLocation: f.at && fUri !== uri ? { uri: fUri } : { uri, index: 0 },
            // no object of the finding is written in the file: the file itself
            region: at ? { startLine: at.line, startColumn: at.column } : { startLine: 1, startColumn: 1 },
          },
          logicalLocations: f.objects.map((o) => ({ fullyQualifiedName: o, kind: 'object' })),
        },
      ],
    };
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'retry-studio',
            version: input.toolVersion,
            informationUri: 'https://www.rabbitmq.com/docs/dlx',
            rules,
          },
        },
        artifacts: [{ location: { uri } }],
        results,
      },
    ],
  };
}
