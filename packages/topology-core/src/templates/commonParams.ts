import type { ParamSpec } from './types.js';

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
export const multiplierParam: ParamSpec = { name: 'multiplier', label: 'Backoff multiplier', type: 'integer', default: 2, min: 1, max: 10 };
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
