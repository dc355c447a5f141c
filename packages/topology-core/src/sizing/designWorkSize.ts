/**
 * The size of a check over a whole design (lint, the upgrade check, an import), before it runs:
 * it holds and walks every object of the design, so its size is their count.
 */
import type { Design } from '../model/design.js';
import { UNIT_COSTS } from './unitCosts.js';
import { workSize, type WorkKind, type WorkSize } from './workSize.js';

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

export function designWorkSize(kind: Extract<WorkKind, 'lint' | 'upgrade-check' | 'import'>, design: Design): WorkSize {
  const objects = designObjects(design);
  return workSize(kind, [
    {
      driver: {
        field: 'design',
        option: 'FILE',
        what: `a design of ${objects.toLocaleString('en-US')} objects (queues, exchanges, bindings, policies, consumers, publishers)`,
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
