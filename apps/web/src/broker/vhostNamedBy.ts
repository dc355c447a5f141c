/**
 * The vhost an AMQP URL names, to preview in a vhost field left empty (the server's
 * broker/amqpUrl.ts decides what the URL means; this only shows it): `amqp://h/walk-1` ->
 * `walk-1`, `amqp://h/%2F` or no path -> `/`. Undefined for what is not readable as an AMQP URL.
 */
export function vhostNamedBy(url: string): string | undefined {
  const m = /^amqps?:\/\/[^/?#]*(?:\/([^?#]*))?/i.exec(url.trim());
  if (!m) return undefined;
  const path = m[1] ?? '';
  if (path === '') return '/';
  if (path.includes('/')) return undefined;
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}
