/**
 * What the server reads from a live vhost through the management API, as plain data: the
 * core turns it into a design without any I/O. Field names are the management API's.
 */
import type { AmqpTable } from '../model/definitions.js';

export interface SnapshotExchange {
  readonly name: string;
  readonly type: string;
  readonly durable?: boolean;
  readonly auto_delete?: boolean;
  readonly internal?: boolean;
  readonly arguments?: AmqpTable;
}

export interface SnapshotQueue {
  readonly name: string;
  readonly durable?: boolean;
  readonly auto_delete?: boolean;
  readonly exclusive?: boolean;
  readonly arguments?: AmqpTable;
  /** classic | quorum | stream (3.10 lists it too) */
  readonly type?: string;
  /** live consumer count, when the API gave it */
  readonly consumers?: number;
  /** the policy the broker reports applying (GET /api/queues `policy`), when it applies one */
  readonly policy?: string;
}

export interface SnapshotBinding {
  readonly source: string;
  readonly destination: string;
  readonly destination_type: 'queue' | 'exchange';
  readonly routing_key: string;
  readonly arguments?: AmqpTable;
}

export interface SnapshotPolicy {
  readonly name: string;
  readonly pattern: string;
  readonly 'apply-to'?: string;
  readonly priority?: number;
  readonly definition: AmqpTable;
}

export interface BrokerSnapshot {
  readonly rabbitVersion: string;
  readonly vhost: string;
  readonly exchanges: readonly SnapshotExchange[];
  readonly queues: readonly SnapshotQueue[];
  readonly bindings: readonly SnapshotBinding[];
  readonly policies?: readonly SnapshotPolicy[];
}
