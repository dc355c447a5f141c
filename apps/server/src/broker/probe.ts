/**
 * What the broker is and what it supports, found without breaking a connection that matters:
 * - product/version from the connection's server properties;
 * - exchange types from the management overview when available, otherwise by declaring a
 *   throwaway exchange of each plugin type on a throwaway CONNECTION (an unknown exchange type
 *   is a connection-level error, 503 COMMAND_INVALID);
 * - quorum support by declaring (then deleting) a throwaway quorum queue on a throwaway channel.
 */
import { randomUUID } from 'node:crypto';
import { PLUGIN_EXCHANGE_TYPES } from '@retry-studio/topology-core/model';
import { profileForVersion } from '@retry-studio/topology-core/sim';
import { redactUrl, type AmqpUrl } from './amqpUrl.js';
import { openConnection, withThrowawayChannel } from './connection.js';
import { identityFromServerProperties } from './brokerIdentity.js';
import { readCluster, type ClusterView } from './cluster.js';
import { resolveManagement, type ManagementResolution } from './resolveManagement.js';
import type { Probe } from '@retry-studio/contract';

/** the contract's Probe (POST /api/broker answers with it) */
export type BrokerProbe = Probe;

/** Declares a throwaway exchange of `type` on its own connection; false when the broker refuses the type. */
export async function exchangeTypeSupported(url: AmqpUrl, type: string): Promise<boolean> {
  const conn = await openConnection(url, { purpose: 'probe' });
  const name = `retry-studio.probe.${randomUUID()}`;
  let connectionLost = false;
  conn.on('close', () => {
    connectionLost = true;
  });
  try {
    const ch = await conn.createChannel();
    ch.on('error', () => undefined);
    const args = type === 'x-delayed-message' ? { 'x-delayed-type': 'direct' } : {};
    await ch.assertExchange(name, type, { durable: false, autoDelete: true, arguments: args });
    await ch.deleteExchange(name).catch(() => undefined);
    await ch.close().catch(() => undefined);
    return true;
  } catch (err) {
    // an unknown type is a connection error (503 COMMAND_INVALID "unknown exchange type"):
    // amqplib reports "Channel ended" and the connection closes. A channel error about the
    // arguments (406) means the type exists but wants other arguments.
    await new Promise((r) => setTimeout(r, 20));
    return !(
      connectionLost || /COMMAND_INVALID|unknown exchange type|Channel ended/i.test(String((err as Error).message))
    );
  } finally {
    await conn.close().catch(() => undefined);
  }
}

export interface ProbeOptions {
  /** the user's management URL; otherwise RETRY_STUDIO_MANAGEMENT_URL, otherwise discovery */
  readonly managementUrl?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly givenAs?: string;
}

/**
 * The probe works without a management API (exchange types by declaring); `resolution` is the
 * management lookup it made, verified against this very connection's server properties.
 */
export async function probeBrokerWithManagement(
  url: AmqpUrl,
  options: ProbeOptions = {},
): Promise<{ probe: BrokerProbe; resolution: ManagementResolution }> {
  const conn = await openConnection(url, { purpose: 'probe' });
  let quorum = false;
  const identity = identityFromServerProperties(conn.connection.serverProperties as unknown as Record<string, unknown>);
  try {
    const q = `retry-studio.probe.${randomUUID()}`;
    quorum = await withThrowawayChannel(conn, async (ch) => {
      try {
        await ch.assertQueue(q, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
        await ch.deleteQueue(q);
        return true;
      } catch {
        return false;
      }
    }).catch(() => false);
  } finally {
    await conn.close().catch(() => undefined);
  }

  const resolution = await resolveManagement(url, { ...options, amqp: identity });
  let exchangeTypes: string[];
  let exchangeTypesSource: BrokerProbe['exchangeTypesSource'];
  let management: BrokerProbe['management'];
  let cluster: ClusterView | undefined;
  const base = { source: resolution.source, tried: resolution.tried, ms: Math.round(resolution.ms) };
  if (resolution.kind === 'verified') {
    const ov = resolution.overview;
    exchangeTypes = ov.exchange_types.filter((t) => t.enabled !== false).map((t) => t.name);
    exchangeTypesSource = 'management';
    cluster = await readCluster(resolution.client, ov.cluster_name);
    management = {
      available: true,
      baseUrl: resolution.client.baseUrl,
      ...base,
      ...(ov.management_version ? { version: ov.management_version } : {}),
      ...(resolution.broker.node ? { node: resolution.broker.node } : {}),
    };
  } else {
    management = { available: false, baseUrl: resolution.tried[0]?.baseUrl ?? '', ...base, error: resolution.message };
    exchangeTypes = ['direct', 'fanout', 'topic', 'headers'];
    for (const t of PLUGIN_EXCHANGE_TYPES) {
      if (await exchangeTypeSupported(url, t)) exchangeTypes.push(t);
    }
    exchangeTypesSource = 'declare';
  }
  const plugins: Record<string, boolean> = {};
  for (const t of PLUGIN_EXCHANGE_TYPES) plugins[t] = exchangeTypes.includes(t);
  const mm = /^(\d+)\.(\d+)/.exec(identity.version);
  const suggestedProfile = identity.product === 'RabbitMQ' ? profileForVersion(identity.version) : undefined;
  const probe: BrokerProbe = {
    url: redactUrl(url),
    product: identity.product,
    version: identity.version,
    majorMinor: mm ? `${mm[1]}.${mm[2]}` : identity.version,
    ...(identity.clusterName ? { clusterName: identity.clusterName } : {}),
    ...(suggestedProfile ? { suggestedProfile } : {}),
    exchangeTypes,
    exchangeTypesSource,
    plugins,
    quorum,
    ...(cluster ? { cluster } : {}),
    management,
  };
  return { probe, resolution };
}

export async function probeBroker(url: AmqpUrl, options: ProbeOptions = {}): Promise<BrokerProbe> {
  return (await probeBrokerWithManagement(url, options)).probe;
}
