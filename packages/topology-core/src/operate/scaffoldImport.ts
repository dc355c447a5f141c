/**
 * A live vhost -> a design: the topology (what the model can represent; the rest is listed as
 * skipped), the profile from the broker's version, and consumers and publishers where the
 * topology implies them:
 * - queue roles and workers: the core's one assumption (lint/assumedConsumers.ts): a work
 *   queue's worker rejects on failure, wait and parking queues have no consumer;
 * - an exchange that is not a work queue's dead-letter exchange and routes somewhere gets a publisher
 *   per distinct routing key (or header set) of its bindings, so that no binding is left unmatched.
 */
import { EXCHANGE_TYPES_ALL, type ImportRole, type ImportedDesign } from './importTypes.js';
import type { BrokerSnapshot } from './brokerSnapshot.js';
import type { ConsumerSpec } from '../model/consumer.js';
import { builtinExchangeType } from '../model/definitions.js';
import type { Design } from '../model/design.js';
import { DESIGN_FORMAT, DESIGN_VERSION } from '../model/design.js';
import { importDefinitions } from '../io/definitions.js';
import { assumedConsumers, assumedPublishers } from '../lint/assumedConsumers.js';
import { lintDesign } from '../lint/lintDesign.js';
import { profileForBrokerVersion } from './brokerVersion.js';
import { layoutByPrefix } from './layoutByPrefix.js';
import { brokerPolicyPins } from '../model/policyTies.js';

export interface ScaffoldOptions {
  /** design name (default `<vhost> on <version>`) */
  readonly name?: string;
  /** skip the layout (the caller lays out) */
  readonly layout?: boolean;
}

export function designFromBroker(snap: BrokerSnapshot, opts: ScaffoldOptions = {}): ImportedDesign {
  const skipped: { kind: 'exchange' | 'queue' | 'binding'; name: string; reason: string }[] = [];
  const exchanges = snap.exchanges.filter((x) => {
    if (x.name === '' || x.name.startsWith('amq.')) return false; // built in on every broker
    if (!EXCHANGE_TYPES_ALL.includes(x.type)) {
      skipped.push({ kind: 'exchange', name: x.name, reason: `exchange type "${x.type}" is not modelled` });
      return false;
    }
    return true;
  });
  const queues = snap.queues.filter((q) => {
    if (q.exclusive) {
      skipped.push({ kind: 'queue', name: q.name, reason: 'exclusive (belongs to one connection)' });
      return false;
    }
    return true;
  });
  const exNames = new Set(exchanges.map((x) => x.name));
  const qNames = new Set(queues.map((q) => q.name));
  const bindings = snap.bindings.filter((b) => {
    if (b.source === '') return false; // the default exchange's implicit bindings
    // a built-in amq.* exchange stays a binding source: the model routes it as the broker does
    const fromOk = exNames.has(b.source) || builtinExchangeType(b.source) !== undefined;
    const ok = fromOk && (b.destination_type === 'queue' ? qNames.has(b.destination) : exNames.has(b.destination));
    if (!ok)
      skipped.push({
        kind: 'binding',
        name: `${b.source} -> ${b.destination}`,
        reason: 'its source or destination was not imported',
      });
    return ok;
  });
  const defs = {
    rabbit_version: snap.rabbitVersion,
    exchanges,
    queues: queues.map((q) => ({
      name: q.name,
      durable: q.durable,
      auto_delete: q.auto_delete,
      arguments: q.arguments ?? {},
      ...(q.type ? { type: q.type } : {}),
    })),
    bindings,
    policies: snap.policies ?? [],
  };
  const r = importDefinitions(defs);
  if (!r.ok) return { ok: false, errors: r.errors, skipped };
  // the policy the broker applies to each queue is the truth (equal priorities tie in its hash order): pin it
  const pins = brokerPolicyPins(queues, r.topology.policies ?? []);
  const topology = pins ? { ...r.topology, policyPins: pins } : r.topology;
  const version = profileForBrokerVersion(snap.rabbitVersion);

  // the roles and workers a topology implies (lint/assumedConsumers.ts), live consumer counts included
  const assumed = assumedConsumers(topology, { liveConsumers: new Map(snap.queues.map((q) => [q.name, q.consumers])) });
  const roles: Record<string, ImportRole> = { ...assumed.roles };
  const consumers: ConsumerSpec[] = [...assumed.consumers];
  const publishers = assumedPublishers(topology, assumed);
  const base: Design = {
    format: DESIGN_FORMAT,
    version: DESIGN_VERSION,
    name: opts.name ?? `${snap.vhost} on RabbitMQ ${snap.rabbitVersion}`,
    profile: version.profile,
    vhost: snap.vhost,
    topology,
    consumers,
    publishers,
  };
  const design: Design = opts.layout === false ? base : { ...base, layout: layoutByPrefix(base).positions };
  const lint = lintDesign(design, { profile: version.profile });
  return { ok: true, design, roles, v43: version.v43, skipped, warnings: r.warnings, lint };
}
