/**
 * The simulator's input for a rehearsal: the design's topology and consumers, each worker's
 * processing time and concurrency (prefetch) taken from the load, the broker profile, and no
 * event kept (the rehearsal reads them as they happen).
 */
import type { ConsumerSpec } from '../model/consumer.js';
import type { Design } from '../model/design.js';
import type { FailureSchedule, SimEvent, SimStep, SimulationInput } from '../sim/index.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import type { ResolvedLoad } from './resolveLoad.js';

export interface RehearsalHooks {
  readonly failureSchedule: FailureSchedule;
  readonly processingMsOf?: SimulationInput['processingMsOf'];
  readonly publishGate?: SimulationInput['publishGate'];
  readonly onEvent: (e: SimEvent) => void;
  readonly maxTimeMs: number;
  readonly maxEvents?: number;
}

/** the design's consumers with the load's processing time and concurrency (prefetch 0 = unbounded) */
export function loadedConsumers(design: Design, r: ResolvedLoad): ConsumerSpec[] {
  return design.consumers.map((c) => {
    const l = r.consumers.get(c.id);
    if (!l || c.behaviour.kind !== 'worker') return c;
    return {
      ...c,
      prefetch: Number.isFinite(l.concurrency) ? l.concurrency : 0,
      behaviour: { ...c.behaviour, processingMs: l.processingMs },
    };
  });
}

export function rehearsalInput(
  design: Design,
  r: ResolvedLoad,
  steps: readonly SimStep[],
  hooks: RehearsalHooks,
): SimulationInput {
  const base = designToSimulation({ ...design, profile: r.profile }, { messages: 0, seed: r.seed });
  return {
    ...base,
    consumers: loadedConsumers(design, r),
    steps,
    retainEvents: false,
    onEvent: hooks.onEvent,
    failureSchedule: hooks.failureSchedule,
    ...(hooks.processingMsOf ? { processingMsOf: hooks.processingMsOf } : {}),
    ...(hooks.publishGate ? { publishGate: hooks.publishGate } : {}),
    maxTimeMs: hooks.maxTimeMs,
    maxEvents: hooks.maxEvents ?? Number.MAX_SAFE_INTEGER,
  };
}

/** one publish step through the load's publisher; the msgId is the message's number in the run */
export function publishStep(r: ResolvedLoad, msgId: string): SimStep {
  const p = r.publisher;
  return {
    kind: 'publish',
    exchange: p.exchange,
    routingKey: p.routingKey,
    body: msgId,
    msgId,
    ...(p.properties !== undefined ? { properties: p.properties } : {}),
    ...(p.mandatory !== undefined ? { mandatory: p.mandatory } : {}),
  };
}
