/**
 * THE way to a management API: every ManagementClient of the server comes from here, so no code
 * path reads one broker's state while it writes to another.
 *
 * Where: the URL given (request `managementUrl`, CLI `--management-url`), else
 * RETRY_STUDIO_MANAGEMENT_URL, else discovery: the contract's managementCandidates (http://HOST:15672,
 * then http://HOST:<AMQP port + 10000>; the web shows the same list).
 * Accepted only when it is the same broker as the AMQP endpoint: cluster name and version of
 * the AMQP `server_properties` against `GET /api/overview`.
 */
import { portMayBePassword, redactUrl, type AmqpUrl } from './amqpUrl.js';
import {
  describeIdentity,
  identityFromOverview,
  identityFromServerProperties,
  sameBroker,
  type BrokerIdentity,
} from './brokerIdentity.js';
import { openConnection } from './connection.js';
import { ManagementClient, ManagementError, type Overview } from './management.js';
import { parseManagementUrl } from './managementUrl.js';
import {
  managementCandidates,
  type ManagementProblem,
  type ManagementSource,
  type TriedManagement,
} from '@retry-studio/contract';

/** where the URL came from, and why a candidate was not taken: the contract's (a probe reports them) */
export type { ManagementSource, ManagementProblem };

/** A candidate not taken, as the contract's TriedManagement. */
export interface TriedCandidate extends TriedManagement {
  /** the broker it belongs to, for 'other-broker' */
  readonly broker?: BrokerIdentity;
}

export type ManagementResolution =
  | {
      readonly kind: 'verified';
      readonly client: ManagementClient;
      readonly source: ManagementSource;
      /** the broker both sides reported */
      readonly broker: BrokerIdentity;
      readonly overview: Overview;
      readonly tried: readonly TriedCandidate[];
      readonly ms: number;
    }
  | {
      readonly kind: 'unavailable';
      readonly source: ManagementSource;
      /** the AMQP side's identity */
      readonly broker: BrokerIdentity;
      readonly tried: readonly TriedCandidate[];
      /** one sentence naming every candidate and what was wrong with it */
      readonly message: string;
      readonly ms: number;
    };

/** No usable management API; `problem` is the given URL's (or, after discovery, 'unreachable' when none was the same broker). */
export class ManagementResolutionError extends ManagementError {
  constructor(
    readonly resolution: Extract<ManagementResolution, { kind: 'unavailable' }>,
    readonly problem: ManagementProblem,
  ) {
    super(resolution.message, problem === 'refused' ? 401 : undefined);
  }
}

export interface ResolveOptions {
  /** the user's management URL (request field / CLI flag); wins over the env and discovery */
  readonly managementUrl?: string;
  /** the AMQP side's identity when the caller already has a connection (saves a handshake) */
  readonly amqp?: BrokerIdentity;
  readonly timeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** how errors name the given URL: the request field (default `managementUrl`) or the CLI flag */
  readonly givenAs?: string;
}

/** The AMQP endpoint's identity, from a short-lived connection's server properties. */
export async function readAmqpIdentity(url: AmqpUrl): Promise<BrokerIdentity> {
  const conn = await openConnection(url, { purpose: 'probe', label: 'identity' });
  try {
    return identityFromServerProperties(conn.connection.serverProperties as unknown as Record<string, unknown>);
  } finally {
    await conn.close().catch(() => undefined);
  }
}

async function tryCandidate(
  url: AmqpUrl,
  baseUrl: string,
  amqp: BrokerIdentity,
  timeoutMs: number,
): Promise<{ client: ManagementClient; overview: Overview } | TriedCandidate> {
  const client = new ManagementClient(url, { baseUrl, timeoutMs });
  let overview: Overview;
  try {
    overview = await client.overview();
  } catch (err) {
    const e = err as ManagementError;
    const problem: ManagementProblem =
      e.status === undefined && /not reachable|no answer/.test(e.message)
        ? 'unreachable'
        : e.status === 401 || e.status === 403
          ? 'refused'
          : 'not-rabbitmq';
    const message =
      problem === 'refused'
        ? `${baseUrl} refused user '${url.username}' (${e.status}): the user needs the management tag`
        : problem === 'unreachable'
          ? `${baseUrl} is not reachable`
          : `${baseUrl} is not a RabbitMQ management API (${e.message})`;
    return { baseUrl, problem, message };
  }
  const mgmt = identityFromOverview(overview);
  if (!sameBroker(amqp, mgmt)) {
    return {
      baseUrl,
      problem: 'other-broker',
      broker: mgmt,
      message: `the management API at ${baseUrl} belongs to a different broker: it is ${describeIdentity(mgmt)}, while ${redactUrl(url)} is ${describeIdentity(amqp)}`,
    };
  }
  return { client, overview };
}

export async function resolveManagement(url: AmqpUrl, options: ResolveOptions = {}): Promise<ManagementResolution> {
  const t0 = performance.now();
  const env = options.env ?? process.env;
  const envUrl = env.RETRY_STUDIO_MANAGEMENT_URL?.trim();
  const source: ManagementSource = options.managementUrl?.trim() ? 'given' : envUrl ? 'env' : 'discovered';
  const candidates =
    source === 'given'
      ? [parseManagementUrl(options.managementUrl!, env)]
      : source === 'env'
        ? [parseManagementUrl(envUrl!, env)]
        : managementCandidates({ ...url, portMayBeSecret: portMayBePassword(url) });
  const amqp = options.amqp ?? (await readAmqpIdentity(url));
  const timeoutMs = options.timeoutMs ?? 5000;
  // in parallel: a port where nothing answers quickly must not wait for a slow one
  const outcomes = await Promise.all(candidates.map((c) => tryCandidate(url, c, amqp, timeoutMs)));
  const tried = outcomes.filter((o): o is TriedCandidate => 'problem' in o);
  const hit = outcomes.find((o): o is { client: ManagementClient; overview: Overview } => 'client' in o);
  const ms = performance.now() - t0;
  if (hit)
    return {
      kind: 'verified',
      client: hit.client,
      source,
      broker: identityFromOverview(hit.overview),
      overview: hit.overview,
      tried,
      ms,
    };
  const from =
    source === 'given'
      ? (options.givenAs ?? 'managementUrl')
      : source === 'env'
        ? 'RETRY_STUDIO_MANAGEMENT_URL'
        : `discovery (tried ${candidates.join(', ')})`;
  const message =
    source === 'discovered'
      ? `no management API of ${describeIdentity(amqp)} at ${redactUrl(url)} found by ${from}: ${tried.map((t) => t.message).join('; ')}; give the management URL (managementUrl, --management-url or RETRY_STUDIO_MANAGEMENT_URL)`
      : `${from}: ${tried[0]!.message}`;
  return { kind: 'unavailable', source, broker: amqp, tried, message, ms };
}

/** The verified client, or a ManagementResolutionError saying what was tried and why it was refused. */
export function requireManagement(r: ManagementResolution): ManagementClient {
  if (r.kind === 'verified') return r.client;
  // a single candidate (given, env) reports its own problem; after discovery another broker's API
  // only means this one's was not found
  const has = (p: ManagementProblem) => r.tried.some((t) => t.problem === p);
  const problem: ManagementProblem =
    r.source !== 'discovered'
      ? r.tried[0]!.problem
      : has('refused')
        ? 'refused'
        : has('not-rabbitmq')
          ? 'not-rabbitmq'
          : 'unreachable';
  throw new ManagementResolutionError(r, problem);
}
