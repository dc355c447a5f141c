/**
 * Findings grouped the way every report shows them (the CLI's lint text, the web's Lint tab): the
 * findings of one rule at one severity, in the order the rules first appear. Up to GROUP_AFTER of them
 * are shown one by one; more are one group (a count, the first message and fix, the objects), so a
 * file of 1,000 queues reads as a page, not the same finding 1,000 times.
 */
import { nameList } from '../text/nameList.js';

/** Up to this many findings of one rule are shown one by one; more are grouped. */
export const GROUP_AFTER = 3;
/** Objects named in a group before "and N more". */
export const SHOWN_OBJECTS = 8;

export interface GroupableFinding {
  readonly id: string;
  readonly severity: string;
  readonly objects: readonly string[];
}

export type FindingGroup<F extends GroupableFinding> =
  | { readonly kind: 'single'; readonly finding: F }
  | { readonly kind: 'group'; readonly findings: readonly F[]; readonly first: F; readonly objects: readonly string[] };

export function groupFindings<F extends GroupableFinding>(findings: readonly F[]): FindingGroup<F>[] {
  const byRule = new Map<string, F[]>();
  for (const f of findings) {
    const k = `${f.severity}\u0000${f.id}`;
    const g = byRule.get(k);
    if (g) g.push(f);
    else byRule.set(k, [f]);
  }
  const out: FindingGroup<F>[] = [];
  for (const list of byRule.values()) {
    if (list.length <= GROUP_AFTER) for (const f of list) out.push({ kind: 'single', finding: f });
    else
      out.push({
        kind: 'group',
        findings: list,
        first: list[0]!,
        objects: [...new Set(list.flatMap((x) => x.objects))],
      });
  }
  return out;
}

/** "a, b, c, ... and 12 more" */
export function objectList(objects: readonly string[], shown = SHOWN_OBJECTS): string {
  return nameList(objects, shown);
}
