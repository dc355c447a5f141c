/**
 * A design document -> SimulationInput: each publisher publishes `messages` messages with
 * bodies `${bodyPrefix ?? publisher.id}-${n}` (n from 1), publishers interleaved, `intervalMs`
 * of virtual time between rounds.
 */
import type { Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import type { Topology } from '../model/definitions.js';
import type { ProfileOptions, SimStep, SimulationInput } from './types.js';

export interface DesignSimOptions {
  /** messages per publisher (default 10) */
  readonly messages?: number;
  /** default failure model for workers without one */
  readonly failure?: FailureModel;
  readonly seed?: number;
  /** virtual ms between rounds of publishes (default 0) */
  readonly intervalMs?: number;
  /** default: 4.3 rules (v43) for a 4.x design that declares 4.3-only features (usesV43Features) */
  readonly profileOptions?: ProfileOptions;
}

/** the topology declares RabbitMQ 4.3-only quorum features: x-delayed-retry-* arguments or delayed-retry-* policy keys */
export function usesV43Features(t: Topology): boolean {
  return (
    t.queues.some((q) => Object.keys(q.arguments ?? {}).some((k) => k.startsWith('x-delayed-retry-'))) ||
    (t.policies ?? []).some((p) => Object.keys(p.definition ?? {}).some((k) => k.startsWith('delayed-retry-')))
  );
}

export function designToSimulation(design: Design, opts: DesignSimOptions = {}): SimulationInput {
  const n = Math.max(0, Math.floor(opts.messages ?? 10));
  const interval = Math.max(0, opts.intervalMs ?? 0);
  const steps: SimStep[] = [];
  for (let i = 1; i <= n; i++) {
    for (const p of design.publishers) {
      const body = `${p.bodyPrefix ?? p.id}-${i}`;
      steps.push({
        kind: 'publish',
        exchange: p.exchange,
        routingKey: p.routingKey,
        body,
        msgId: `${p.id}-${i}`,
        ...(p.properties !== undefined ? { properties: p.properties } : {}),
        ...(p.mandatory !== undefined ? { mandatory: p.mandatory } : {}),
      });
    }
    if (interval > 0 && i < n) steps.push({ kind: 'wait', ms: interval });
  }
  const profile = design.profile ?? '3.10';
  const profileOptions =
    opts.profileOptions ?? (profile === '4.x' && usesV43Features(design.topology) ? { v43: true } : undefined);
  return {
    topology: design.topology,
    consumers: design.consumers,
    steps,
    profile,
    ...(profileOptions !== undefined ? { profileOptions } : {}),
    seed: opts.seed ?? 1,
    ...(opts.failure !== undefined ? { failure: opts.failure } : {}),
  };
}
