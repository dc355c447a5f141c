/**
 * The project's own design document: topology + consumers + publishers + layout.
 * Versioned (tldraw-style) so that saved designs can be migrated forward.
 */
import type { Topology } from './definitions.js';
import type { ConsumerSpec } from './consumer.js';
import type { PublisherSpec } from './publisher.js';
import type { NodeSource } from './source.js';

export const DESIGN_FORMAT = 'retry-studio/design';
export const DESIGN_VERSION = 1;

/** the broker lines, oldest first: '3.10'; '4.x' = 4.0-4.2; '4.3' = 4.x with the 4.3 rules (sim/profiles.ts PROFILE_4_3) */
export const BROKER_PROFILE_IDS = ['3.10', '4.x', '4.3'] as const;
export type BrokerProfileId = (typeof BROKER_PROFILE_IDS)[number];

export interface NodePosition {
  readonly x: number;
  readonly y: number;
}

export interface Design {
  readonly format: typeof DESIGN_FORMAT;
  readonly version: typeof DESIGN_VERSION;
  readonly name: string;
  readonly description?: string;
  /** which RabbitMQ semantics to simulate; default '3.10' */
  readonly profile?: BrokerProfileId;
  /** the vhost the topology lives in (read from a definitions file or a broker); exports write it unless told another */
  readonly vhost?: string;
  readonly topology: Topology;
  readonly consumers: readonly ConsumerSpec[];
  readonly publishers: readonly PublisherSpec[];
  /** canvas positions keyed by node id (see nodeIds.ts) */
  readonly layout?: { readonly [nodeId: string]: NodePosition };
  /** where nodes read from an application's configuration came from (node id -> file, line, settings) */
  readonly sources?: { readonly [nodeId: string]: NodeSource };
  /** template id and params this design came from, if any */
  readonly origin?: { readonly template: string; readonly params: { readonly [k: string]: unknown } };
}
