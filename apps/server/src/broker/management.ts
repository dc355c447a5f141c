/**
 * A small client for RabbitMQ's management HTTP API (fetch), with the credentials of the AMQP URL.
 * The base URL is http://<amqp host>:15672 unless RETRY_STUDIO_MANAGEMENT_URL says otherwise.
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
  readonly [k: string]: unknown;
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

export interface MgmtPolicy {
  readonly name: string;
  readonly vhost: string;
  readonly pattern: string;
  readonly 'apply-to'?: string;
  readonly priority?: number;
  readonly definition: Record<string, unknown>;
}

/** GET /api/definitions/{vhost}: objects without a `vhost` field; exclusive queues are not in it. */
export interface MgmtVhostDefinitions {
  readonly rabbit_version?: string;
  readonly rabbitmq_version?: string;
  readonly exchanges: readonly Omit<MgmtExchange, 'vhost'>[];
  readonly queues: readonly { readonly name: string; readonly durable: boolean; readonly auto_delete: boolean; readonly arguments: Record<string, unknown>; readonly type?: string }[];
  readonly bindings: readonly Omit<MgmtBinding, 'vhost'>[];
  readonly policies?: readonly Omit<MgmtPolicy, 'vhost'>[];
}

/** One row of `queueDepths`: only the columns asked for (rates absent until stats exist). */
export interface MgmtQueueDepth {
  readonly name: string;
  readonly type?: string;
  readonly consumers?: number;
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
  /** e.g. http://127.0.0.1:15672 (default: the AMQP host, port 15672, or RETRY_STUDIO_MANAGEMENT_URL) */
  baseUrl?: string;
  timeoutMs?: number;
}

const enc = encodeURIComponent;

export class ManagementClient {
  readonly baseUrl: string;
  private readonly auth: string;
  private readonly timeoutMs: number;

  constructor(
    readonly amqp: AmqpUrl,
    options: ManagementOptions = {},
  ) {
    const host = amqp.hostname.includes(':') ? `[${amqp.hostname}]` : amqp.hostname;
    this.baseUrl = (options.baseUrl ?? process.env.RETRY_STUDIO_MANAGEMENT_URL ?? `http://${host}:15672`).replace(/\/+$/, '');
    this.auth = 'Basic ' + Buffer.from(`${amqp.username}:${amqp.password}`).toString('base64');
    this.timeoutMs = options.timeoutMs ?? 5000;
  }

  private async request<T>(method: string, path: string, body?: unknown, okStatuses: number[] = []): Promise<T | undefined> {
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
      throw new ManagementError(`management API at ${this.baseUrl} ${reason} (is the rabbitmq_management plugin enabled?)`, undefined, { cause: err });
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
      if (res.status === 401) throw new ManagementError(`management API refused user '${this.amqp.username}' (401) for ${what}`, 401);
      if (res.status === 403) throw new ManagementError(`user '${this.amqp.username}' lacks the management permission for ${what} (403)${reason ? ': ' + reason : ''}`, 403);
      if (res.status === 404) throw new ManagementError(`not found: ${what}${reason ? ' (' + reason + ')' : ''}`, 404);
      throw new ManagementError(`management API ${what} failed with ${res.status}${reason ? ': ' + reason : ''}`, res.status);
    }
    if (res.status === 204 || res.headers.get('content-length') === '0') return undefined;
    const text = await res.text();
    return text === '' ? undefined : (JSON.parse(text) as T);
  }

  async overview(): Promise<Overview> {
    return (await this.request<Overview>('GET', '/api/overview'))!;
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

  async listVhosts(): Promise<{ name: string }[]> {
    return (await this.request<{ name: string }[]>('GET', '/api/vhosts')) ?? [];
  }

  /** Creates the vhost and grants the URL's user full permissions on it. */
  async createVhost(name: string): Promise<void> {
    await this.request('PUT', `/api/vhosts/${enc(name)}`, {});
    await this.request('PUT', `/api/permissions/${enc(name)}/${enc(this.amqp.username)}`, { configure: '.*', write: '.*', read: '.*' });
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
      'messages_ready',
      'messages_unacknowledged',
      'message_stats.publish_details.rate',
      'message_stats.deliver_get_details.rate',
    ].join(',');
    return (await this.request<MgmtQueueDepth[]>('GET', `/api/queues/${enc(vhost)}?columns=${columns}`)) ?? [];
  }

  /** One vhost's definitions (exchanges, queues, bindings, policies; no stats): one request, fast for thousands of queues. */
  async vhostDefinitions(vhost: string): Promise<MgmtVhostDefinitions> {
    return (await this.request<MgmtVhostDefinitions>('GET', `/api/definitions/${enc(vhost)}`)) ?? { exchanges: [], queues: [], bindings: [], policies: [] };
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
