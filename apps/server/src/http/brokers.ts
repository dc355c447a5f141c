/**
 * Broker handles per target (broker URL + vhost): the management client and one managed
 * connection per purpose, so a failed declaration on 'apply' never touches 'trace'.
 */
import { createHash } from 'node:crypto';
import { ManagedConnection, ManagementClient, redactUrl, resolveBrokerUrl, withVhost, type AmqpUrl, AmqpUrlError, HostNotAllowedError, type ConnectionPurpose } from '../broker/index.js';
import { HttpError } from './httpError.js';

export function brokerUrlFromRequest(input: string | undefined): AmqpUrl {
  try {
    return resolveBrokerUrl(input);
  } catch (err) {
    if (err instanceof AmqpUrlError) throw new HttpError(400, `bad broker URL: ${err.message}`, 'broker');
    if (err instanceof HostNotAllowedError) throw new HttpError(403, err.message, 'broker');
    throw err;
  }
}

/** Cache key for a URL: never the password itself, but different credentials never share a handle. */
function credKey(url: AmqpUrl): string {
  return createHash('sha256').update(`${url.username}\u0000${url.password}`).digest('hex').slice(0, 16);
}

export class Brokers {
  private readonly conns = new Map<string, ManagedConnection>();
  private readonly mgmts = new Map<string, ManagementClient>();

  management(url: AmqpUrl): ManagementClient {
    const k = `${redactUrl({ ...url, vhost: '/' })}|${credKey(url)}`;
    let m = this.mgmts.get(k);
    if (!m) {
      m = new ManagementClient(url);
      this.mgmts.set(k, m);
    }
    return m;
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
