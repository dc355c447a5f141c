/**
 * What the broker is and what it supports, found without breaking a connection that matters:
 * - product/version from the connection's server properties;
 * - exchange types from the management overview when available, otherwise by declaring a
 *   throwaway exchange of each plugin type on a throwaway CONNECTION (an unknown exchange type
 *   is a connection-level error, 503 COMMAND_INVALID);
 * - quorum support by declaring (then deleting) a throwaway quorum queue on a throwaway channel.
 */
import { randomUUID } from 'node:crypto';
import { PLUGIN_EXCHANGE_TYPES } from '@retry-studio/topology-core';
import { redactUrl, type AmqpUrl } from './amqpUrl.js';
import { openConnection, withThrowawayChannel } from './connection.js';
import { ManagementClient } from './management.js';

export interface BrokerProbe {
  readonly url: string;
  readonly product: string;
  readonly version: string;
  /** e.g. "3.10" */
  readonly majorMinor: string;
  readonly exchangeTypes: readonly string[];
  readonly exchangeTypesSource: 'management' | 'declare';
  readonly plugins: { readonly [type: string]: boolean };
  readonly quorum: boolean;
  readonly management: { readonly available: boolean; readonly baseUrl: string; readonly version?: string; readonly error?: string };
}

function str(v: unknown): string {
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return v === undefined || v === null ? '' : String(v);
}

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
    return !(connectionLost || /COMMAND_INVALID|unknown exchange type|Channel ended/i.test(String((err as Error).message)));
  } finally {
    await conn.close().catch(() => undefined);
  }
}

export async function probeBroker(url: AmqpUrl, options: { management?: ManagementClient } = {}): Promise<BrokerProbe> {
  const mgmt = options.management ?? new ManagementClient(url);
  const conn = await openConnection(url, { purpose: 'probe' });
  let product: string;
  let version: string;
  let quorum = false;
  try {
    const sp = conn.connection.serverProperties as unknown as Record<string, unknown>;
    product = str(sp.product) || 'RabbitMQ';
    version = str(sp.version);
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

  let exchangeTypes: string[];
  let exchangeTypesSource: BrokerProbe['exchangeTypesSource'];
  let management: BrokerProbe['management'];
  try {
    const ov = await mgmt.overview();
    exchangeTypes = ov.exchange_types.filter((t) => t.enabled !== false).map((t) => t.name);
    exchangeTypesSource = 'management';
    management = { available: true, baseUrl: mgmt.baseUrl, version: ov.management_version };
  } catch (err) {
    management = { available: false, baseUrl: mgmt.baseUrl, error: (err as Error).message };
    exchangeTypes = ['direct', 'fanout', 'topic', 'headers'];
    for (const t of PLUGIN_EXCHANGE_TYPES) {
      if (await exchangeTypeSupported(url, t)) exchangeTypes.push(t);
    }
    exchangeTypesSource = 'declare';
  }
  const plugins: Record<string, boolean> = {};
  for (const t of PLUGIN_EXCHANGE_TYPES) plugins[t] = exchangeTypes.includes(t);
  const mm = /^(\d+)\.(\d+)/.exec(version);
  return {
    url: redactUrl(url),
    product,
    version,
    majorMinor: mm ? `${mm[1]}.${mm[2]}` : version,
    exchangeTypes,
    exchangeTypesSource,
    plugins,
    quorum,
    management,
  };
}
