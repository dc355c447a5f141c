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
  if (err instanceof ManagementUrlError) throw new ManagementUrlRejected('malformed', `bad management URL: ${err.message}`);
  if (err instanceof HostNotAllowedError) throw new ManagementUrlRejected('not-allowed', err.message.replace(/^broker host/, 'management host'));
  throw err;
}

/** Cache key for a URL: never the password itself, but different credentials never share a handle. */
function credKey(url: AmqpUrl): string {
  return createHash('sha256').update(`${url.username}\u0000${url.password}`).digest('hex').slice(0, 16);
}

/** A verified management API is trusted this long before its identity is checked again. */
const VERIFIED_TTL_MS = 30_000;

export class Brokers {
  private readonly conns = new Map<string, ManagedConnection>();
  private readonly mgmts = new Map<string, { resolution: Extract<ManagementResolution, { kind: 'verified' }>; at: number }>();

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
    const r = await resolveManagement(url, { ...(managementUrl !== undefined ? { managementUrl } : {}) }).catch(managementUrlFailure);
    this.remember(url, managementUrl, r);
    return requireManagement(r);
  }

  /** Probes the broker; a verified management API it found is kept for the requests that follow. */
  async probe(url: AmqpUrl, managementUrl?: string): Promise<BrokerProbe> {
    const { probe, resolution } = await probeBrokerWithManagement(url, { ...(managementUrl !== undefined ? { managementUrl } : {}) }).catch(managementUrlFailure);
    this.remember(url, managementUrl, resolution);
    return probe;
  }

  /** A started connection for this purpose on `vhost` (reused; reconnects by itself). */
  async connection(url: AmqpUrl, vhost: string, purpose: ConnectionPurpose): Promise<ManagedConnection> {
    const target = withVhost(url, vhost);
    const k = `${purpose}|${redactUrl(target)}|${credKey(url)}`;
    let c = this.conns.get(k);
    if (!c) {
      c = new ManagedConnection(target, purpose);
      this.conns.set(k, c);
      try {
        await c.start();
      } catch (err) {
        this.conns.delete(k);
        throw err;
      }
    }
    return c;
  }

  /** Drop (and close) every connection on this vhost, e.g. after the vhost was deleted. */
  forget(url: AmqpUrl, vhost: string): void {
    const needle = `|${redactUrl(withVhost(url, vhost))}|`;
    for (const [k, c] of this.conns) {
      if (k.includes(needle)) {
        void c.close();
        this.conns.delete(k);
      }
    }
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.conns.values()].map((c) => c.close()));
    this.conns.clear();
  }
}
