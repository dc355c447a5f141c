/**
 * Edits the designer refused to store: a field typed to a value validation rejects (a TTL of -5)
 * stays in its field, marked, and is listed in Lint by object name, while the design keeps its
 * last valid value (what the canvas draws and the simulator runs). Fixing the field stores it and
 * drops the entry; opening another design drops them all.
 */
import { create } from 'zustand';
import {
  describeIssue,
  issueSubject,
  validateDesign,
  type Design,
  type ValidationIssue,
} from '@retry-studio/topology-core/model';

export interface HeldEdit {
  /** the design it was typed into (entries of another design are not shown) */
  docId: string;
  /** the object's node id, e.g. `queue:wait.q` */
  node: string;
  /** what was edited (the inspector's coalescing key, e.g. `q:x-message-ttl`) */
  field: string;
  /** the issue at its path in the design, message naming the object (`wait.q: x-message-ttl must be ...`) */
  issues: ValidationIssue[];
}

interface HeldEdits {
  held: HeldEdit[];
}

export const useHeldEdits = create<HeldEdits>()(() => ({ held: [] }));

const key = (h: Pick<HeldEdit, 'node' | 'field'>) => `${h.node}\u241f${h.field}`;
const sameIssue = (a: ValidationIssue, b: ValidationIssue) => a.path === b.path && a.message === b.message;

/**
 * The errors `next` has under `objectPath` that `current` does not: what this edit would break.
 * Empty: the edit may be stored.
 */
export function newErrors(current: Design, next: Design, objectPath: string): ValidationIssue[] {
  const under = (i: ValidationIssue) =>
    i.path === objectPath || i.path.startsWith(`${objectPath}.`) || i.path.startsWith(`${objectPath}[`);
  const before = validateDesign(current).errors.filter(under);
  return validateDesign(next).errors.filter((i) => under(i) && !before.some((b) => sameIssue(b, i)));
}

/**
 * Stores an edit of one object's field, or holds it when it adds a validation error there.
 * Returns whether it was stored.
 */
export function storeOrHold(
  s: { design: Design; docId: string; setDesign: (d: Design, o?: { coalesce?: string }) => void },
  next: Design,
  at: { node: string; objectPath: string; field: string },
): boolean {
  const errors = newErrors(s.design, next, at.objectPath);
  const rest = useHeldEdits.getState().held.filter((h) => key(h) !== key(at));
  if (errors.length) {
    const issues = errors.map((e) => ({ ...e, message: describeIssue(next, e) }));
    useHeldEdits.setState({ held: [...rest, { docId: s.docId, node: at.node, field: at.field, issues }] });
    return false;
  }
  useHeldEdits.setState({ held: rest });
  s.setDesign(next, { coalesce: at.field });
  return true;
}

/** The held edits of the open design (a renamed object's entries go with its old name). */
export function heldFor(held: readonly HeldEdit[], docId: string, design: Design): HeldEdit[] {
  return held.filter((h) => h.docId === docId && h.issues.some((i) => issueSubject(design, i.path)?.node === h.node));
}

export function dropHeld(docId?: string): void {
  useHeldEdits.setState((s) => ({ held: docId === undefined ? [] : s.held.filter((h) => h.docId !== docId) }));
}
