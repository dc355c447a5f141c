// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Design } from '@retry-studio/topology-core/model';
import { dlxTtlRetry } from '../fixtures/designs';
import { updateQueue } from '../model/designEdit';
import { heldFor, storeOrHold, useHeldEdits } from './heldEdits';

const withTtl = (d: Design, ttl: number) =>
  updateQueue(d, 'wait.q', {
    ...d.topology.queues[1]!,
    arguments: { ...d.topology.queues[1]!.arguments, 'x-message-ttl': ttl },
  });

function session(design: Design) {
  const s = {
    design,
    docId: 'doc1',
    stored: [] as Design[],
    setDesign(d: Design) {
      s.design = d;
      s.stored.push(d);
    },
  };
  return s;
}

describe('an invalid field is held, never stored', () => {
  it('TTL -5 stays out of the design, is named by its queue, and goes when fixed', () => {
    useHeldEdits.setState({ held: [] });
    const s = session(dlxTtlRetry());
    const at = { node: 'queue:wait.q', objectPath: 'topology.queues[1]', field: 'q:x-message-ttl' };
    expect(storeOrHold(s, withTtl(s.design, -5), at)).toBe(false);
    expect(s.stored).toEqual([]);
    expect(s.design.topology.queues[1]!.arguments!['x-message-ttl']).toBe(5000);
    const held = heldFor(useHeldEdits.getState().held, 'doc1', s.design);
    expect(held.map((h) => h.issues.map((i) => [i.path, i.message.split(' must')[0]]))).toEqual([
      [['topology.queues[1].arguments.x-message-ttl', 'wait.q: x-message-ttl']],
    ]);
    // another design's held edits are not this one's
    expect(heldFor(useHeldEdits.getState().held, 'doc2', s.design)).toEqual([]);

    expect(storeOrHold(s, withTtl(s.design, 2000), at)).toBe(true);
    expect(s.design.topology.queues[1]!.arguments!['x-message-ttl']).toBe(2000);
    expect(useHeldEdits.getState().held).toEqual([]);
  });

  it('an error the design had already does not hold an unrelated edit of the same object', () => {
    useHeldEdits.setState({ held: [] });
    const s = session(withTtl(dlxTtlRetry(), -1));
    const q = s.design.topology.queues[1]!;
    const next = updateQueue(s.design, 'wait.q', { ...q, arguments: { ...q.arguments, 'x-max-length': 10 } });
    expect(
      storeOrHold(s, next, { node: 'queue:wait.q', objectPath: 'topology.queues[1]', field: 'q:x-max-length' }),
    ).toBe(true);
  });
});
