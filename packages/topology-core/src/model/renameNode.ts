/**
 * Renaming a queue or an exchange: the object and every reference to it (see references.ts),
 * refused when the new name is invalid or already taken.
 */
import type { Design } from './design.js';
import { checkEntityName } from './names.js';
import { designReferences, mapReferences, type ReferenceTarget } from './references.js';
import type { ValidationIssue } from './validateResult.js';

export type RenameResult =
  { readonly ok: true; readonly design: Design } | { readonly ok: false; readonly error: ValidationIssue };

export function renameNode(design: Design, target: ReferenceTarget, from: string, to: string): RenameResult {
  const declarations = designReferences(design).filter((r) => r.kind === 'declaration' && r.target === target);
  const own = declarations.find((r) => r.name === from);
  const list = target === 'queue' ? 'topology.queues' : 'topology.exchanges';
  if (!own)
    return {
      ok: false,
      error: { path: list, code: 'rename-unknown', message: `there is no ${target} named "${from}" to rename` },
    };
  if (from === to) return { ok: true, design };
  const problem = checkEntityName(to, target);
  if (problem)
    return {
      ok: false,
      error: {
        path: own.path,
        code: problem.code,
        message: `cannot rename ${target} "${from}" to "${to}": ${problem.message}`,
      },
    };
  const taken = declarations.find((r) => r.name === to);
  if (taken)
    return {
      ok: false,
      error: {
        path: taken.path,
        code: 'duplicate-name',
        message: `cannot rename ${target} "${from}" to "${to}": a ${target} with that name exists`,
      },
    };
  return { ok: true, design: mapReferences(design, (r) => (r.target === target && r.name === from ? to : r.name)) };
}
