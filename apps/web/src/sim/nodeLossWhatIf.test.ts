// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Design } from '@retry-studio/topology-core/model';
import type { DeployPlan as Plan, PlanItem } from '@retry-studio/contract';
import { dlxTtlRetry } from '../fixtures/designs';
import {
  DEFAULT_NODE_LOSS,
  outagesFor,
  queueHomes,
  queuesOnNode,
  resolveNodeLoss,
  unavailableAt,
} from './nodeLossWhatIf';

/** the fixture with work.q made a quorum queue */
function withQuorumWork(): Design {
  const d = dlxTtlRetry();
  return {
    ...d,
    topology: {
      ...d.topology,
      queues: d.topology.queues.map((q) =>
        q.name === 'work.q' ? { ...q, arguments: { ...q.arguments, 'x-queue-type': 'quorum' } } : q,
      ),
    },
  };
}

const queueItem = (
  designName: string,
  placement: NonNullable<Extract<PlanItem, { kind: 'queue' }>['placement']>,
): PlanItem =>
  ({
    kind: 'queue',
    status: 'unchanged',
    designName,
    name: `p.${designName}`,
    desired: {},
    effective: { settings: {} },
    placement,
  }) as unknown as PlanItem;
const plan = (items: PlanItem[]): Plan => ({
  vhost: '/',
  prefix: 'p.',
  items,
  summary: { create: 0, update: 0, remove: 0, unchanged: items.length, conflict: 0, unsupported: 0 },
  vhostMissing: false,
});

describe('what if a node goes down', () => {
  const design = withQuorumWork();

  it('the queues on the node: from the plan (leader or the one member), every queue when no plan is known, or a chosen list', () => {
    const homes = queueHomes(
      plan([
        queueItem('work.q', {
          type: 'quorum',
          source: 'actual',
          replicas: 3,
          members: ['n1', 'n2', 'n3'],
          leader: 'n2',
        }),
        queueItem('wait.q', { type: 'classic', source: 'actual', replicas: 1, members: ['n1'] }),
        queueItem('parking.q', { type: 'classic', source: 'expected', replicas: 1, members: ['n2'] }),
      ]),
    );
    expect(homes).toEqual({ 'work.q': 'n2', 'wait.q': 'n1' });
    const draft = { ...DEFAULT_NODE_LOSS, node: 'n2' };
    // parking.q is not deployed yet (expected only): counted on the node, as when nothing is known
    expect(queuesOnNode(draft, design, homes)).toEqual(['work.q', 'parking.q']);
    expect(queuesOnNode(draft, design, undefined)).toEqual(['work.q', 'wait.q', 'parking.q']);
    expect(queuesOnNode({ ...draft, queues: ['wait.q', 'gone.q'] }, design, homes)).toEqual(['wait.q']);
    expect(queueHomes(plan([]))).toBeUndefined();
  });

  it('each queue is unavailable by its type: quorum until a new leader, classic until the node is back', () => {
    const loss = resolveNodeLoss(
      { node: 'n2', atMs: 1000, downMs: 30_000, leaderMovesAfterMs: 1500, queues: 'placement' },
      design,
    );
    const outages = outagesFor(loss, design);
    expect(outages).toEqual([
      { queue: 'work.q', quorum: true, fromMs: 1000, untilMs: 2500 },
      { queue: 'wait.q', quorum: false, fromMs: 1000, untilMs: 31_000 },
      { queue: 'parking.q', quorum: false, fromMs: 1000, untilMs: 31_000 },
    ]);
    expect([...unavailableAt(outages, 999)]).toEqual([]);
    expect([...unavailableAt(outages, 2000)]).toEqual(['work.q', 'wait.q', 'parking.q']);
    expect([...unavailableAt(outages, 2500)]).toEqual(['wait.q', 'parking.q']);
    expect([...unavailableAt(outages, 31_000)]).toEqual([]);
  });
});
