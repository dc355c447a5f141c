/**
 * The size of a check over a whole design (lint, the upgrade check, an import), before it runs:
 * it holds and walks every object of the design, so its size is their count.
 */
import type { Design } from '../model/design.js';
import { UNIT_COSTS } from './unitCosts.js';
import { workSize, type WorkKind, type WorkSize } from './workSize.js';
import { formatCount } from '../text/formatCount.js';

export function designObjects(design: Design): number {
  const t = design.topology;
  return (
    t.queues.length +
    t.exchanges.length +
    t.bindings.length +
    (t.policies?.length ?? 0) +
    design.consumers.length +
    design.publishers.length
  );
}

type CheckKind = Extract<WorkKind, 'lint' | 'upgrade-check' | 'import'>;

export function designWorkSize(kind: CheckKind, design: Design): WorkSize {
  return objectsWorkSize(kind, designObjects(design), { field: 'design', option: 'FILE' });
}

/** the same for objects not yet read as a design (an import: a vhost's definitions), blamed on `where` */
export function objectsWorkSize(
  kind: CheckKind,
  objects: number,
  where: { readonly field: string; readonly option: string },
): WorkSize {
  return workSize(kind, [
    {
      driver: {
        ...where,
        what: `a design of ${formatCount(objects)} objects (queues, exchanges, bindings, policies, consumers, publishers)`,
        fix: "check a smaller part of it (one vhost, one team's prefix) at a time",
      },
      count: objects,
      unit: 'objects',
      bytes: UNIT_COSTS.baseBytes + objects * UNIT_COSTS.bytesPerObject,
      steps: objects * UNIT_COSTS.stepsPerObject,
      answerBytes: UNIT_COSTS.baseAnswerBytes + objects * 200,
    },
  ]);
}
