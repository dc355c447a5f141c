/**
 * Fault-test helpers for the re-drive: find a job's connections in the management API, count
 * bodies, take the user's permissions on a vhost away, restart a test broker's app.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import amqp from 'amqplib';
import type { ManagementClient } from '../broker/index.js';
import type { TestBroker } from '../testing/testBrokers.js';
import type { RedriveJob } from './redriveJob.js';

const run = promisify(execFile);

/** The broker's names of the job's two connections (the management API lists a connection after a stats tick). */
export async function jobConnections(
  mgmt: ManagementClient,
  job: RedriveJob,
  timeoutMs = 15_000,
): Promise<{ consume: string; publish: string }> {
  const want = job.connectionNames;
  for (const end = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 100))) {
    const list = await mgmt.listConnections();
    const by = (n: string) => list.find((c) => c.client_properties?.connection_name === n)?.name;
    const consume = by(want.consume);
    const publish = by(want.publish);
    if (consume && publish) return { consume, publish };
    if (Date.now() > end)
      throw new Error(`the management API did not list ${want.consume} and ${want.publish} within ${timeoutMs} ms`);
  }
}

/** how often each body occurs, and how many bodies occur more than once */
export function bodyCounts(messages: readonly { body: string }[]): { counts: Map<string, number>; duplicated: number } {
  const counts = new Map<string, number>();
  for (const m of messages) counts.set(m.body, (counts.get(m.body) ?? 0) + 1);
  let duplicated = 0;
  for (const c of counts.values()) duplicated += c - 1;
  return { counts, duplicated };
}

/** DELETE /api/permissions/VHOST/guest: new connections to the vhost are refused (grant back with createVhost) */
export async function revokePermissions(broker: TestBroker, vhost: string): Promise<void> {
  const r = await fetch(`${broker.managementUrl}/api/permissions/${encodeURIComponent(vhost)}/guest`, {
    method: 'DELETE',
    headers: { authorization: 'Basic ' + Buffer.from('guest:guest').toString('base64') },
  });
  if (!r.ok) throw new Error(`revoking permissions on ${vhost}: HTTP ${r.status}`);
}

/** rabbitmqctl stop_app / start_app on a test broker (3.10 on the host, 4.3 in its chroot); start_app waits until AMQP and management answer */
export async function brokerApp(broker: TestBroker, action: 'stop_app' | 'start_app'): Promise<void> {
  const cmd =
    broker.name === '3.10'
      ? (['rabbitmqctl', [action]] as const)
      : ([
          'chroot',
          [
            '/var/lib/retry-studio/rabbitmq-4.3',
            'env',
            '-i',
            'PATH=/usr/sbin:/usr/bin:/sbin:/bin',
            'HOME=/var/lib/rabbitmq',
            'ERL_EPMD_PORT=4370',
            'rabbitmqctl',
            '-n',
            'rabbit4@localhost',
            action,
          ],
        ] as const);
  await run(cmd[0], [...cmd[1]], { timeout: 120_000 });
  if (action === 'stop_app') return;
  for (const end = Date.now() + 120_000; ; await new Promise((r) => setTimeout(r, 500))) {
    try {
      const c = await amqp.connect(broker.amqpUrl);
      await c.close();
      const r = await fetch(`${broker.managementUrl}/api/overview`, {
        headers: { authorization: 'Basic ' + Buffer.from('guest:guest').toString('base64') },
      });
      if (r.ok) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > end) throw new Error(`RabbitMQ ${broker.name} did not come back`);
  }
}

/** every body of a queue, drained on a fresh connection (the fixture's own one does not survive a restart) */
export async function drainBodies(broker: TestBroker, vhost: string, queue: string): Promise<{ body: string }[]> {
  const url = new URL(broker.amqpUrl);
  url.pathname = '/' + encodeURIComponent(vhost);
  const c = await amqp.connect(url.toString());
  try {
    const ch = await c.createChannel();
    const out: { body: string }[] = [];
    for (;;) {
      const m = await ch.get(queue, { noAck: true });
      if (!m) break;
      out.push({ body: m.content.toString() });
    }
    return out;
  } finally {
    await c.close().catch(() => undefined);
  }
}
