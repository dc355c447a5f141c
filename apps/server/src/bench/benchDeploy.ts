/**
 * `pnpm bench:deploy`: time to plan and apply a 1,000-object design through the server's deploy
 * path (management API read + diff, then declarations on the 'apply' connection), next to
 * RabbitMQ's own `rabbitmqctl import_definitions` for the same 1,000 objects, in one run.
 * Prints one `name: value` per line. Each side uses its own fresh name prefix in vhost `/`, and
 * everything is deleted afterwards.
 *
 * The design: 250 exchanges (direct/topic/fanout/headers), 375 queues (a third with a TTL and a
 * dead-letter exchange), 375 bindings.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { exportDefinitions } from '@retry-studio/topology-core/io';
import { type BindingDef, type Design, type ExchangeDef, type QueueDef } from '@retry-studio/topology-core/model';
import { parseAmqpUrl, resolveBrokerUrl } from '../broker/index.js';
import { Renamer, renameTopology } from '../deploy/deployTarget.js';
import { DeployService } from '../deploy/deployService.js';
import { Manifest } from '../deploy/manifest.js';
import { Brokers } from '../broker/brokers.js';

const run = promisify(execFile);

export function thousandObjectDesign(name = 'bench-1000'): Design {
  const types = ['direct', 'topic', 'fanout', 'headers'] as const;
  const exchanges: ExchangeDef[] = [];
  const queues: QueueDef[] = [];
  const bindings: BindingDef[] = [];
  for (let i = 0; i < 250; i++) exchanges.push({ name: `x.${i}`, type: types[i % 4]! });
  for (let i = 0; i < 375; i++)
    queues.push({
      name: `q.${i}`,
      ...(i % 3 === 0
        ? { arguments: { 'x-message-ttl': 1000 + i, 'x-dead-letter-exchange': `x.${(i + 1) % 250}` } }
        : {}),
    });
  for (let i = 0; i < 375; i++) {
    const x = exchanges[i % 250]!;
    bindings.push({
      source: x.name,
      destination: `q.${i}`,
      destination_type: 'queue',
      routing_key: x.type === 'topic' ? `k.${i}.#` : x.type === 'fanout' ? '' : `k.${i}`,
      ...(x.type === 'headers' ? { arguments: { 'x-match': 'all', n: i } } : {}),
    });
  }
  return {
    format: 'retry-studio/design',
    version: 1,
    name,
    topology: { exchanges, queues, bindings },
    consumers: [],
    publishers: [],
  };
}

function line(name: string, value: string | number): void {
  console.log(`${name}: ${typeof value === 'number' ? (Number.isInteger(value) ? value : value.toFixed(1)) : value}`);
}

async function main(): Promise<void> {
  const url = resolveBrokerUrl(process.env.AMQP_URL);
  const brokers = new Brokers();
  const service = new DeployService(brokers, new Manifest(undefined));
  const design = thousandObjectDesign();
  const objects = design.topology.exchanges.length + design.topology.queues.length + design.topology.bindings.length;
  const tag = randomBytes(3).toString('hex');
  const ours = { vhost: '/', prefix: `rs-bench.${tag}.ours.` };
  const theirs = `rs-bench.${tag}.import.`;
  line('objects', objects);
  // held for the whole run, so the apply connection stays open and warm (as for a user deploying twice in a row)
  const warm = await brokers.lease(url, '/', 'apply');
  const tmp = mkdtempSync(join(tmpdir(), 'rs-bench-'));
  chmodSync(tmp, 0o755); // rabbitmqctl reads the file as the rabbitmq user
  try {
    // warm the connections and the management client so both sides start alike
    await service.plan(thousandObjectDesign('warm'), url, { vhost: '/', prefix: `rs-bench.${tag}.warm.` });
    await warm.conn.ready();

    let t = performance.now();
    const { plan } = await service.plan(design, url, ours);
    const planMs = performance.now() - t;
    t = performance.now();
    const dep = await service.deploy(design, url, ours);
    const deployMs = performance.now() - t;
    if (!dep.result.ok)
      throw new Error(`deploy failed: ${dep.result.failure?.name}: ${dep.result.failure?.brokerMessage}`);
    line('plan_create_count', plan.summary.create);
    line('plan_ms', planMs);
    line('deploy_ms (plan + apply)', deployMs);
    line('apply_ms', dep.result.ms);
    line('applied_objects', dep.result.applied.length);
    t = performance.now();
    const again = await service.deploy(design, url, ours);
    line('redeploy_unchanged_ms', performance.now() - t);
    line('redeploy_applied_objects', again.result.applied.length);

    // the same objects through RabbitMQ's own import
    const defs = exportDefinitions(renameTopology(design.topology, new Renamer(theirs)), { vhost: '/' });
    const file = join(tmp, 'defs.json');
    writeFileSync(file, JSON.stringify(defs));
    t = performance.now();
    await run('rabbitmqctl', ['import_definitions', file], { timeout: 300_000 });
    const cliMs = performance.now() - t;
    // the import is asynchronous ("Successfully started definition import"): wait until every object exists
    const mgmt = await brokers.management(url);
    const counts = async () => {
      const [xs, qs, bs] = await Promise.all([mgmt.listExchanges('/'), mgmt.listQueues('/'), mgmt.listBindings('/')]);
      return (
        xs.filter((x) => x.name.startsWith(theirs)).length +
        qs.filter((q) => q.name.startsWith(theirs)).length +
        bs.filter((b) => b.source.startsWith(theirs)).length
      );
    };
    let present = await counts();
    while (present < objects && performance.now() - t < 300_000) {
      await new Promise((r) => setTimeout(r, 25));
      present = await counts();
    }
    const importMs = performance.now() - t;
    line('rabbitmqctl_import_definitions_cli_ms', cliMs);
    line('rabbitmqctl_import_definitions_complete_ms', importMs);
    line('import_objects_present', present);
    line('ratio_deploy_vs_import', deployMs / importMs);
    line(
      'verdict',
      deployMs <= importMs ? 'deploy is no slower than import_definitions' : 'deploy is SLOWER than import_definitions',
    );
  } finally {
    // clean up both sides (ours through teardown, the import's objects directly)
    const rec = service.record(url, ours);
    if (rec) await service.teardown(rec, url, true).catch((e: Error) => console.error(`teardown: ${e.message}`));
    const conn = warm.conn;
    const mgmt = await brokers.management(url);
    const ch = await conn.createChannel();
    for (const q of await mgmt.listQueues('/'))
      if (q.name.startsWith(`rs-bench.${tag}.`)) await ch.deleteQueue(q.name).catch(() => undefined);
    for (const x of await mgmt.listExchanges('/'))
      if (x.name.startsWith(`rs-bench.${tag}.`)) await ch.deleteExchange(x.name).catch(() => undefined);
    await ch.close().catch(() => undefined);
    await brokers.closeAll();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && /benchDeploy\.ts$/.test(process.argv[1])) {
  main().catch((err: Error) => {
    console.error(`bench:deploy failed: ${err.message}`);
    process.exitCode = 1;
  });
}
export { parseAmqpUrl };
