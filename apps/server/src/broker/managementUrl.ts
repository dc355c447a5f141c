/**
 * A management API base URL given by a user (request field `managementUrl`, CLI
 * `--management-url`, env RETRY_STUDIO_MANAGEMENT_URL): checked like a broker URL (its host is
 * allow-listed, since the server fetches it) and normalised to `http(s)://host:port[/path]`.
 */
import { allowedHosts, assertHostAllowed, parseAmqpUrl } from './amqpUrl.js';

export class ManagementUrlError extends Error {
  override readonly name = 'ManagementUrlError';
}

export function parseManagementUrl(input: string, env: NodeJS.ProcessEnv = process.env): string {
  const raw = input.trim();
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // not echoed: what is not a URL may hold a password in any of its parts
    throw new ManagementUrlError('the management URL must look like http://host:15672 (it is not a URL)');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new ManagementUrlError(`the management URL must start with http:// or https://, not ${u.protocol}//`);
  if (u.username || u.password)
    throw new ManagementUrlError(
      "the management URL must not carry credentials (the broker URL's user and password are used)",
    );
  if (u.search || u.hash) throw new ManagementUrlError('the management URL must not have a query or a fragment');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  // the same SSRF allow-list as broker hosts
  assertHostAllowed({ ...parseAmqpUrl(), hostname: host }, allowedHosts(env));
  // http://host:15672/api and http://host:15672/ both mean the API's root
  const path = u.pathname.replace(/\/+$/, '').replace(/\/api$/, '');
  return `${u.protocol}//${u.host}${path}`;
}
