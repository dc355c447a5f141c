/**
 * Broker handles per target (broker URL + vhost): the verified management client and one managed
 * connection per purpose, so a failed declaration on 'apply' never touches 'trace'.
 */
import { createHash } from 'node:crypto';
import { HostNotAllowedError, redactUrl, withVhost, type AmqpUrl } from './amqpUrl.js';
import { ManagedConnection, type ConnectionPurpose } from './connection.js';
import type { ManagementClient } from './management.js';
import { ManagementUrlError } from './managementUrl.js';
import { probeBrokerWithManagement, type BrokerProbe } from './probe.js';
import { requireManagement, resolveManagement, type ManagementResolution } from './resolveManagement.js';

/** A `managementUrl` the caller gave that is not a URL or is on a host off the allow-list: the caller's fault (the HTTP layer answers 400/403 naming the field). */
export class ManagementUrlRejected extends Error {
  constructor(
    readonly reason: 'malformed' | 'not-allowed',
    message: string,
  ) {
    super(message);
  }
}

function managementUrlFailure(err: unknown): never {
  if (err instanceof ManagementUrlError)
    throw new ManagementUrlRejected('malformed', `bad management URL: ${err.message}`);
  if (err instanceof HostNotAllowedError)
    throw new ManagementUrlRejected('not-allowed', err.message.replace(/^broker host/, 'management host'));
  throw err;
}

/** Cache key for a URL: never the password itself, but different credentials never share a handle. */
function credKey(url: AmqpUrl): string {
  return createHash('sha256').update(`${url.username}\u0000${url.password}`).digest('hex').slice(0, 16);
}

/** A verified management API is trusted this long before its identity is checked again. */
const VERIFIED_TTL_MS = 30_000;

/** a leased connection: `release()` once the job that uses it has ended */
export interface ConnectionLease {
  readonly conn: ManagedConnection;
  release(): void;
}

interface HeldConnection {
  readonly conn: ManagedConnection;
  users: number;
  idle: ReturnType<typeof setTimeout> | undefined;
  readonly started: Promise<void>;
}

/** how long an unleased connection stays open for the next request before it is closed */
const IDLE_CLOSE_MS = 3_000;

export class Brokers {
  private readonly conns = new Map<string, HeldConnection>();

  constructor(private readonly idleCloseMs = IDLE_CLOSE_MS) {}
  private readonly mgmts = new Map<
    string,
    { resolution: Extract<ManagementResolution, { kind: 'verified' }>; at: number }
  >();

  private mgmtKey(url: AmqpUrl, managementUrl: string | undefined): string {
    return `${redactUrl({ ...url, vhost: '/' })}|${credKey(url)}|${managementUrl ?? ''}`;
  }

  private remember(url: AmqpUrl, managementUrl: string | undefined, r: ManagementResolution): void {
    const k = this.mgmtKey(url, managementUrl);
    if (r.kind === 'verified') this.mgmts.set(k, { resolution: r, at: Date.now() });
    else this.mgmts.delete(k);
  }

  /**
   * The management API of the broker at `url` (the given one, RETRY_STUDIO_MANAGEMENT_URL, or
   * discovered), verified to be that broker's; throws ManagementResolutionError otherwise.
   */
  async management(url: AmqpUrl, managementUrl?: string): Promise<ManagementClient> {
    const hit = this.mgmts.get(this.mgmtKey(url, managementUrl));
    if (hit && Date.now() - hit.at < VERIFIED_TTL_MS) return hit.resolution.client;
    const r = await resolveManagement(url, { ...(managementUrl !== undefined ? { managementUrl } : {}) }).catch(
      managementUrlFailure,
    );
    this.remember(url, managementUrl, r);
    return requireManagement(r);
  }

  /** Probes the broker; a verified management API it found is kept for the requests that follow. */
  async probe(url: AmqpUrl, managementUrl?: string): Promise<BrokerProbe> {
    const { probe, resolution } = await probeBrokerWithManagement(url, {
      ...(managementUrl !== undefined ? { managementUrl } : {}),
    }).catch(managementUrlFailure);
    this.remember(url, managementUrl, resolution);
    return probe;
  }

  /**
   * A started connection for this purpose on `vhost`, leased: requests that overlap share it, and
   * it is closed once the last lease is released and it has been idle for `idleCloseMs` (a job that
   * ended leaves no connection open on the broker). Release every lease (`finally`).
   * `label`: a connection of its own, named `retry-studio:<purpose>:<label>` on the broker (a live
   * trace's: its loss, reconnect or refusal is its own, and it can be found by name).
   */
  async lease(url: AmqpUrl, vhost: string, purpose: ConnectionPurpose, label?: string): Promise<ConnectionLease> {
    const target = withVhost(url, vhost);
    const k = `${purpose}|${redactUrl(target)}|${credKey(url)}|${label ?? ''}`;
    let held = this.conns.get(k);
    if (!held) {
      const conn = new ManagedConnection(target, purpose, label !== undefined ? { label } : {});
      const h: HeldConnection = { conn, users: 0, idle: undefined, started: conn.start().then(() => undefined) };
      held = h;
      this.conns.set(k, h);
      h.started.catch(() => {
        if (this.conns.get(k) === h) this.conns.delete(k);
      });
    }
    await held.started;
    const h = held;
    if (h.idle) clearTimeout(h.idle);
    h.idle = undefined;
    h.users += 1;
    let released = false;
    return {
      conn: h.conn,
      release: () => {
        if (released) return;
        released = true;
        h.users -= 1;
        if (h.users > 0) return;
        h.idle = setTimeout(() => {
          if (h.users > 0 || this.conns.get(k) !== h) return;
          this.conns.delete(k);
          void h.conn.close();
        }, this.idleCloseMs);
        h.idle.unref?.();
      },
    };
  }

  /** Runs `fn` on a leased connection and releases it, whatever happened. */
  async using<T>(
    url: AmqpUrl,
    vhost: string,
    purpose: ConnectionPurpose,
    fn: (conn: ManagedConnection) => Promise<T>,
  ): Promise<T> {
    const l = await this.lease(url, vhost, purpose);
    try {
      return await fn(l.conn);
    } finally {
      l.release();
    }
  }

  /** connections open now, by purpose (tests and the status route read it) */
  openConnections(): Array<{ purpose: ConnectionPurpose; users: number }> {
    return [...this.conns.values()].map((h) => ({ purpose: h.conn.purpose, users: h.users }));
  }

  /** Drop (and close) every connection on this vhost, e.g. after the vhost was deleted. */
  forget(url: AmqpUrl, vhost: string): void {
    const needle = `|${redactUrl(withVhost(url, vhost))}|`;
    for (const [k, c] of this.conns) {
      if (k.includes(needle)) {
        if (c.idle) clearTimeout(c.idle);
        void c.conn.close();
        this.conns.delete(k);
      }
    }
  }

  async closeAll(): Promise<void> {
    for (const c of this.conns.values()) if (c.idle) clearTimeout(c.idle);
    await Promise.all([...this.conns.values()].map((c) => c.conn.close()));
    this.conns.clear();
  }
}
