/**
 * The cluster behind a broker URL, as its management API sees it: every node, whether it runs
 * and the rabbit version it runs. A single broker is a one-node cluster. What makes a deploy
 * unsafe (a node down: quorum queues get fewer members, a classic queue may land nowhere useful;
 * mixed versions: feature flags and defaults differ) is said here once, for the probe and the plan.
 */
import { redactUrl, type AmqpUrl } from './amqpUrl.js';
import { readAmqpIdentity } from './resolveManagement.js';
import { describeIdentity, type BrokerIdentity } from './brokerIdentity.js';
import { ManagementError, type ManagementClient, type MgmtNode } from './management.js';
import type { ClusterNode, ClusterProblem, ClusterView } from '@retry-studio/contract';

/** the wire types are the contract's (the probe and the plan send them to the web) */
export type { ClusterNode, ClusterProblem, ClusterView } from '@retry-studio/contract';

export function clusterNode(n: MgmtNode): ClusterNode {
  const version = n.applications?.find((a) => a.name === 'rabbit')?.version;
  return { name: n.name, running: n.running, ...(version ? { version } : {}) };
}

/** Down nodes and mixed versions, each with a sentence that says why it matters. */
export function clusterProblems(nodes: readonly ClusterNode[]): ClusterProblem[] {
  const problems: ClusterProblem[] = [];
  for (const n of nodes) {
    if (!n.running)
      problems.push({
        kind: 'node-down',
        node: n.name,
        message: `node ${n.name} is not running: quorum queues declared now get fewer members and classic queues on it are unavailable; start it before deploying`,
      });
  }
  const versions: Record<string, string> = {};
  for (const n of nodes) if (n.version) versions[n.name] = n.version;
  if (new Set(Object.values(versions)).size > 1)
    problems.push({
      kind: 'mixed-versions',
      versions,
      message: `the cluster runs mixed RabbitMQ versions (${Object.entries(versions)
        .map(([n, v]) => `${n} ${v}`)
        .join(', ')}): defaults and feature flags differ between nodes; finish the upgrade before deploying`,
    });
  return problems;
}

export function clusterView(nodes: readonly MgmtNode[], clusterName?: string): ClusterView {
  const ns = nodes.map(clusterNode).sort((a, b) => a.name.localeCompare(b.name));
  return {
    ...(clusterName ? { clusterName } : {}),
    nodes: ns,
    running: ns.filter((n) => n.running).length,
    problems: clusterProblems(ns),
  };
}

/**
 * The cluster's nodes, or undefined when this user may not list them (GET /api/nodes needs the
 * monitoring tag; a plain management user still probes, plans and deploys, without the node view).
 */
export async function readCluster(mgmt: ManagementClient, clusterName?: string): Promise<ClusterView | undefined> {
  try {
    return clusterView(await mgmt.nodes(), clusterName);
  } catch (err) {
    if (err instanceof ManagementError && (err.status === 401 || err.status === 403)) return undefined;
    throw err;
  }
}

/** A node URL that is not a node of the cluster the others belong to. */
export class ClusterMemberError extends Error {
  override readonly name = 'ClusterMemberError';
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Checks that every node URL is a node of one cluster (the same cluster_name in each AMQP
 * handshake); throws a ClusterMemberError naming the field (`nodes[2]`) and both clusters.
 */
export async function verifyClusterMembers(urls: readonly AmqpUrl[], field = 'nodes'): Promise<BrokerIdentity[]> {
  const ids = await Promise.all(urls.map((u) => readAmqpIdentity(u)));
  const first = ids[0];
  ids.forEach((id, i) => {
    if (i === 0 || !first || id.clusterName === first.clusterName) return;
    throw new ClusterMemberError(
      `${field}[${i}]`,
      `${redactUrl(urls[i]!)} belongs to another cluster: it is ${describeIdentity(id)}, while ${redactUrl(urls[0]!)} is ${describeIdentity(first)}`,
    );
  });
  return ids;
}
