/** GET /api/broker: what the broker is, what it supports, its cluster and its management API. */
import type { BrokerProfileId } from '@retry-studio/topology-core/model';

export interface ClusterNode {
  readonly name: string;
  readonly running: boolean;
  /** the rabbit application's version; absent while the node is down */
  readonly version?: string;
}

export type ClusterProblem =
  | { readonly kind: 'node-down'; readonly node: string; readonly message: string }
  | { readonly kind: 'mixed-versions'; readonly versions: Readonly<Record<string, string>>; readonly message: string };

/** The broker's nodes as the probe and the plan report them; a single broker is a one-node cluster. */
export interface ClusterView {
  readonly clusterName?: string;
  readonly nodes: readonly ClusterNode[];
  readonly running: number;
  readonly problems: readonly ClusterProblem[];
}

export type ManagementSource = 'given' | 'env' | 'discovered';

/** Why a management API candidate was not taken. */
export type ManagementProblem = 'unreachable' | 'refused' | 'not-rabbitmq' | 'other-broker';

/** A management API candidate that was not taken, and why. */
export interface TriedManagement {
  readonly baseUrl: string;
  readonly problem: ManagementProblem;
  readonly message: string;
}

/** What the broker is and what it supports (the server's broker/probe.ts finds it). */
export interface Probe {
  readonly url: string;
  readonly product: string;
  readonly version: string;
  /** e.g. "3.10" */
  readonly majorMinor: string;
  /** the AMQP server properties' cluster_name */
  readonly clusterName?: string;
  /** the simulator profile that models this version ('3.10', '4.x', '4.3'), when it is known */
  readonly suggestedProfile?: BrokerProfileId;
  readonly exchangeTypes: readonly string[];
  /** read from the management API's overview, or found by declaring a throwaway exchange of each plugin type */
  readonly exchangeTypesSource: 'management' | 'declare';
  readonly plugins: { readonly [type: string]: boolean };
  readonly quorum: boolean;
  /** the cluster's nodes, versions and problems (from the management API; a single broker is one node) */
  readonly cluster?: ClusterView;
  readonly management: {
    readonly available: boolean;
    /** the verified API (or, when none was, the first one tried) */
    readonly baseUrl: string;
    readonly source?: ManagementSource;
    readonly version?: string;
    readonly node?: string;
    /** why it is unavailable: every candidate and what was wrong with it */
    readonly error?: string;
    readonly tried?: readonly TriedManagement[];
    /** time to find and verify it, ms */
    readonly ms?: number;
  };
}
