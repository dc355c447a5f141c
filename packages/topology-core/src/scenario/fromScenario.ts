/**
 * retry-scenario/1 -> SimulationInput. Each scenario consumer becomes a 'script' consumer: the
 * i-th delivery of a body on its queue gets actions[i], the last action repeating.
 */
import type { ConsumerAction, ConsumerSpec } from '../model/consumer.js';
import type { PublishProperties } from '../model/publisher.js';
import type { Scenario, ScenarioAction, ScenarioPublishProperties } from './types.js';
import type { SimStep, SimulationInput } from '../sim/types.js';
import { profileFromRecordedOn, type ScenarioProfile } from './scenarioProfile.js';

/** the broker runner's default quiet period (README `settle_ms`) */
export const DEFAULT_SETTLE_MS = 600;

export function scenarioAction(a: ScenarioAction): ConsumerAction {
  if (a === 'ack') return { kind: 'ack' };
  if (a === 'reject') return { kind: 'reject' };
  if (a === 'requeue') return { kind: 'requeue' };
  if (a === 'reject-requeue') return { kind: 'requeue', via: 'reject' };
  if (a === 'hold') return { kind: 'hold' };
  if (a === 'ack-multiple') return { kind: 'ack', multiple: true };
  if (a === 'nack-multiple') return { kind: 'reject', multiple: true };
  if (a === 'nack-multiple-requeue') return { kind: 'requeue', multiple: true };
  const r = a.republish;
  return {
    kind: 'republish',
    exchange: r.exchange,
    ...(r.routing_key !== undefined ? { routingKey: r.routing_key } : {}),
    ...(r.routing_key_from_header !== undefined ? { routingKeyFromHeader: r.routing_key_from_header } : {}),
    ...(r.headers !== undefined ? { headers: r.headers } : {}),
    ...(r.expiration !== undefined ? { expiration: r.expiration } : {}),
  };
}

/** consumer ids are `${queue}#${index in the scenario's consumer list}` */
export function scenarioConsumers(s: Scenario): ConsumerSpec[] {
  return s.consumers.map((c, i) => ({
    id: `${c.queue}#${i}`,
    queue: c.queue,
    ...(c.prefetch !== undefined ? { prefetch: c.prefetch } : {}),
    ...(c.offset !== undefined ? { streamOffset: c.offset } : {}),
    behaviour: { kind: 'script', actions: c.actions.map(scenarioAction) },
  }));
}

export function scenarioSteps(s: Scenario): SimStep[] {
  return s.steps.map((st, i): SimStep => {
    if ('wait_ms' in st) return { kind: 'wait', ms: st.wait_ms };
    const p = st.publish;
    return {
      kind: 'publish',
      exchange: p.exchange,
      routingKey: p.routing_key,
      body: p.body,
      msgId: `s${i}:${p.body}`,
      ...(p.mandatory !== undefined ? { mandatory: p.mandatory } : {}),
      ...(p.properties !== undefined ? { properties: publishProperties(p.properties) } : {}),
    };
  });
}

/** the broker delivers `expiration` as the string it is on the wire, whatever type the file gave */
function publishProperties(p: ScenarioPublishProperties): PublishProperties {
  const { expiration, ...rest } = p;
  return expiration === undefined ? rest : { ...rest, expiration: String(expiration) };
}

/** a scenario still busy after this many events never settles (the broker run's time bound, in events) */
export const SCENARIO_MAX_EVENTS = 100_000;

export interface ScenarioSimOptions {
  /** default: the profile of the broker it was recorded on (profileFromRecordedOn) */
  readonly profile?: ScenarioProfile;
  readonly seed?: number;
  /** virtual time bound (the broker runner's wall-clock bound); default the simulator's */
  readonly maxTimeMs?: number;
}

export function fromScenario(s: Scenario, opts: ScenarioSimOptions = {}): SimulationInput {
  return {
    topology: s.topology,
    consumers: scenarioConsumers(s),
    steps: scenarioSteps(s),
    profile: opts.profile ?? profileFromRecordedOn(s.recorded_on),
    seed: opts.seed ?? 1,
    startConsumers: s.start_consumers ?? 'before',
    settleMs: s.settle_ms ?? DEFAULT_SETTLE_MS,
    // the broker runner cancels its consumers and closes their channels before draining
    closeConsumersAtEnd: true,
    maxEvents: SCENARIO_MAX_EVENTS,
    ...(opts.maxTimeMs !== undefined ? { maxTimeMs: opts.maxTimeMs } : {}),
  };
}
