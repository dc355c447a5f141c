/**
 * AMQP URL parsing, validation, redaction and the broker host allow-list.
 *
 * We parse the URL ourselves because amqplib swallows unparseable URLs and then fails with
 * "Expected amqp: or amqps: as the protocol; got ", and silently logs in as guest when the
 * URL has no user info. Every error here names what is wrong and never contains the password.
 */
import type { Options } from 'amqplib';

export const DEFAULT_AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672/';

/** the heartbeat every connection asks for unless its URL says `?heartbeat=N` (0: none) */
export const DEFAULT_HEARTBEAT_S = 5;

export interface AmqpUrl {
  readonly protocol: 'amqp' | 'amqps';
  readonly username: string;
  readonly password: string;
  /** Host without IPv6 brackets. */
  readonly hostname: string;
  readonly port: number;
  /** Decoded vhost name, `/` by default. */
  readonly vhost: string;
  readonly heartbeat?: number;
  readonly frameMax?: number;
  readonly channelMax?: number;
  /** True when the URL carried user info (otherwise guest/guest is used, explicitly). */
  readonly explicitCredentials: boolean;
  /** True when the URL wrote a port (`host:port`) */
  readonly portGiven?: boolean;
}

/** A bad broker URL. `field` names the part of the URL that is wrong. */
export class AmqpUrlError extends Error {
  override readonly name = 'AmqpUrlError';
  constructor(
    readonly field: 'url' | 'protocol' | 'userinfo' | 'host' | 'port' | 'vhost' | 'query',
    message: string,
  ) {
    super(message);
  }
}

/** The host is not on the allow-list: an SSRF guard for user-supplied broker URLs. */
export class HostNotAllowedError extends Error {
  override readonly name = 'HostNotAllowedError';
  constructor(
    readonly host: string,
    readonly allowed: readonly string[],
  ) {
    super(
      `broker host '${host}' is not allowed; allowed hosts: ${allowed.join(', ')} ` +
        `(set RETRY_STUDIO_ALLOWED_HOSTS=host1,host2 to allow more)`,
    );
  }
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '::1'] as const;
const KNOWN_QUERY = new Set(['heartbeat', 'frame_max', 'channel_max', 'locale', 'connection_timeout']);

function decodePart(field: AmqpUrlError['field'], what: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AmqpUrlError(field, `the ${what} has a bad percent-escape (write a literal % as %25)`);
  }
}

function intParam(name: string, raw: string, min: number, max: number): number {
  if (!/^\d+$/.test(raw)) throw new AmqpUrlError('query', `query parameter '${name}' must be an integer`);
  const n = Number(raw);
  if (n < min || n > max)
    throw new AmqpUrlError('query', `query parameter '${name}' must be between ${min} and ${max}, got ${n}`);
  return n;
}

/**
 * Parses an AMQP URI (https://www.rabbitmq.com/docs/uri-spec). Without an argument, or with an
 * empty string, parses the default `amqp://guest:guest@127.0.0.1:5672/`.
 */
