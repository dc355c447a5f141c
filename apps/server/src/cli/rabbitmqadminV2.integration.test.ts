/**
 * The generated rabbitmqadmin v2 script, run with the real v2 CLI (Debian's rabbitmqadmin-ng,
 * installed in the 4.3 chroot) against the real 4.3 broker, each in a throwaway vhost: the
 * vhost's definitions (GET /api/definitions/{vhost}) must read back as the design.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportRabbitmqadmin, importDefinitions } from '@retry-studio/topology-core/io';
import { type Design, type Topology } from '@retry-studio/topology-core/model';
import { templateDesign as template, typedDesign } from './exportFixtures.js';
import { ManagementClient, parseAmqpUrl } from '../broker/index.js';
import { BROKER_43 } from '../testing/testBrokers.js';

const run = promisify(execFile);
const CHROOT = '/var/lib/retry-studio/rabbitmq-4.3';
const hasV2 = existsSync(path.join(CHROOT, 'usr/bin/rabbitmqadmin'));
const mgmt = new ManagementClient(parseAmqpUrl(BROKER_43.amqpUrl), { baseUrl: BROKER_43.managementUrl });
// the script must sit inside the chroot; so must a CA bundle, without which rabbitmqadmin-ng
// cannot build its HTTP client ("builder error") even for plain http (the minbase chroot has none)
const inChroot = `/tmp/retry-exp-v2-${process.pid}`;
const hostDir = path.join(CHROOT, inChroot);
const hostCa = '/etc/ssl/certs/ca-certificates.crt';
const vhosts: string[] = [];

beforeAll(async () => {
  if (!hasV2) return;
  await mkdir(hostDir, { recursive: true });
  if (existsSync(hostCa)) await copyFile(hostCa, path.join(hostDir, 'ca.pem'));
});
afterAll(async () => {
  for (const v of vhosts) await mgmt.deleteVhost(v).catch(() => undefined);
  await rm(hostDir, { recursive: true, force: true });
});

/** Runs the script with the v2 CLI inside the chroot, passing `args` to the script. */
async function runScript(name: string, script: string, args: readonly string[]): Promise<void> {
  await writeFile(path.join(hostDir, name), script);
  const env = ['HOME=/root', ...(existsSync(path.join(hostDir, 'ca.pem')) ? [`SSL_CERT_FILE=${inChroot}/ca.pem`] : [])];
  await run('chroot', [CHROOT, 'env', ...env, 'sh', `${inChroot}/${name}`, ...args], { timeout: 120_000 });
}

const sortBy = <T>(xs: T[]): T[] => xs.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
/** Defaults written out (v2 always sets x-queue-type; 4.x omits `internal: false`), then sorted. */
function norm(t: Topology) {
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
        arguments: { 'x-queue-type': 'classic', ...(q.arguments ?? {}) },
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
    policies: sortBy(
      (t.policies ?? []).map((p) => ({
        name: p.name,
        pattern: p.pattern,
        'apply-to': p['apply-to'] ?? 'all',
        priority: p.priority ?? 0,
        definition: p.definition,
      })),
    ),
  };
}
/** The vhost's definitions, plus its internal exchanges, which 4.3.6 leaves out of a definitions export (3.10.8 keeps them). */
async function readBack(vhost: string) {
  const defs = await mgmt.vhostDefinitions(vhost);
  const internal = (await mgmt.listExchanges(vhost)).filter(
    (x) => x.internal && x.name !== '' && !x.name.startsWith('amq.'),
  );
  const r = importDefinitions({
    ...defs,
    exchanges: [
      ...((defs.exchanges as unknown[]) ?? []),
      ...internal.map(({ name, type, durable, auto_delete, internal, arguments: a }) => ({
        name,
        type,
        durable,
        auto_delete,
        internal,
        arguments: a,
      })),
    ],
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return norm(r.topology);
}

describe.skipIf(!hasV2)('rabbitmqadmin v2 script on RabbitMQ 4.3 (real rabbitmqadmin-ng)', () => {
  const cases: [string, Design][] = [
    ['dlx-ttl-wait-queue', template('dlx-ttl-wait-queue')],
    ['quorum-delivery-limit', template('quorum-delivery-limit')],
    ['quorum-delayed-retry', template('quorum-delayed-retry')],
    ['binary-delay-levels', template('binary-delay-levels')],
    ['typed-fixture', typedDesign()],
  ];
  it.each(cases)(
    "%s: the script's own arguments select the broker and vhost; definitions read back as the design",
    async (id, design) => {
      const vhost = `retry-exp-v2-${id}-${process.pid}`;
      vhosts.push(vhost);
      await mgmt.createVhost(vhost);
      try {
        // without --host/--port passed through, rabbitmqadmin would talk to 127.0.0.1:15672 (the 3.10 broker)
        const args = [
          '--host',
          '127.0.0.1',
          '--port',
          String(BROKER_43.managementPort),
          '--username',
          'guest',
          '--password',
          'guest',
          '--vhost',
          vhost,
        ];
        await runScript(`${id}.sh`, exportRabbitmqadmin(design.topology, { designName: design.name }), args);
        expect(await readBack(vhost)).toEqual(norm(design.topology));
        // idempotent: a second run succeeds and changes nothing
        await runScript(`${id}.sh`, exportRabbitmqadmin(design.topology, { designName: design.name }), args);
        expect(await readBack(vhost)).toEqual(norm(design.topology));
      } finally {
        await mgmt.deleteVhost(vhost);
      }
    },
    180_000,
  );

  it('the vhost given at export time is the default; a changed argument fails the script', async () => {
    const vhost = `retry-exp-v2-default-${process.pid}`;
    vhosts.push(vhost);
    await mgmt.createVhost(vhost);
    const conn = [
      '--host',
      '127.0.0.1',
      '--port',
      String(BROKER_43.managementPort),
      '--username',
      'guest',
      '--password',
      'guest',
    ];
    try {
      const d = template('dlx-ttl-wait-queue');
      await runScript('default.sh', exportRabbitmqadmin(d.topology, { vhost }), conn);
      expect(await readBack(vhost)).toEqual(norm(d.topology));
      const changed = template('dlx-ttl-wait-queue', { delayMs: 1234 });
      const e = await runScript('changed.sh', exportRabbitmqadmin(changed.topology, { vhost }), conn).then(
        () => undefined,
        (x: { code: number; stderr: string }) => x,
      );
      expect(e?.code).not.toBe(0);
      expect(e?.stderr).toContain('inequivalent arg');
    } finally {
      await mgmt.deleteVhost(vhost);
    }
  }, 180_000);
});
