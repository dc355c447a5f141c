/**
 * Removes only what this tool created for a deployment (the manifest says what: exchanges,
 * queues, bindings and policies). A queue that holds messages or has consumers is refused unless
 * `force`; with force, the report says how many messages went.
 *
 * Without force, a classic queue or stream is deleted with if-empty/if-unused, so a message
 * arriving between the check and the delete is not lost. RabbitMQ (3.10 and 4.x) does not
 * implement those flags for quorum queues: it closes the whole connection (540 NOT_IMPLEMENTED).
 * A quorum queue is therefore looked at again (passive declare) just before a plain delete.
 *
 * Whatever the tool created and is still on the broker afterwards is listed in `left`, with why,
 * and makes `ok` false: a teardown never says done with something of its own still there.
 */
import type { Channel } from 'amqplib';
import type { ManagedConnection } from '../broker/connection.js';
import type { ManagementClient } from '../broker/management.js';
import type { DeploymentRecord } from './manifest.js';
import { brokerMessage } from './brokerMessage.js';
import type { LeftBehind, QueueOccupancy, TeardownResponse } from '@retry-studio/contract';

/** Refused before anything was deleted: queues that hold messages or have consumers, without force. */
export interface TeardownRefused {
  readonly ok: false;
  readonly refused: readonly QueueOccupancy[];
  readonly message: string;
}

/** Done: the contract's TeardownResponse but the target (the route adds it). */
export type TeardownDone = Omit<TeardownResponse, 'target'>;

export type { LeftBehind, QueueOccupancy };
export type TeardownResult = TeardownRefused | TeardownDone;

async function withChannel<T>(conn: ManagedConnection, fn: (ch: Channel) => Promise<T>): Promise<T> {
  const ch = await conn.createChannel();
  try {
    return await fn(ch);
  } finally {
    await ch.close().catch(() => undefined);
  }
}

/** A queue as the teardown sees it before deleting: its occupancy and whether it is a quorum queue. */
interface QueueState extends QueueOccupancy {
  readonly quorum: boolean;
  readonly stream: boolean;
}

/** A queue that exists but cannot be looked at (the broker's words): it is left, never deleted blind. */
interface Unreadable {
  readonly unreadable: string;
}

/**
 * Ready messages and consumers (exact, from a passive declare on a throwaway channel), plus
 * unacked from the management API. A stream's passive declare counts 0 whatever it holds, and
 * if-empty does not protect it (RabbitMQ deletes a stream holding messages with if-empty set):
 * its messages are the management API's, and until that has counted it (a few seconds after it
 * was declared) the count is unknown, which a teardown without force treats as not empty.
 */
async function queueState(
  conn: ManagedConnection,
  mgmt: ManagementClient,
  vhost: string,
  queue: string,
): Promise<QueueState | Unreadable | undefined> {
  let ok: { messageCount: number; consumerCount: number };
  try {
    ok = await withChannel(conn, (ch) => ch.checkQueue(queue));
  } catch (err) {
    // 404: gone; anything else (405 locked by another connection's exclusive queue...) is not
    return /\b404\b|NOT_FOUND/.test(String((err as Error)?.message)) ? undefined : { unreadable: brokerMessage(err) };
  }
  const m = await mgmt.queue(vhost, queue).catch(() => undefined);
  const type = m?.type ?? m?.arguments['x-queue-type'];
  if (type === 'stream') {
    const counted = typeof m?.messages === 'number';
    return {
      queue,
      messages: counted ? Math.max(ok.messageCount, m.messages as number) : 0,
      consumers: ok.consumerCount,
      quorum: false,
      stream: true,
      ...(counted ? {} : { countUnknown: true as const }),
    };
  }
  return {
    queue,
    messages: ok.messageCount + (m?.messages_unacknowledged ?? 0),
    consumers: ok.consumerCount,
    quorum: type === 'quorum',
    stream: false,
  };
}

const busy = (o: QueueOccupancy): boolean => o.messages > 0 || o.consumers > 0 || o.countUnknown === true;
const describe = (o: QueueOccupancy): string =>
  `${o.countUnknown ? 'a stream not counted yet by the management API (its statistics come a few seconds late)' : `${o.messages} messages`}, ${o.consumers} consumers`;

