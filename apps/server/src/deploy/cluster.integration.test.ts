/**
 * The three-node RabbitMQ 4.3 cluster (5674/5675/5676): probe and plan see the nodes and where
 * each queue lives, a deploy through node 2 gives every quorum queue a member on all three
 * nodes, a node down refuses the deploy before anything is declared, and a node URL of another
 * cluster is named as such.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type Design } from '@retry-studio/topology-core/model';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import {
  ClusterMemberError,
  ManagementClient,
  parseAmqpUrl,
  probeBroker,
  verifyClusterMembers,
} from '../broker/index.js';
import { uniquePrefix } from '../http/testing.js';
import { useLiveServer } from '../testing/liveServer.js';
import { BROKER_43, TEST_CLUSTER } from '../testing/testBrokers.js';
import { clusterNodeApp, ensureTestCluster } from '../testing/testCluster.js';
import type { PlanItem } from './planDeploy.js';

const [N1, N2, N3] = TEST_CLUSTER.nodes;
const ALL = TEST_CLUSTER.nodes.map((n) => n.node);
const live = useLiveServer({ broker: N2, before: ensureTestCluster, afterTimeoutMs: 120_000 });
const mgmt1 = new ManagementClient(parseAmqpUrl(N1.amqpUrl), { baseUrl: N1.managementUrl });

/** quorum-delivery-limit with its dead-letter queue made quorum too: every queue replicated. */
function allQuorumDesign(name: string): Design {
  const built = buildTemplate('quorum-delivery-limit', { deliveryLimit: 2 });
  if (!built.ok) throw new Error(JSON.stringify(built.errors));
  const d = built.template.design;
  return {
    ...d,
    name,
    topology: {
      ...d.topology,
      queues: d.topology.queues.map((q) => ({ ...q, arguments: { ...q.arguments, 'x-queue-type': 'quorum' } })),
    },
  };
}

const queueItems = (items: readonly PlanItem[]) =>
  items.filter((i): i is Extract<PlanItem, { kind: 'queue' }> => i.kind === 'queue');

beforeAll(ensureTestCluster, 240_000);

describe('a three-node RabbitMQ 4.3 cluster', () => {
  it('the probe lists the three nodes, running, one version, no problems', async () => {
    const p = await probeBroker(parseAmqpUrl(N2.amqpUrl), { env: {} });
    expect(p.management.baseUrl).toBe(N2.managementUrl);
    expect(p.cluster?.nodes).toEqual(ALL.map((name) => ({ name, running: true, version: p.version })));
    expect(p.cluster?.problems).toEqual([]);
  });

  it('plans quorum queues on all running nodes, deploys through node 2, then shows members and leaders', async () => {
    const prefix = uniquePrefix('cl');
    const d = allQuorumDesign('cluster-deploy');
    const plan = await live.srv.post('/api/plan', { design: d, prefix });
    expect(plan.status, JSON.stringify(plan.body)).toBe(200);
    for (const q of queueItems(plan.body.plan.items))
      expect(q.placement).toEqual({ type: 'quorum', source: 'expected', replicas: 3, members: ALL });

    await live.deploy(d, prefix);
    for (const q of d.topology.queues) {
      const got = await mgmt1.queue('/', prefix + q.name);
      expect(got?.type).toBe('quorum');
      expect([...(got?.members ?? [])].sort()).toEqual(ALL);
    }
    const after = await live.srv.post('/api/plan', { design: d, prefix });
    const placed = queueItems(after.body.plan.items);
    for (const q of placed) {
      expect(q.status).toBe('unchanged');
      expect(q.placement).toMatchObject({ type: 'quorum', source: 'actual', replicas: 3 });
      expect(ALL).toContain(q.placement!.leader);
    }
    console.log(
      `cluster deploy via ${N2.node}: ${placed.map((q) => `${q.name} leader ${q.placement!.leader}`).join(', ')}`,
    );
  }, 60_000);

  it('a classic queue to create is placed on the node the deploy connects to, one copy, and the plan lints it for the cluster', async () => {
    const built = buildTemplate('quorum-delivery-limit', {});
    if (!built.ok) throw new Error(JSON.stringify(built.errors));
    const plan = await live.srv.post('/api/plan', { design: built.template.design, prefix: uniquePrefix('clc') });
    const classic = queueItems(plan.body.plan.items).find((q) => q.placement?.type === 'classic');
    expect(classic?.placement).toEqual({
      type: 'classic',
      source: 'expected',
      replicas: 1,
      members: [N2.node],
      leader: N2.node,
    });
    // the plan lints with the cluster's node count: the classic dead-letter queue is flagged
    expect(plan.body.lint).toContainEqual(
      expect.objectContaining({ id: 'classic-queue-in-cluster', objects: [`queue:${classic!.designName}`] }),
    );
  });

  it('a node URL of another cluster is refused, naming the field and both clusters', async () => {
    await expect(verifyClusterMembers([N1, N3].map((n) => parseAmqpUrl(n.amqpUrl)))).resolves.toHaveLength(2);
    const err = await verifyClusterMembers([N1, N2, BROKER_43].map((n) => parseAmqpUrl(n.amqpUrl))).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ClusterMemberError);
    expect((err as ClusterMemberError).path).toBe('nodes[2]');
    expect((err as Error).message).toMatch(
      /127\.0\.0\.1:5673.* belongs to another cluster: .*cluster rabbit4?@.*while .*5674.* is .*cluster retry-studio-cluster/,
    );
  });

  describe('with node 3 stopped', () => {
    it('the plan shows it down, and the deploy is refused before anything is declared', async () => {
      await clusterNodeApp(N3, 'stop_app');
      try {
        const prefix = uniquePrefix('cldown');
        const d = allQuorumDesign('cluster-down');
        const plan = await live.srv.post('/api/plan', { design: d, prefix });
        expect(plan.body.plan.cluster.problems).toEqual([
          expect.objectContaining({ kind: 'node-down', node: N3.node }),
        ]);
        for (const q of queueItems(plan.body.plan.items))
          expect(q.placement).toMatchObject({ replicas: 2, members: [N1.node, N2.node] });

        const dep = await live.srv.post('/api/deploy', { design: d, prefix });
        expect(dep.status).toBe(409);
        expect(dep.body.field).toBe('broker');
        expect(dep.body.error).toMatch(/^deploy: nothing was deployed: node rabbit-c3@localhost is not running/);
        const left = [...(await mgmt1.listQueues('/')), ...(await mgmt1.listExchanges('/'))].filter((o) =>
          o.name.startsWith(prefix),
        );
        expect(left).toEqual([]);
      } finally {
        await clusterNodeApp(N3, 'start_app');
      }
    }, 120_000);
  });
});
