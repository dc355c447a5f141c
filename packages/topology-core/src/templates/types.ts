/** Retry strategy templates: typed parameters in, a complete Design (and its story) out. */
import type { Design, BrokerProfileId } from '../model/design.js';
import type { NodeId } from '../model/nodeIds.js';

export type ParamType = 'integer' | 'string' | 'boolean' | 'enum' | 'integer-list';
export type ParamValue = number | string | boolean | readonly number[];

/** One parameter, described so that the web can render a form for it. */
export interface ParamSpec {
  readonly name: string;
  readonly label: string;
  readonly type: ParamType;
  readonly default: ParamValue;
  /** integer: value bounds; integer-list: bounds of each item */
  readonly min?: number;
  readonly max?: number;
  /** integer-list: length bounds */
  readonly minItems?: number;
  readonly maxItems?: number;
  /** enum choices */
  readonly options?: readonly string[];
  readonly unit?: 'ms' | 'count';
  readonly help?: string;
}

export type ParamValues = { readonly [name: string]: ParamValue };

/** Where a failing message ends. */
export type Ending =
  /** `also`: queues that receive a copy as well (fanout / several matching bindings) */
  | { readonly kind: 'queue'; readonly queue: string; readonly also?: readonly string[] }
  | { readonly kind: 'dropped' }
  | { readonly kind: 'acked' }
  /** the application gave up and acked it: gone, never processed */
  | { readonly kind: 'discarded'; readonly consumer: string }
  /** it keeps cycling (the run is cut off) */
  | { readonly kind: 'cycling' }
  /** delivered and held unacked (`hold`) by this consumer: no later `multiple` settled it */
  | { readonly kind: 'held'; readonly consumer: string };

/** What the template promises for one message under a failure model; the tests check it by simulation. */
export interface DocumentedOutcome {
  readonly failure: { readonly kind: 'always' } | { readonly kind: 'failFirst'; readonly n: number };
  /** deliveries to the work consumer(s) */
  readonly attempts: number | 'unbounded';
  /** virtual ms between consecutive attempts (length attempts-1) */
  readonly delaysMs: readonly number[];
  readonly endsIn: Ending;
}

export interface LayoutHints {
  /** left-to-right columns of node ids (the flow of a message) */
  readonly columns: readonly (readonly NodeId[])[];
  /** nodes drawn as the "retry loop" (highlighted edges) */
  readonly loop?: readonly NodeId[];
}

export interface BuiltTemplate {
  readonly id: string;
  readonly params: ParamValues;
  readonly design: Design;
  readonly explanation: string;
  readonly layout: LayoutHints;
  readonly requires: readonly string[];
  readonly profile: BrokerProfileId;
  /** consumer ids whose deliveries count as processing attempts */
  readonly workConsumers: readonly string[];
  readonly documented: readonly DocumentedOutcome[];
}

export interface RetryTemplate {
  readonly id: string;
  readonly title: string;
  /** one line */
  readonly summary: string;
  readonly params: readonly ParamSpec[];
  readonly requires: readonly string[];
  readonly profile: BrokerProfileId;
  /** whether a stock RabbitMQ 3.10 (no plugins) can run it */
  readonly runsOnStock310: boolean;
  readonly build: (p: ParamValues) => BuiltTemplate;
}
