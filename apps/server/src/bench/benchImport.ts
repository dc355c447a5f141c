/**
 * `pnpm bench:import`: import a vhost of 5,000 queues from a live broker into a design (the
 * management API reads, the core's scaffolding, layout and lint), and the layout alone.
 * Prints one `name: value` per line. The vhost is made with one definitions upload and deleted
 * afterwards. `--url AMQP_URL --management-url URL` pick the broker (default 3.10 on 5672).
 *
 * The vhost: 250 services, each a topic exchange, a DLX, 18 work queues (DLX set), a wait queue
 * (TTL + DLX back) and a parking queue: 5,000 queues, 500 exchanges, 5,000 bindings.
 */
import { pathToFileURL } from 'node:url';
import { exportDefinitions } from '@retry-studio/topology-core/io';
import { type BindingDef, type ExchangeDef, type QueueDef, type Topology } from '@retry-studio/topology-core/model';
import { layoutByPrefix } from '@retry-studio/topology-core/operate';
import { ManagementClient, requireManagement, resolveBrokerUrl, resolveManagement } from '../broker/index.js';
import { importBroker } from '../operate/importBroker.js';
import { operateTarget } from '../operate/operateTarget.js';

export const SERVICES = 250;
const WORK_PER_SERVICE = 18;

export function fiveThousandQueues(): Topology {
  const exchanges: ExchangeDef[] = [];
  const queues: QueueDef[] = [];
  const bindings: BindingDef[] = [];
  for (let s = 0; s < SERVICES; s++) {
    const svc = `svc${s}`;
    exchanges.push({ name: svc, type: 'topic' }, { name: `${svc}.dlx`, type: 'fanout' });
    for (let w = 0; w < WORK_PER_SERVICE; w++) {
      queues.push({ name: `${svc}.work${w}`, arguments: { 'x-dead-letter-exchange': `${svc}.dlx` } });
      bindings.push({
        source: svc,
        destination: `${svc}.work${w}`,
        destination_type: 'queue',
        routing_key: `${svc}.w${w}.*`,
      });
    }
    queues.push({ name: `${svc}.wait`, arguments: { 'x-message-ttl': 5000, 'x-dead-letter-exchange': svc } });
    queues.push({ name: `${svc}.parking`, arguments: {} });
    bindings.push({ source: `${svc}.dlx`, destination: `${svc}.parking`, destination_type: 'queue', routing_key: '' });
  }
  return { exchanges, queues, bindings };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const print = (name: string, value: number | string): void =>
  console.log(`${name}: ${typeof value === 'number' ? Math.round(value) : value}`);

async function main(): Promise<void> {
  const url = resolveBrokerUrl(arg('url'));
  const mgmtUrl = arg('management-url');
  const management = new ManagementClient(url, {
    baseUrl: requireManagement(await resolveManagement(url, mgmtUrl ? { managementUrl: mgmtUrl } : {})).baseUrl,
    timeoutMs: 120_000,
  });
  const vhost = `rs-bench-import-${process.pid}-${Date.now().toString(36)}`;
  const topology = fiveThousandQueues();
  await management.createVhost(vhost);
  try {
    const t0 = performance.now();
    await management.loadDefinitions(vhost, exportDefinitions(topology));
    print('import.setup_ms (definitions upload)', performance.now() - t0);
    const t = await operateTarget(url, { vhost, management });
    const t1 = performance.now();
    const r = await importBroker(t);
    const total = performance.now() - t1;
    if (!r.ok) throw new Error(`import failed: ${r.errors[0]?.path} ${r.errors[0]?.message}`);
    print('import.broker', `RabbitMQ ${r.rabbitVersion}`);
    print('import.queues', r.design.topology.queues.length);
    print('import.exchanges', r.design.topology.exchanges.length);
    print('import.bindings', r.design.topology.bindings.length);
    print('import.consumers_scaffolded', r.design.consumers.length);
    print('import.publishers_scaffolded', r.design.publishers.length);
    print('import.parking_queues', Object.values(r.roles).filter((x) => x === 'parking').length);
    print('import.lint_findings', r.lint.length);
    print('import.read_ms (management API)', r.timings.readMs);
    print('import.design_ms (scaffold + layout + lint)', r.timings.scaffoldMs);
    print('import.total_ms', total);
    const t2 = performance.now();
    const layout = layoutByPrefix(r.design);
    print('layout.ms (5,000 queues, grouped by prefix)', performance.now() - t2);
    print('layout.groups', layout.groups.length);
    print('layout.nodes', Object.keys(layout.positions).length);
  } finally {
    await management.deleteVhost(vhost);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  main().catch((err: unknown) => {
    console.error(`bench:import failed: ${(err as Error).message}`);
    process.exitCode = 1;
  });