export async function teardown(
  record: DeploymentRecord,
  conn: ManagedConnection,
  mgmt: ManagementClient,
  force: boolean,
): Promise<TeardownResult> {
  const states: QueueState[] = [];
  const alreadyGone: string[] = [];
  const left: LeftBehind[] = [];
  for (const q of record.queues) {
    const s = await queueState(conn, mgmt, record.vhost, q);
    if (!s) alreadyGone.push(q);
    else if ('unreadable' in s)
      left.push({ kind: 'queue', name: q, why: `its state could not be read, so it was not deleted: ${s.unreadable}` });
    else states.push(s);
  }
  const refused = states.filter(busy).map((s) => ({
    queue: s.queue,
    messages: s.messages,
    consumers: s.consumers,
    ...(s.countUnknown ? { countUnknown: s.countUnknown } : {}),
  }));
  if (refused.length > 0 && !force) {
    return {
      ok: false,
      refused,
      message:
        `refusing to delete ${refused.length} queue(s) that hold messages or have consumers: ` +
        refused.map((b) => `'${b.queue}' (${describe(b)})`).join(', ') +
        '; send "force": true to delete them anyway',
    };
  }
  let bindings = 0;
  for (const b of record.bindings) {
    try {
      await withChannel(conn, (ch) =>
        b.destination_type === 'queue'
          ? ch.unbindQueue(b.destination, b.source, b.routing_key, { ...(b.arguments ?? {}) })
          : ch.unbindExchange(b.destination, b.source, b.routing_key, { ...(b.arguments ?? {}) }),
      );
      bindings += 1;
    } catch {
      /* the source or destination is already gone, and the binding with it */
    }
  }
  const queues: string[] = [];
  let messagesDeleted = 0;
  const counted: QueueOccupancy[] = [];
  for (const s of states) {
    try {
      if (s.quorum && !force) {
        // no if-empty for a quorum queue: the check again, as close to the delete as a client can
        const now = await queueState(conn, mgmt, record.vhost, s.queue);
        if (now && 'unreadable' in now) {
          left.push({
            kind: 'queue',
            name: s.queue,
            why: `its state could not be read, so it was not deleted: ${now.unreadable}`,
          });
          continue;
        }
        if (now && busy(now)) {
          left.push({
            kind: 'queue',
            name: s.queue,
            why: `it holds messages or has consumers since the check (${describe(now)}); send "force": true to delete it anyway`,
          });
          continue;
        }
      }
      const r = await withChannel(conn, (ch) =>
        ch.deleteQueue(s.queue, force || s.quorum ? {} : { ifEmpty: true, ifUnused: true }),
      );
      queues.push(s.queue);
      // a stream's delete-ok counts 0: what the management API counted went with it
      const messages = s.stream ? Math.max(r.messageCount, s.messages) : r.messageCount;
      messagesDeleted += messages;
      counted.push({ queue: s.queue, consumers: s.consumers, messages });
    } catch (err) {
      left.push({ kind: 'queue', name: s.queue, why: brokerMessage(err) });
    }
  }
  const exchanges: string[] = [];
  for (const e of record.exchanges) {
    try {
      await withChannel(conn, (ch) => ch.deleteExchange(e, {}));
      exchanges.push(e);
    } catch (err) {
      left.push({ kind: 'exchange', name: e, why: brokerMessage(err) });
    }
  }
  // only the policies this tool created (the manifest names them); a missing one is fine
  const policies: string[] = [];
  for (const p of record.policies) {
    try {
      await mgmt.deletePolicy(record.vhost, p);
      policies.push(p);
    } catch (err) {
      left.push({ kind: 'policy', name: p, why: brokerMessage(err) });
    }
  }
  left.push(...(await stillThere(record, mgmt, left, { queues, exchanges })));
  let deletedVhost = false;
  if (record.createdVhost && left.length === 0) {
    const others = (await mgmt.listQueues(record.vhost).catch(() => [])).length;
    if (others === 0) {
      await mgmt.deleteVhost(record.vhost);
      deletedVhost = true;
    } else
      left.push({ kind: 'vhost', name: record.vhost, why: `it holds ${others} queue(s) this tool did not create` });
  }
  return {
    ok: left.length === 0,
    deleted: { exchanges, queues, bindings, policies },
    messagesDeleted,
    perQueue: counted,
    alreadyGone,
    deletedVhost,
    left,
    errors: left.map((l) => `${l.kind} '${l.name}': ${l.why}`),
  };
}

/**
 * What the broker still holds of the deleted queues and exchanges (the management API's view):
 * a delete that answered ok yet left the object, or one whose connection closed under it.
 */
async function stillThere(
  record: DeploymentRecord,
  mgmt: ManagementClient,
  known: readonly LeftBehind[],
  deleted: { queues: readonly string[]; exchanges: readonly string[] },
): Promise<LeftBehind[]> {
  const named = new Set(known.map((l) => `${l.kind}\u0000${l.name}`));
  const out: LeftBehind[] = [];
  const [queues, exchanges] = await Promise.all([
    mgmt.listQueues(record.vhost).catch(() => undefined),
    mgmt.listExchanges(record.vhost).catch(() => undefined),
  ]);
  if (!queues || !exchanges)
    return [
      { kind: 'vhost', name: record.vhost, why: 'the management API could not list what is left: check it by hand' },
    ];
  const why = (name: string, done: readonly string[]) =>
    done.includes(name) ? 'the broker still lists it after its delete' : 'it was not deleted';
  for (const q of queues)
    if (record.queues.includes(q.name) && !named.has(`queue\u0000${q.name}`))
      out.push({ kind: 'queue', name: q.name, why: why(q.name, deleted.queues) });
  for (const e of exchanges)
    if (record.exchanges.includes(e.name) && !named.has(`exchange\u0000${e.name}`))
      out.push({ kind: 'exchange', name: e.name, why: why(e.name, deleted.exchanges) });
  return out;
}
