/**
 * A small client for RabbitMQ's management HTTP API (fetch), with the credentials of the AMQP URL.
 * The base URL is always explicit: `resolveManagement` (resolveManagement.ts) finds it and checks
 * that it belongs to the same broker as the AMQP URL, so nothing derives it on its own.
 */
import { redactUrl, type AmqpUrl } from './amqpUrl.js';

export class ManagementError extends Error {
  override readonly name = 'ManagementError';
  constructor(
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface ExchangeTypeInfo {
  readonly name: string;
  readonly description?: string;
  readonly enabled?: boolean;
}

export interface Overview {
  readonly management_version?: string;
  readonly rabbitmq_version?: string;
  readonly product_version?: string;
  readonly product_name?: string;
  readonly cluster_name?: string;
  readonly node?: string;
  readonly exchange_types: readonly ExchangeTypeInfo[];
  readonly [k: string]: unknown;
}

export interface MgmtExchange {
  readonly name: string;
  readonly vhost: string;
  readonly type: string;
  readonly durable: boolean;
  readonly auto_delete: boolean;
  readonly internal: boolean;
  readonly arguments: Record<string, unknown>;
}

export interface MgmtQueue {
  readonly name: string;
  readonly vhost: string;
  readonly durable: boolean;
  readonly auto_delete: boolean;
  readonly arguments: Record<string, unknown>;
  readonly type?: string;
  readonly messages?: number;
  readonly messages_ready?: number;
  readonly messages_unacknowledged?: number;
  readonly consumers?: number;
  /** the policy the broker applies to the queue ('' or absent: none, or not counted yet) */
  readonly policy?: string;
  /** the node a classic queue lives on; a quorum queue's leader */
  readonly node?: string;
  /** quorum queues and streams: the replicas, the leader and the replicas now reachable */
  readonly members?: readonly string[];
  readonly leader?: string;
  readonly online?: readonly string[];
  readonly [k: string]: unknown;
}

/** One node as GET /api/nodes lists it (applications only while it runs). */
export interface MgmtNode {
  readonly name: string;
  readonly running: boolean;
  readonly type?: string;
  readonly applications?: readonly { readonly name: string; readonly version: string }[];
}

/** A node's resource state (GET /api/nodes/NODE): memory and disk against their alarms. */
export interface MgmtNodeResources {
  readonly name: string;
  readonly mem_used?: number;
  readonly mem_limit?: number;
  readonly mem_alarm?: boolean;
  readonly disk_free?: number;
  readonly disk_free_limit?: number;
  readonly disk_free_alarm?: boolean;
}

export interface MgmtBinding {
  readonly source: string;
  readonly vhost: string;
  readonly destination: string;
  readonly destination_type: 'queue' | 'exchange';
  readonly routing_key: string;
  readonly arguments: Record<string, unknown>;
  readonly properties_key?: string;
}

/** A policy or operator policy as GET /api/policies/{vhost} lists it. */
export interface MgmtPolicy {
  readonly name: string;
  readonly vhost: string;
  readonly pattern: string;
  readonly 'apply-to': string;
  readonly priority: number;
  readonly definition: Record<string, unknown>;
}

/** What PUT /api/policies/{vhost}/{name} takes. */
export interface PolicyBody {
  readonly pattern: string;
  readonly 'apply-to': string;
  readonly priority: number;
  readonly definition: Record<string, unknown>;
}

/** What `vhostDefinitions` answers, typed for the operate import: objects without a `vhost` field; exclusive queues are not in it. */
export interface MgmtVhostDefinitions {
  readonly rabbit_version?: string;
  readonly rabbitmq_version?: string;
  readonly exchanges: readonly Omit<MgmtExchange, 'vhost'>[];
  readonly queues: readonly {
    readonly name: string;
    readonly durable: boolean;
    readonly auto_delete: boolean;
    readonly arguments: Record<string, unknown>;
    readonly type?: string;
  }[];
  readonly bindings: readonly Omit<MgmtBinding, 'vhost'>[];
  readonly policies?: readonly Omit<MgmtPolicy, 'vhost'>[];
}

/** One row of `queueDepths`: only the columns asked for (rates absent until stats exist). */
export interface MgmtQueueDepth {
  readonly name: string;
  readonly type?: string;
  readonly consumers?: number;
  /** the policy the broker applies to the queue ('' or absent: none) */
  readonly policy?: string;
  readonly messages_ready?: number;
  readonly messages_unacknowledged?: number;
  readonly message_stats?: {
    readonly publish_details?: { readonly rate: number };
    readonly deliver_get_details?: { readonly rate: number };
  };
}

export interface MgmtConnection {
  readonly name: string;
  readonly user?: string;
  readonly vhost?: string;
  readonly client_properties?: { readonly connection_name?: string; readonly [k: string]: unknown };
}

export interface ManagementOptions {
  /** e.g. http://127.0.0.1:15672 */
  baseUrl: string;
  timeoutMs?: number;
}

const enc = encodeURIComponent;

export class ManagementClient {
  readonly baseUrl: string;
  private readonly auth: string;
  private readonly timeoutMs: number;

  constructor(
    readonly amqp: AmqpUrl,
    options: ManagementOptions,
  ) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.auth = 'Basic ' + Buffer.from(`${amqp.username}:${amqp.password}`).toString('base64');
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  private async request<T>(
    method: string,
    path: string,
    body?: unknown,
    okStatuses: number[] = [],
  ): Promise<T | undefined> {
    let res: Response;
    try {
      res = await fetch(this.baseUrl + path, {
        method,
        headers: {
          authorization: this.auth,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const reason = (err as Error).name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : 'not reachable';
      throw new ManagementError(
        `management API at ${this.baseUrl} ${reason} (is the rabbitmq_management plugin enabled?)`,
        undefined,
        { cause: err },
      );
    }
    if (okStatuses.includes(res.status)) return undefined;
    if (!res.ok) {
      let reason = '';
      try {
        const j = (await res.json()) as { reason?: string; error?: string };
        reason = j.reason ?? j.error ?? '';
      } catch {
        /* not JSON */
      }
      const what = `${method} ${path}`;
      if (res.status === 401)
        throw new ManagementError(`management API refused user '${this.amqp.username}' (401) for ${what}`, 401);
      if (res.status === 403)
        throw new ManagementError(
          `user '${this.amqp.username}' lacks the management permission for ${what} (403)${reason ? ': ' + reason : ''}`,
          403,
        );
      if (res.status === 404) throw new ManagementError(`not found: ${what}${reason ? ' (' + reason + ')' : ''}`, 404);
      throw new ManagementError(
        `management API ${what} failed with ${res.status}${reason ? ': ' + reason : ''}`,
        res.status,
      );
    }
    if (res.status === 204 || res.headers.get('content-length') === '0') return undefined;
    const text = await res.text();
    if (text === '') return undefined;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ManagementError(
        `${this.baseUrl} is not a RabbitMQ management API (${method} ${path} answered ${res.status} with something other than JSON)`,
        res.status,
      );
    }
  }

  async overview(): Promise<Overview> {
    const ov = await this.request<Overview>('GET', '/api/overview');
    if (!ov || typeof ov !== 'object' || !Array.isArray(ov.exchange_types) || typeof ov.rabbitmq_version !== 'string')
      throw new ManagementError(
        `${this.baseUrl} is not a RabbitMQ management API (GET /api/overview has no rabbitmq_version or exchange_types)`,
      );
    return ov;
  }

  /** True when the API answers with these credentials. */
  async available(): Promise<boolean> {
    try {
      await this.overview();
      return true;
    } catch {
      return false;
    }
  }

  /** The cluster's nodes (a single broker is a one-node cluster). */
  async nodes(): Promise<MgmtNode[]> {
    return (await this.request<MgmtNode[]>('GET', '/api/nodes')) ?? [];
  }

  /** One node's memory and disk against its alarms. */
  async nodeResources(node: string): Promise<MgmtNodeResources> {
    return (
      (await this.request<MgmtNodeResources>('GET', `/api/nodes/${enc(node)}?memory=false&binary=false`)) ?? {
        name: node,
      }
    );
  }

  /** The node's memory breakdown by category (bytes: queue_procs, binary, quorum_ets, msg_index, ...), read live, not from statistics; `messageMemoryBytes` sums what holds messages. */
  async nodeMemory(node: string): Promise<Record<string, number>> {
    const r = await this.request<{ memory?: Record<string, unknown> }>('GET', `/api/nodes/${enc(node)}/memory`);
    const out: Record<string, number> = {};
    for (const [k, v] of Object.entries(r?.memory ?? {})) if (typeof v === 'number') out[k] = v;
    const total = r?.memory?.total as Record<string, unknown> | undefined;
    for (const k of ['rss', 'allocated', 'erlang']) if (typeof total?.[k] === 'number') out[`total_${k}`] = total[k];
    return out;
  }

  /** the vhosts with the metadata the broker keeps (3.8+: description and tags) */
  async listVhosts(): Promise<{ name: string; description?: string; tags?: string[] | string }[]> {
    return (
      (await this.request<{ name: string; description?: string; tags?: string[] | string }[]>('GET', '/api/vhosts')) ??
      []
    );
  }

  /** Creates the vhost (with a description and tags the broker keeps) and grants the URL's user full permissions on it. */
  async createVhost(name: string, metadata: { description?: string; tags?: readonly string[] } = {}): Promise<void> {
    await this.request('PUT', `/api/vhosts/${enc(name)}`, {
      ...(metadata.description !== undefined ? { description: metadata.description } : {}),
      ...(metadata.tags !== undefined ? { tags: metadata.tags.join(',') } : {}),
    });
    await this.request('PUT', `/api/permissions/${enc(name)}/${enc(this.amqp.username)}`, {
      configure: '.*',
      write: '.*',
      read: '.*',
    });
  }

  /**
   * The deprecated features in use on the broker (4.x: `GET /api/deprecated-features/used`, e.g.
   * `transient_nonexcl_queues`); undefined where the broker has no such endpoint (3.x answers 404).
   * Broker-wide, not per vhost.
   */
  async deprecatedFeaturesUsed(): Promise<string[] | undefined> {
    const r = await this.request<{ name?: string }[]>('GET', '/api/deprecated-features/used', undefined, [404]);
    return r === undefined ? undefined : r.map((f) => String(f.name ?? ''));
  }

  /** Deletes the vhost; a missing one is fine (idempotent). */
  async deleteVhost(name: string): Promise<void> {
    await this.request('DELETE', `/api/vhosts/${enc(name)}`, undefined, [404]);
  }

  async listExchanges(vhost: string): Promise<MgmtExchange[]> {
    return (await this.request<MgmtExchange[]>('GET', `/api/exchanges/${enc(vhost)}`)) ?? [];
  }

  async listQueues(vhost: string): Promise<MgmtQueue[]> {
    return (await this.request<MgmtQueue[]>('GET', `/api/queues/${enc(vhost)}`)) ?? [];
  }

  async listBindings(vhost: string): Promise<MgmtBinding[]> {
    return (await this.request<MgmtBinding[]>('GET', `/api/bindings/${enc(vhost)}`)) ?? [];
  }

  /** The vhost's definitions (`GET /api/definitions/{vhost}`): exchanges, queues, bindings, policies, as RabbitMQ exports them. */
  async vhostDefinitions(vhost: string): Promise<Record<string, unknown>> {
    return (await this.request<Record<string, unknown>>('GET', `/api/definitions/${enc(vhost)}`)) ?? {};
  }

  async listPolicies(vhost: string): Promise<MgmtPolicy[]> {
    return (await this.request<MgmtPolicy[]>('GET', `/api/policies/${enc(vhost)}`)) ?? [];
  }

  async listOperatorPolicies(vhost: string): Promise<MgmtPolicy[]> {
    return (await this.request<MgmtPolicy[]>('GET', `/api/operator-policies/${enc(vhost)}`)) ?? [];
  }

  /** Creates or replaces a policy; matching queues pick it up in place (no redeclare). */
  async putPolicy(vhost: string, name: string, body: PolicyBody): Promise<void> {
    await this.request('PUT', `/api/policies/${enc(vhost)}/${enc(name)}`, body);
  }

  /** Deletes a policy; a missing one is fine (idempotent). */
  async deletePolicy(vhost: string, name: string): Promise<void> {
    await this.request('DELETE', `/api/policies/${enc(vhost)}/${enc(name)}`, undefined, [404]);
  }

  /** Queue details (messages, consumers); undefined when the queue does not exist. */
  async queue(vhost: string, name: string): Promise<MgmtQueue | undefined> {
    try {
      return await this.request<MgmtQueue>('GET', `/api/queues/${enc(vhost)}/${enc(name)}`);
    } catch (err) {
      if (err instanceof ManagementError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** Open AMQP connections (name, user, client-provided connection_name). */
  async listConnections(): Promise<MgmtConnection[]> {
    return (await this.request<MgmtConnection[]>('GET', '/api/connections')) ?? [];
  }

  /** The channels open on a connection (as of the broker's last statistics: within its stats interval, 5 s by default). */
  async channelsOf(connectionName: string): Promise<{ name: string; number: number }[]> {
    return (
      (await this.request<{ name: string; number: number }[]>(
        'GET',
        `/api/connections/${enc(connectionName)}/channels?columns=name,number`,
        undefined,
        [404],
      )) ?? []
    );
  }

  /** Force-closes a connection (the client sees 320 CONNECTION_FORCED, as on a broker restart). */
  async closeConnection(name: string): Promise<void> {
    await this.request('DELETE', `/api/connections/${enc(name)}`, undefined, [404]);
  }

  // ---- operate (issue 10): definitions, depths and shovels of one vhost -------------------

  /**
   * Depth and rates of every queue of a vhost in ONE request (the live-depths poller calls this
   * once per interval, never once per queue): `columns` keeps the answer small.
   */
  async queueDepths(vhost: string): Promise<MgmtQueueDepth[]> {
    const columns = [
      'name',
      'type',
      'consumers',
      'policy',
      'messages_ready',
      'messages_unacknowledged',
      'message_stats.publish_details.rate',
      'message_stats.deliver_get_details.rate',
    ].join(',');
    return (await this.request<MgmtQueueDepth[]>('GET', `/api/queues/${enc(vhost)}?columns=${columns}`)) ?? [];
  }

  /** A vhost's message counters (publish, ack, deliver, redeliver ...), as the statistics database last saw them. */
  async vhostMessageStats(vhost: string): Promise<Record<string, number>> {
    const v = await this.request<{ message_stats?: Record<string, unknown> }>('GET', `/api/vhosts/${enc(vhost)}`);
    const out: Record<string, number> = {};
    for (const [k, x] of Object.entries(v?.message_stats ?? {})) if (typeof x === 'number') out[k] = x;
    return out;
  }

  /** Every queue's own memory (bytes, its process: from the statistics, within their interval) in one request. */
  async queueMemory(vhost: string): Promise<Map<string, number>> {
    const rows =
      (await this.request<{ name: string; memory?: number }[]>(
        'GET',
        `/api/queues/${enc(vhost)}?columns=name,memory`,
      )) ?? [];
    return new Map(rows.filter((r) => typeof r.memory === 'number').map((r) => [r.name, r.memory!]));
  }

  /** Loads a definitions document into one vhost (POST /api/definitions/{vhost}): the bench's fast way to make 5,000 queues. */
  async loadDefinitions(vhost: string, definitions: unknown): Promise<void> {
    await this.request('POST', `/api/definitions/${enc(vhost)}`, definitions);
  }

  /** A dynamic shovel (the rabbitmq_shovel plugin), e.g. the bench's baseline queue mover. */
  async putShovel(vhost: string, name: string, value: Record<string, unknown>): Promise<void> {
    await this.request('PUT', `/api/parameters/shovel/${enc(vhost)}/${enc(name)}`, { value });
  }

  async deleteShovel(vhost: string, name: string): Promise<void> {
    await this.request('DELETE', `/api/parameters/shovel/${enc(vhost)}/${enc(name)}`, undefined, [404]);
  }

  toString(): string {
    return `management API ${this.baseUrl} as ${redactUrl(this.amqp)}`;
  }
}

/** the node's memory categories that hold messages: queue processes, the message-store index, binaries (bodies), the quorum WAL's tables */
export const MESSAGE_MEMORY_CATEGORIES: readonly string[] = [
  'queue_procs',
  'quorum_queue_procs',
  'msg_index',
  'binary',
  'quorum_ets',
];

/** what a node's memory breakdown (`nodeMemory`) holds in messages */
export function messageMemoryBytes(memory: Readonly<Record<string, number>>): number {
  let sum = 0;
  for (const c of MESSAGE_MEMORY_CATEGORIES) sum += memory[c] ?? 0;
  return sum;
}
