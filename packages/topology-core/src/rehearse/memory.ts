/**
 * Broker memory for a queue's backlog: depth x (the queue type's documented per-message overhead +
 * the body size). The figures and where they come from:
 * - quorum queues: "at least 32 bytes of metadata" per message in the in-memory index, 16 more
 *   when a TTL applies; RabbitMQ 4.3's packed references roughly halve it (RabbitMQ docs, Quorum
 *   Queues, "Resource Use": https://www.rabbitmq.com/docs/quorum-queues#resource-use; notes in
 *   ../shared/reference/field-2026.md).
 * - classic queues: the docs give no per-message metadata figure; the body is counted (before
 *   3.12 a classic queue keeps its messages in memory unless lazy, https://www.rabbitmq.com/docs/lazy-queues).
 */
import type { BrokerProfileId } from '../model/design.js';
import type { QueueConfig } from '../sim/queueConfig.js';

export interface MemoryBasis {
  /** bytes per message on top of the body */
  readonly overheadBytes: number;
  readonly source: string;
}

const QQ_SOURCE =
  'RabbitMQ docs, Quorum Queues, Resource Use (https://www.rabbitmq.com/docs/quorum-queues#resource-use)';
const CQ_SOURCE =
  'RabbitMQ docs give no classic-queue per-message figure: body only (https://www.rabbitmq.com/docs/lazy-queues)';

export function memoryBasis(cfg: QueueConfig, profile: BrokerProfileId): MemoryBasis {
  if (!cfg.quorum) return { overheadBytes: 0, source: CQ_SOURCE };
  const ttl = cfg.ttl !== undefined;
  // 4.3: packed references, roughly half the per-message overhead
  if (profile === '4.3') return { overheadBytes: ttl ? 24 : 16, source: `${QQ_SOURCE}; 4.3 halves it` };
  return { overheadBytes: ttl ? 48 : 32, source: QQ_SOURCE };
}

export function memoryBytes(depth: number, basis: MemoryBasis, bodyBytes: number): number {
  return Math.round(depth * (basis.overheadBytes + bodyBytes));
}
