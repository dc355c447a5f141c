/**
 * Findings on nodes read from an application's configuration (design.sources) point at the
 * configuration line, and say the fix in the framework's own terms (the framework object's
 * `fixes`) where a rule's generic fix would send the user to the broker side only.
 */
import type { Design } from '../model/design.js';
import type { NodeSource } from '../model/source.js';
import { frameworkFix } from '../frameworks/traits.js';
import type { LintFinding } from './types.js';

/** The source of the first node of a finding that has one. */
function sourceOf(design: Design, f: LintFinding): NodeSource | undefined {
  for (const o of f.objects) {
    const s = design.sources?.[o];
    if (s) return s;
  }
  return undefined;
}

/** A generic finding the interaction rule says better, in the framework's terms, for the same consumer. */
const SAID_BETTER: Readonly<Record<string, string>> = { 'requeue-without-limit': 'requeue-rejected-forever' };

export function withAppSources(design: Design, findings: readonly LintFinding[]): LintFinding[] {
  if (!design.sources) return [...findings];
  const said = new Set(findings.map((f) => `${f.id}|${f.objects[0]}`));
  return findings
    .filter((f) => !(SAID_BETTER[f.id] && said.has(`${SAID_BETTER[f.id]}|${f.objects[0]}`)))
    .map((f) => {
      const s = sourceOf(design, f);
      if (!s) return f;
      // a rule that reads app sources places and words its own finding; a broker-side rule gets the framework's words first
      const fix = f.at ? undefined : frameworkFix(s.framework, f.id);
      return {
        ...f,
        ...(f.at ? {} : { at: { file: s.file, line: s.line } }),
        ...(fix ? { fix: `${fix} (${f.fix})` } : {}),
      };
    });
}
