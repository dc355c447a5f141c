/**
 * Removes only what this tool created for a deployment (the manifest says what: exchanges,
 * queues, bindings and policies). A queue that
 * holds messages or has consumers is refused unless `force`; with force, the report says how
 * many messages went. Without force the deletes also carry if-empty/if-unused, so a message
 * arriving between the check and the delete is not lost either.
 */
import type { Channel } from 'amqplib';
import type { ManagedConnection } from '../broker/connection.js';
import type { ManagementClient } from '../broker/management.js';
import type { DeploymentRecord } from './manifest.js';
import { brokerMessage } from './brokerMessage.js';

export interface QueueOccupancy {
  readonly queue: string;
  readonly messages: number;
  readonly consumers: number;
}

export type TeardownResult =
  | { readonly ok: false; readonly refused: readonly QueueOccupancy[]; readonly message: string }
  | {
      readonly ok: true;
      readonly deleted: { readonly exchanges: readonly string[]; readonly queues: readonly string[]; readonly bindings: number; readonly policies: readonly string[] };
      /** messages that were in the deleted queues */
      readonly messagesDeleted: number;
      readonly perQueue: readonly QueueOccupancy[];
      readonly alreadyGone: readonly string[];
      readonly deletedVhost: boolean;
      readonly errors: readonly string[];
    };

async function withChannel<T>(conn: ManagedConnection, fn: (ch: Channel) => Promise<T>): Promise<T> {
  const ch = await conn.createChannel();
  try {
    return await fn(ch);
  } finally {
    await ch.close().catch(() => undefined);
  }
}

/** Ready messages and consumers (exact, from a passive declare on a throwaway channel), plus unacked from the management API. */
export async function occupancy(conn: ManagedConnection, mgmt: ManagementClient, vhost: string, queue: string): Promise<QueueOccupancy | undefined> {
  let ok: { messageCount: number; consumerCount: number };
  try {
    ok = await withChannel(conn, (ch) => ch.checkQueue(queue));
  } catch {
    return undefined; // 404: gone
  }
  const m = await mgmt.queue(vhost, queue).catch(() => undefined);
  return { queue, messages: ok.messageCount + (m?.messages_unacknowledged ?? 0), consumers: ok.consumerCount };
}

export async function teardown(record: DeploymentRecord, conn: ManagedConnection, mgmt: ManagementClient, force: boolean): Promise<TeardownResult> {
  const perQueue: QueueOccupancy[] = [];
  const alreadyGone: string[] = [];
  for (const q of record.queues) {
    const o = await occupancy(conn, mgmt, record.vhost, q);
    if (o) perQueue.push(o);
    else alreadyGone.push(q);
  }
  const busy = perQueue.filter((o) => o.messages > 0 || o.consumers > 0);
  if (busy.length > 0 && !force) {
    return {
      ok: false,
      refused: busy,
      message:
        `refusing to delete ${busy.length} queue(s) that hold messages or have consumers: ` +
        busy.map((b) => `'${b.queue}' (${b.messages} messages, ${b.consumers} consumers)`).join(', ') +
        '; send "force": true to delete them anyway',
    };
  }
  const errors: string[] = [];
  let bindings = 0;
  for (const b of record.bindings) {
    try {
      await withChannel(conn, (ch) =>
        b.destination_type === 'queue' ? ch.unbindQueue(b.destination, b.source, b.routing_key, { ...(b.arguments ?? {}) }) : ch.unbindExchange(b.destination, b.source, b.routing_key, { ...(b.arguments ?? {}) }),
      );
      bindings += 1;
    } catch {
      /* the source or destination is already gone, and the binding with it */
    }
  }
  const queues: string[] = [];
  let messagesDeleted = 0;
  const counted: QueueOccupancy[] = [];
  for (const o of perQueue) {
    try {
      const r = await withChannel(conn, (ch) => ch.deleteQueue(o.queue, force ? {} : { ifEmpty: true, ifUnused: true }));
      queues.push(o.queue);
      messagesDeleted += r.messageCount;
      counted.push({ ...o, messages: r.messageCount });
    } catch (err) {
      errors.push(`queue '${o.queue}': ${brokerMessage(err)}`);
    }
  }
  const exchanges: string[] = [];
  for (const e of record.exchanges) {
    try {
      await withChannel(conn, (ch) => ch.deleteExchange(e, {}));
      exchanges.push(e);
    } catch (err) {
      errors.push(`exchange '${e}': ${brokerMessage(err)}`);
    }
  }
  // only the policies this tool created (the manifest names them); a missing one is fine
  const policies: string[] = [];
  for (const p of record.policies) {
    try {
      await mgmt.deletePolicy(record.vhost, p);
      policies.push(p);
    } catch (err) {
      errors.push(`policy '${p}': ${brokerMessage(err)}`);
    }
  }
  let deletedVhost = false;
  if (record.createdVhost && errors.length === 0) {
    const left = (await mgmt.listQueues(record.vhost).catch(() => [])).length;
    if (left === 0) {
      await mgmt.deleteVhost(record.vhost);
      deletedVhost = true;
    }
  }
  return { ok: true, deleted: { exchanges, queues, bindings, policies }, messagesDeleted, perQueue: counted, alreadyGone, deletedVhost, errors };
}
