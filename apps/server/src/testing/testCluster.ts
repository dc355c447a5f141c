/**
 * Starting the test cluster and stopping/starting one of its nodes, for the cluster integration
 * tests (a fresh machine has no cluster running: `up cluster` is idempotent and cheap when it runs).
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TEST_CLUSTER, type TestClusterNode } from './testBrokers.js';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

/** `scripts/brokers.sh up cluster`: starts the three nodes unless they run. */
export async function ensureTestCluster(): Promise<void> {
  await run('bash', ['scripts/brokers.sh', 'up', 'cluster'], { cwd: REPO, timeout: 240_000 });
}

/** `rabbitmqctl stop_app` / `start_app` on one node (its Erlang VM keeps running, as in a rolling restart). */
export async function clusterNodeApp(node: TestClusterNode, action: 'stop_app' | 'start_app'): Promise<void> {
  await run(
    'chroot',
    [TEST_CLUSTER.root, 'env', '-i', 'PATH=/usr/sbin:/usr/bin:/sbin:/bin', 'HOME=/var/lib/rabbitmq', 'ERL_EPMD_PORT=4370', 'rabbitmqctl', '-n', node.node, action],
    { timeout: 120_000 },
  );
}
