/**
 * Exporters against the real broker (127.0.0.1:5672 / :15672, guest/guest), each in a
 * throwaway vhost that is deleted afterwards:
 * - definitions JSON imported with `rabbitmqctl import_definitions`, read back through the
 *   management API and through a real `rabbitmqctl export_definitions`;
 * - the generated amqplib setup script run with tsx;
 * - the generated rabbitmqadmin commands run with sh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  compilePortable,
  exportAmqplibScript,
  exportDefinitions,
  exportRabbitmqadminV1,
  importDefinitions,
} from '@retry-studio/topology-core/io';
import { type Topology } from '@retry-studio/topology-core/model';
import { buildTemplate, listTemplates } from '@retry-studio/topology-core/templates';
import { DEFAULT_AMQP_URL, ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { BROKER_310 } from '../testing/testBrokers.js';

const run = promisify(execFile);
const mgmt = new ManagementClient(parseAmqpUrl(DEFAULT_AMQP_URL), { baseUrl: BROKER_310.managementUrl });
const serverDir = path.resolve(__dirname, '../..');
// scripts must sit where `amqplib` resolves (apps/server/node_modules)
const scriptDir = path.join(serverDir, 'node_modules', '.retry-studio-tmp');
let tmp = '';
const vhosts: string[] = [];
const vhostFor = (tag: string): string => {
  const v = `retry-exp-${tag}-${process.pid}-${vhosts.length}`;
  vhosts.push(v);
  return v;
};

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'retry-exp-'));
  // rabbitmqctl run as root switches to the rabbitmq user, which must read and write here
  await chmod(tmp, 0o777);
  await mkdir(scriptDir, { recursive: true });
});
afterAll(async () => {
  for (const v of vhosts) await mgmt.deleteVhost(v).catch(() => undefined);
  await rm(tmp, { recursive: true, force: true });
  await rm(scriptDir, { recursive: true, force: true });
});

type Norm = { exchanges: unknown[]; queues: unknown[]; bindings: unknown[] };
const sortBy = <T>(xs: T[]): T[] => xs.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
function norm(t: Topology): Norm {
  return {
    exchanges: sortBy(
      t.exchanges.map((x) => ({
        name: x.name,
        type: x.type,
        durable: x.durable ?? true,
        auto_delete: x.auto_delete ?? false,
        internal: x.internal ?? false,
        arguments: x.arguments ?? {},
      })),
    ),
    queues: sortBy(
      t.queues.map((q) => ({
        name: q.name,
        durable: q.durable ?? true,
        auto_delete: q.auto_delete ?? false,
        arguments: q.arguments ?? {},
      })),
    ),
    bindings: sortBy(
      t.bindings.map((b) => ({
        source: b.source,
        destination: b.destination,
        destination_type: b.destination_type,
        routing_key: b.routing_key,
        arguments: b.arguments ?? {},
      })),
    ),
  };
}
async function readBack(vhost: string): Promise<Norm> {
  const [xs, qs, bs] = await Promise.all([mgmt.listExchanges(vhost), mgmt.listQueues(vhost), mgmt.listBindings(vhost)]);
  return norm({
    exchanges: xs
      .filter((x) => x.name !== '' && !x.name.startsWith('amq.'))
      .map((x) => ({
        name: x.name,
        type: x.type as never,
        durable: x.durable,
        auto_delete: x.auto_delete,
        internal: x.internal,
        arguments: x.arguments as never,
      })),
    queues: qs.map((q) => ({
      name: q.name,
      durable: q.durable,
      auto_delete: q.auto_delete,
      arguments: q.arguments as never,
    })),
    bindings: bs
      .filter((b) => b.source !== '')
      .map((b) => ({
        source: b.source,
        destination: b.destination,
        destination_type: b.destination_type,
        routing_key: b.routing_key,
        arguments: b.arguments as never,
      })),
  });
}

/** Stock-3.10 templates, plus the portable compile of the delayed-exchange ones. */
const designs = [
  ...listTemplates()
    .filter((t) => t.runsOnStock310)
    .map((t) => {
      const r = buildTemplate(t.id);
      if (!r.ok) throw new Error(t.id);
      return [t.id, r.template.design] as const;
    }),
  ...['delayed-exchange', 'dlx-delayed-requeue'].map((id) => {
    const r = buildTemplate(id);
    if (!r.ok) throw new Error(id);
    const p = compilePortable(r.template.design);
    if (!p.ok) throw new Error(id);
    return [`${id}-portable`, p.design] as const;
  }),
];

