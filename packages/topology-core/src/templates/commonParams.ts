import { backoffSchedule } from './build.js';
import type { ParamSpec, ParamValues } from './types.js';

export const prefixParam = (def: string): ParamSpec => ({
  name: 'prefix',
  label: 'Name prefix',
  type: 'string',
  default: def,
  max: 100,
  help: 'every exchange and queue name starts with this',
});
export const maxRetriesParam = (def = 3): ParamSpec => ({
  name: 'maxRetries',
  label: 'Retries',
  type: 'integer',
  default: def,
  min: 0,
  max: 50,
  unit: 'count',
  help: 'retries after the first attempt',
});
export const delayParam = (name: string, label: string, def: number, min = 1): ParamSpec => ({
  name,
  label,
  type: 'integer',
  default: def,
  min,
  max: 4294967295,
  unit: 'ms',
});
/** Where a message that ran out of retries is parked: a classic queue (default) or a stream. */
export const parkingParam: ParamSpec = {
  name: 'parking',
  label: 'Parking place',
  type: 'enum',
  options: ['queue', 'stream'],
  default: 'queue',
  help: 'stream: parked messages are kept as a replayable log, read by offset and never consumed away',
};

export const multiplierParam: ParamSpec = {
  name: 'multiplier',
  label: 'Backoff multiplier',
  type: 'integer',
  default: 2,
  min: 1,
  max: 10,
};
export const delaysParam = (def: readonly number[]): ParamSpec => ({
  name: 'delaysMs',
  label: 'Delays',
  type: 'integer-list',
  default: def,
  min: 1,
  max: 4294967295,
  minItems: 1,
  maxItems: 10,
  unit: 'ms',
  help: 'one delay per retry, in order',
});

/** Retries with exponential backoff: min(maxDelayMs, initialDelayMs * multiplier^(n-1)) before retry n. */
export const backoffParams: readonly ParamSpec[] = [
  maxRetriesParam(3),
  delayParam('initialDelayMs', 'First delay', 1000),
  multiplierParam,
  delayParam('maxDelayMs', 'Longest delay', 60000),
];

/** The values of backoffParams, and the delay before each retry. */
export function readBackoff(p: ParamValues): {
  readonly max: number;
  readonly initial: number;
  readonly mult: number;
  readonly maxDelay: number;
  readonly delays: number[];
} {
  const [max, initial, mult, maxDelay] = [
    p.maxRetries as number,
    p.initialDelayMs as number,
    p.multiplier as number,
    p.maxDelayMs as number,
  ];
  return { max, initial, mult, maxDelay, delays: backoffSchedule(initial, mult, maxDelay, max) };
}
