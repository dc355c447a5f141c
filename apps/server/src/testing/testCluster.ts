/**
 * Starting the test cluster and stopping/starting one of its nodes, for the cluster integration
 * tests (a fresh machine has no cluster running: `up cluster` is idempotent and cheap when it runs).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ManagementClient, parseAmqpUrl, readCluster } from '../broker/index.js';
import { TEST_CLUSTER, type TestClusterNode } from './testBrokers.js';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

/** `scripts/brokers.sh up cluster`: starts the three nodes unless they run. */
export async function ensureTestCluster(): Promise<void> {
  await run('bash', ['scripts/brokers.sh', 'up', 'cluster'], { cwd: REPO, timeout: 240_000 });
  await clusterSettled();
}

/** Until every node runs and reports its rabbit version (just after start_app, /api/nodes lags). */
async function clusterSettled(timeoutMs = 60_000): Promise<void> {
  const [n1] = TEST_CLUSTER.nodes;
  const mgmt = new ManagementClient(parseAmqpUrl(n1.amqpUrl), { baseUrl: n1.managementUrl });
  for (const end = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 250))) {
    const c = await readCluster(mgmt).catch(() => undefined);
    if (c && c.nodes.length === TEST_CLUSTER.nodes.length && c.nodes.every((n) => n.running && n.version)) return;
    if (Date.now() > end)
      throw new Error(`the test cluster did not settle within ${timeoutMs} ms: ${JSON.stringify(c?.nodes)}`);
  }
}

/** `rabbitmqctl stop_app` / `start_app` on one node (its Erlang VM keeps running, as in a rolling restart). */
export async function clusterNodeApp(node: TestClusterNode, action: 'stop_app' | 'start_app'): Promise<void> {
  await run(
    'chroot',
    [
      TEST_CLUSTER.root,
      'env',
      '-i',
      'PATH=/usr/sbin:/usr/bin:/sbin:/bin',
      'HOME=/var/lib/rabbitmq',
      'ERL_EPMD_PORT=4370',
      'rabbitmqctl',
      '-n',
      node.node,
      action,
    ],
    { timeout: 120_000 },
  );
  if (action === 'start_app') await clusterSettled();
}
