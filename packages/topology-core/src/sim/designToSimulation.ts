/**
 * A design document -> SimulationInput: each publisher publishes `messages` messages with
 * bodies `${bodyPrefix ?? publisher.id}-${n}` (n from 1), publishers interleaved, `intervalMs`
 * of virtual time between rounds.
 */
import type { Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import type { SimStep, SimulationInput } from './types.js';

export interface DesignSimOptions {
  /** messages per publisher (default 10) */
  readonly messages?: number;
  /** default failure model for workers without one */
  readonly failure?: FailureModel;
  readonly seed?: number;
  /** virtual ms between rounds of publishes (default 0) */
  readonly intervalMs?: number;
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
  return {
    topology: design.topology,
    consumers: design.consumers,
    steps,
    profile: design.profile ?? '3.10',
    seed: opts.seed ?? 1,
    ...(opts.failure !== undefined ? { failure: opts.failure } : {}),
  };
}