describe('definitions export -> rabbitmqctl import_definitions -> read back', () => {
  it.each(designs)('%s', async (id, design) => {
    const vhost = vhostFor(id.slice(0, 20));
    const file = path.join(tmp, `${id}.json`);
    await writeFile(file, JSON.stringify(exportDefinitions(design.topology, { vhost })));
    try {
      await run('rabbitmqctl', ['import_definitions', file]);
      expect(await readBack(vhost)).toEqual(norm(design.topology));
      // and the broker's own export reads back as the same topology
      const out = path.join(tmp, `${id}.export.json`);
      await run('rabbitmqctl', ['export_definitions', out]);
      const r = importDefinitions(JSON.parse(await readFile(out, 'utf8')), { vhost });
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      expect(norm(r.topology)).toEqual(norm(design.topology));
    } finally {
      await mgmt.deleteVhost(vhost);
    }
  });
});

describe('generated amqplib setup script runs against the broker', () => {
  it.each(
    designs.filter(([id]) =>
      [
        'dlx-ttl-wait-queue',
        'quorum-delivery-limit',
        'binary-delay-levels',
        'spring-stateless',
        'delayed-exchange-portable',
      ].includes(id),
    ),
  )(
    '%s',
    async (id, design) => {
      const vhost = vhostFor(`js-${id.slice(0, 16)}`);
      await mgmt.createVhost(vhost);
      const file = path.join(scriptDir, `setup-${id}.ts`);
      await writeFile(file, exportAmqplibScript(design.topology, design.name));
      const r = await run('npx', ['tsx', file], {
        cwd: serverDir,
        env: { ...process.env, AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/${encodeURIComponent(vhost)}` },
      });
      try {
        expect(r.stdout).toContain(`declared ${design.topology.exchanges.length} exchanges`);
        expect(await readBack(vhost)).toEqual(norm(design.topology));
        // idempotent: a second run changes nothing and succeeds
        await run('npx', ['tsx', file], {
          cwd: serverDir,
          env: { ...process.env, AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/${encodeURIComponent(vhost)}` },
        });
      } finally {
        await mgmt.deleteVhost(vhost);
      }
    },
    60_000,
  );

  it('a script against a broker that refuses a changed argument exits 1 with the broker message', async () => {
    const r = buildTemplate('dlx-ttl-wait-queue');
    const r2 = buildTemplate('dlx-ttl-wait-queue', { delayMs: 1234 });
    if (!r.ok || !r2.ok) throw new Error('build');
    const vhost = vhostFor('js-conflict');
    await mgmt.createVhost(vhost);
    const env = { ...process.env, AMQP_URL: `amqp://guest:guest@127.0.0.1:5672/${encodeURIComponent(vhost)}` };
    const a = path.join(scriptDir, 'conflict-a.ts');
    const b = path.join(scriptDir, 'conflict-b.ts');
    await writeFile(a, exportAmqplibScript(r.template.design.topology));
    await writeFile(b, exportAmqplibScript(r2.template.design.topology));
    await run('npx', ['tsx', a], { cwd: serverDir, env });
    const e = await run('npx', ['tsx', b], { cwd: serverDir, env }).catch((x: { code: number; stderr: string }) => x);
    await mgmt.deleteVhost(vhost);
    expect((e as { code: number }).code).toBe(1);
    expect((e as { stderr: string }).stderr).toContain('PRECONDITION_FAILED');
  }, 60_000);
});

describe('generated rabbitmqadmin v1 commands run on 3.10', () => {
  const admin = ['/usr/bin/rabbitmqadmin', '/usr/local/bin/rabbitmqadmin'].find((p) => existsSync(p));
  it.skipIf(!admin).each(designs.filter(([id]) => ['chained-ttl', 'binary-delay-levels'].includes(id)))(
    '%s',
    async (id, design) => {
      const vhost = vhostFor(`adm-${id.slice(0, 16)}`);
      await mgmt.createVhost(vhost);
      const file = path.join(tmp, `${id}.sh`);
      await writeFile(file, exportRabbitmqadminV1(design.topology, { vhost }));
      try {
        await run('sh', [file]);
        expect(await readBack(vhost)).toEqual(norm(design.topology));
      } finally {
        await mgmt.deleteVhost(vhost);
      }
    },
    60_000,
  );
});
