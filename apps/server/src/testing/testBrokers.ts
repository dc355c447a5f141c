/**
 * The two real brokers the integration tests run on (started by scripts/brokers.sh):
 * Debian bookworm's RabbitMQ 3.10.8 on the host, Debian unstable's 4.3 in a chroot.
 * Tests that matter on both versions iterate `TEST_BROKERS` (e.g. `describe.each(TEST_BROKERS)`).
 */
export interface TestBroker {
  /** the profile family this broker is recorded under: '3.10' or '4.3' */
  readonly name: '3.10' | '4.3';
  readonly amqpUrl: string;
  readonly managementUrl: string;
  readonly amqpPort: number;
  readonly managementPort: number;
}

export const BROKER_310: TestBroker = {
  name: '3.10',
  amqpUrl: 'amqp://guest:guest@127.0.0.1:5672/',
  managementUrl: 'http://127.0.0.1:15672',
  amqpPort: 5672,
  managementPort: 15672,
};

export const BROKER_43: TestBroker = {
  name: '4.3',
  amqpUrl: 'amqp://guest:guest@127.0.0.1:5673/',
  managementUrl: 'http://127.0.0.1:15673',
  amqpPort: 5673,
  managementPort: 15673,
};

export const TEST_BROKERS: readonly TestBroker[] = [BROKER_310, BROKER_43];

/** One node of the three-node RabbitMQ 4.3 test cluster (`scripts/brokers.sh up cluster`). */
export interface TestClusterNode extends TestBroker {
  /** the Erlang node name, e.g. rabbit-c2@localhost */
  readonly node: string;
}

const clusterNode = (i: 1 | 2 | 3): TestClusterNode => ({
  name: '4.3',
  node: `rabbit-c${i}@localhost`,
  amqpUrl: `amqp://guest:guest@127.0.0.1:${5673 + i}/`,
  managementUrl: `http://127.0.0.1:${15673 + i}`,
  amqpPort: 5673 + i,
  managementPort: 15673 + i,
});

/**
 * The three-node RabbitMQ 4.3 cluster (not in TEST_BROKERS: only the cluster tests use it, and
 * they start it with `ensureTestCluster`). Its nodes may be stopped and started by those tests.
 */
export const TEST_CLUSTER = {
  nodes: [clusterNode(1), clusterNode(2), clusterNode(3)] as const,
  /** the chroot its nodes run from (rabbitmqctl lives there) */
  root: '/var/lib/retry-studio/rabbitmq-4.3',
} as const;
