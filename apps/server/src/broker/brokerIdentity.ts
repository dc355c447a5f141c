/**
 * Which broker answers: the AMQP connection's server properties and the management API's
 * overview both report the product, its version and the cluster name. Two brokers on one host
 * (3.10 on 5672/15672, 4.3 on 5673/15673) differ in both, so comparing them tells whether a
 * management API belongs to the AMQP endpoint we write to.
 */
import type { Overview } from './management.js';

export interface BrokerIdentity {
  readonly product: string;
  readonly version: string;
  /** `cluster_name` (defaults to the first node's name, e.g. rabbit@host) */
  readonly clusterName?: string;
  /** only the management API names the node (`node`) */
  readonly node?: string;
}

function str(v: unknown): string {
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return v === undefined || v === null ? '' : String(v);
}

/** From amqplib's `connection.serverProperties` (values may be Buffers). */
export function identityFromServerProperties(sp: Readonly<Record<string, unknown>>): BrokerIdentity {
  const clusterName = str(sp.cluster_name);
  return { product: str(sp.product) || 'RabbitMQ', version: str(sp.version), ...(clusterName ? { clusterName } : {}) };
}

export function identityFromOverview(ov: Overview): BrokerIdentity {
  const clusterName = str(ov.cluster_name);
  const node = str(ov.node);
  return {
    product: str(ov.product_name) || 'RabbitMQ',
    version: str(ov.rabbitmq_version ?? ov.product_version),
    ...(clusterName ? { clusterName } : {}),
    ...(node ? { node } : {}),
  };
}

/** The same broker: same version and, when the AMQP side reports one, the same cluster name. */
export function sameBroker(amqp: BrokerIdentity, mgmt: BrokerIdentity): boolean {
  if (amqp.version !== mgmt.version) return false;
  return amqp.clusterName === undefined || amqp.clusterName === mgmt.clusterName;
}

/** e.g. `RabbitMQ 4.3.6 (cluster rabbit4@vm, node rabbit4@localhost)` */
export function describeIdentity(id: BrokerIdentity): string {
  const parts = [id.clusterName ? `cluster ${id.clusterName}` : '', id.node ? `node ${id.node}` : ''].filter(Boolean);
  return `${id.product} ${id.version || '(unknown version)'}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}
