/**
 * What an AMQP URL names, previewed for fields left empty: the vhost (`amqp://h/walk-1` ->
 * `walk-1`, `amqp://h/%2F` or no path -> `/`) and the endpoint (host and port, 5672 or 5671 for
 * amqps when none is given). The server's broker/amqpUrl.ts decides what the URL means; this only
 * shows it. Undefined for what is not readable as an AMQP URL.
 */
import type { AmqpEndpoint } from '@retry-studio/contract';

const AMQP_URL = /^(amqps?):\/\/(?:[^@/?#]*@)?(\[[^\]/?#]*\]|[^:/?#]*)(?::(\d+))?(?:\/([^?#]*))?/i;

export function vhostNamedBy(url: string): string | undefined {
  const m = AMQP_URL.exec(url.trim());
  if (!m) return undefined;
  const path = m[4] ?? '';
  if (path === '') return '/';
  if (path.includes('/')) return undefined;
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

export function endpointNamedBy(url: string): AmqpEndpoint | undefined {
  const m = AMQP_URL.exec(url.trim());
  if (!m || m[2] === '') return undefined;
  const hostname = m[2]!.replace(/^\[|\]$/g, '');
  const port = m[3] !== undefined ? Number(m[3]) : m[1]!.toLowerCase() === 'amqps' ? 5671 : 5672;
  return port > 0 && port <= 65535 ? { hostname, port } : undefined;
}