export function parseAmqpUrl(input?: string): AmqpUrl {
  const raw = (input ?? '').trim() === '' ? DEFAULT_AMQP_URL : input!.trim();
  if (/[\s]/.test(raw)) throw new AmqpUrlError('url', 'the broker URL must not contain spaces or line breaks');
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/(.*)$/s.exec(raw);
  if (!m) {
    throw new AmqpUrlError('url', 'the broker URL must look like amqp://user:password@host:5672/vhost');
  }
  const scheme = m[1]!.toLowerCase();
  if (scheme !== 'amqp' && scheme !== 'amqps') {
    throw new AmqpUrlError('protocol', `the broker URL must start with amqp:// or amqps://, not ${scheme}://`);
  }
  let rest = m[2]!;
  // A password with an unencoded '/', '?', '#' or '@' would be split at the wrong place and a
  // fragment of it echoed in an error ("the port must be a number, got '<secret>'"). An '@' after
  // the first '/', '?' or '#' means exactly that (a host has none of them): refused, echoing nothing.
  const firstDelimiter = rest.search(/[/?#]/);
  if (firstDelimiter >= 0 && rest.indexOf('@', firstDelimiter) >= 0) {
    throw new AmqpUrlError(
      'userinfo',
      "the password must be percent-encoded: the broker URL has an '@' after a '/', '?' or '#' (write '/' as %2F, '?' as %3F, '#' as %23 and '@' as %40 in a password; an '@' in a vhost as %40)",
    );
  }
  if (rest.includes('#')) {
    throw new AmqpUrlError('url', "the broker URL contains '#': percent-encode it as %23 (in a password, for example)");
  }
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  const slash = rest.indexOf('/');
  const authority = slash >= 0 ? rest.slice(0, slash) : rest;
  const path = slash >= 0 ? rest.slice(slash + 1) : undefined;

  const ats = authority.split('@').length - 1;
  if (ats > 1) {
    throw new AmqpUrlError(
      'userinfo',
      "the user info contains '@': percent-encode it as %40 (in a password, for example)",
    );
  }
  let userinfo: string | undefined;
  let hostport = authority;
  if (ats === 1) {
    const at = authority.indexOf('@');
    userinfo = authority.slice(0, at);
    hostport = authority.slice(at + 1);
  }

  let username = 'guest';
  let password = 'guest';
  if (userinfo !== undefined) {
    const colon = userinfo.indexOf(':');
    const rawUser = colon >= 0 ? userinfo.slice(0, colon) : userinfo;
    const rawPass = colon >= 0 ? userinfo.slice(colon + 1) : '';
    if (rawUser === '') throw new AmqpUrlError('userinfo', 'the user name is empty (write amqp://user:password@host)');
    if (rawPass.includes(':')) {
      throw new AmqpUrlError('userinfo', "the password contains ':': percent-encode it as %3A");
    }
    username = decodePart('userinfo', 'user name', rawUser);
    password = decodePart('userinfo', 'password', rawPass);
  }

  let hostname: string;
  let portRaw: string | undefined;
  if (hostport.startsWith('[')) {
    const close = hostport.indexOf(']');
    if (close < 0) throw new AmqpUrlError('host', "the IPv6 host is missing its closing ']'");
    hostname = hostport.slice(1, close);
    const after = hostport.slice(close + 1);
    if (after !== '' && !after.startsWith(':'))
      throw new AmqpUrlError('host', 'unexpected characters after the IPv6 host');
    portRaw = after === '' ? undefined : after.slice(1);
  } else {
    const colons = hostport.split(':').length - 1;
    if (colons > 1) throw new AmqpUrlError('host', 'an IPv6 host must be written in brackets, e.g. amqp://[::1]:5672/');
    const c = hostport.indexOf(':');
    hostname = c >= 0 ? hostport.slice(0, c) : hostport;
    portRaw = c >= 0 ? hostport.slice(c + 1) : undefined;
  }
  hostname = decodePart('host', 'host', hostname).toLowerCase();
  if (hostname === '')
    throw new AmqpUrlError('host', 'the broker URL has no host (write amqp://user:password@host:5672/)');
  // not echoed: in a URL whose password was split at the wrong place, this is a piece of it
  if (!/^[a-z0-9.:_-]+$/.test(hostname))
    throw new AmqpUrlError(
      'host',
      'the host contains characters a host name cannot have (a password with special characters must be percent-encoded)',
    );

  let port = scheme === 'amqps' ? 5671 : 5672;
  if (portRaw !== undefined && portRaw !== '') {
    // not echoed: 'user:password' without '@' reads as host:port, so this may be a password
    if (!/^\d+$/.test(portRaw))
      throw new AmqpUrlError(
        'port',
        "the port must be a number (what follows ':' after the host is not; a URL with credentials is written amqp://user:password@host:5672/)",
      );
    port = Number(portRaw);
    // not echoed either: `amqp://user:98765432123/vhost` is a digits-only password with the host forgotten
    if (port < 1 || port > 65535)
      throw new AmqpUrlError(
        'port',
        "the port must be between 1 and 65535 (what follows ':' after the host is not; a URL with credentials is written amqp://user:password@host:5672/)",
      );
  }

  let vhost = '/';
  if (path !== undefined && path !== '') {
    if (path.includes('/')) {
      throw new AmqpUrlError(
        'vhost',
        "the vhost contains '/': percent-encode it as %2F (the vhost '/' is written %2F or left empty)",
      );
    }
    vhost = decodePart('vhost', 'vhost', path);
  }

  const url: { -readonly [K in keyof AmqpUrl]: AmqpUrl[K] } = {
    protocol: scheme,
    username,
    password,
    hostname,
    port,
    vhost,
    explicitCredentials: userinfo !== undefined,
    ...(portRaw !== undefined && portRaw !== '' ? { portGiven: true } : {}),
  };
  if (query !== '') {
    for (const pair of query.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const key = decodePart('query', 'query', eq >= 0 ? pair.slice(0, eq) : pair);
      const value = decodePart('query', 'query', eq >= 0 ? pair.slice(eq + 1) : '');
      if (!KNOWN_QUERY.has(key)) {
        // the name is not echoed: after a '?' inside a password, it would be the password's tail
        throw new AmqpUrlError(
          'query',
          `the broker URL has an unknown query parameter (known: ${[...KNOWN_QUERY].join(', ')}; a '?' in a password is written %3F)`,
        );
      }
      if (key === 'heartbeat') url.heartbeat = intParam(key, value, 0, 65535);
      else if (key === 'frame_max') url.frameMax = intParam(key, value, 4096, 2 ** 31 - 1);
      else if (key === 'channel_max') url.channelMax = intParam(key, value, 0, 65535);
    }
  }
  return url;
}

function formatHost(hostname: string): string {
  return hostname.includes(':') ? `[${hostname}]` : hostname;
}

/**
 * Without user info, `amqp://user:12345/vhost` reads as host `user`, port 12345: a digits-only
 * password with the host forgotten. The port is not shown when it could be one (a port written
 * after a one-label host other than localhost, in a URL without user info).
 */
export function portMayBePassword(url: AmqpUrl): boolean {
  return (
    !url.explicitCredentials &&
    url.portGiven === true &&
    url.hostname !== 'localhost' &&
    /^[a-z0-9_-]+$/.test(url.hostname) &&
    !/^[0-9]+$/.test(url.hostname)
  );
}

/** `amqp://user:***@host:port/vhost`; accepts a parsed URL or a string (unparseable strings are fully masked). */
export function redactUrl(url: AmqpUrl | string | undefined): string {
  let parsed: AmqpUrl;
  if (typeof url === 'string' || url === undefined) {
    try {
      parsed = parseAmqpUrl(url);
    } catch {
      return 'amqp://***';
    }
  } else {
    parsed = url;
  }
  const port = portMayBePassword(parsed) ? '***' : String(parsed.port);
  return `${parsed.protocol}://${encodeURIComponent(parsed.username)}:***@${formatHost(parsed.hostname)}:${port}/${encodeURIComponent(parsed.vhost)}`;
}

/** Loopback plus whatever RETRY_STUDIO_ALLOWED_HOSTS (comma-separated) adds. */
export function allowedHosts(env: NodeJS.ProcessEnv = process.env): string[] {
  const extra = (env.RETRY_STUDIO_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) =>
      h
        .trim()
        .toLowerCase()
        .replace(/^\[|\]$/g, ''),
    )
    .filter((h) => h !== '');
  return [...new Set([...LOOPBACK_HOSTS, ...extra])];
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export function assertHostAllowed(url: AmqpUrl, allowed: readonly string[] = allowedHosts()): void {
  if (isLoopback(url.hostname)) return;
  if (allowed.includes('*') || allowed.includes(url.hostname)) return;
  throw new HostNotAllowedError(url.hostname, allowed);
}

/** Parse + allow-list check in one: what every entry point should call. */
export function resolveBrokerUrl(input?: string, env: NodeJS.ProcessEnv = process.env): AmqpUrl {
  const url = parseAmqpUrl(input ?? env.AMQP_URL);
  assertHostAllowed(url, allowedHosts(env));
  return url;
}

/** The same URL on another vhost (e.g. a fresh conformance vhost). */
export function withVhost(url: AmqpUrl, vhost: string): AmqpUrl {
  return { ...url, vhost };
}

/** amqplib connect options. amqplib unescapes the vhost itself, so we escape it. */
export function toConnectOptions(url: AmqpUrl): Options.Connect {
  const opts: Options.Connect = {
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port,
    username: url.username,
    password: url.password,
    vhost: encodeURIComponent(url.vhost),
  };
  // a broker whose AMQP goes silent is noticed in two missed heartbeats (seconds), not at the broker's 60 s default
  opts.heartbeat = url.heartbeat ?? DEFAULT_HEARTBEAT_S;
  if (url.frameMax !== undefined) opts.frameMax = url.frameMax;
  if (url.channelMax !== undefined) opts.channelMax = url.channelMax;
  return opts;
}
