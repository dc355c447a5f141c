/**
 * `retry-scenario/1`: a topology, consumers, publish/wait steps, and what a real broker did.
 * See ../../../../../shared/conformance/README.md (the format is read as it stands).
 */
import type { AmqpTable, AmqpValue, Topology } from '../model/definitions.js';

export const SCENARIO_FORMAT = 'retry-scenario/1';

export type ScenarioAction =
  | 'ack'
  | 'reject'
  | 'requeue'
  /** basic.reject requeue=true (4.3: counts toward a quorum delivery limit, unlike a nack) */
  | 'reject-requeue'
  /** (this runner's addition) leave the delivery unacked until a later `*-multiple` settles it */
  | 'hold'
  /** basic.ack multiple=true: this delivery and every earlier unacked one on the consumer's channel */
  | 'ack-multiple'
  /** basic.nack multiple=true requeue=false */
  | 'nack-multiple'
  /** basic.nack multiple=true requeue=true */
  | 'nack-multiple-requeue'
  | {
      readonly republish: {
        readonly exchange: string;
        readonly routing_key?: string;
        readonly routing_key_from_header?: string;
        readonly headers?: { readonly [k: string]: AmqpValue };
        readonly expiration?: number | string;
      };
    };

export interface ScenarioConsumer {
  readonly queue: string;
  readonly actions: readonly ScenarioAction[];
  readonly prefetch?: number;
  /**
   * our extension (conformance/README.md): a consumer of a stream starts at this offset
   * (`x-stream-offset`: first, last, next or a number); absent, the broker's default `next`
   */
  readonly offset?: 'first' | 'last' | 'next' | number;
}

/** a file may give `expiration` as a number; the broker delivers it as a string */
export interface ScenarioPublishProperties {
  readonly headers?: AmqpTable;
  readonly expiration?: string | number;
}

export type ScenarioStep =
  | {
      readonly publish: {
        readonly exchange: string;
        readonly routing_key: string;
        readonly body: string;
        readonly mandatory?: boolean;
        readonly properties?: ScenarioPublishProperties;
      };
    }
  | { readonly wait_ms: number };

/** x-death as normalised: no `time`. */
export interface ObservedDeath {
  readonly queue: string;
  readonly reason: string;
  readonly count: number;
  readonly exchange: string;
  readonly 'routing-keys': readonly string[];
  readonly 'original-expiration'?: string;
}

export interface ObservedDelivery {
  readonly body: string;
  readonly redelivered: boolean;
  readonly 'x-death'?: readonly ObservedDeath[];
  readonly headers?: AmqpTable;
  readonly expiration?: string;
}

export interface ObservedMessage {
  readonly body: string;
  readonly 'x-death'?: readonly ObservedDeath[];
  readonly headers?: AmqpTable;
  readonly expiration?: string;
}

/** What a run observed, normalised as the format README says. */
export interface Observed {
  readonly deliveries: { readonly [queue: string]: readonly ObservedDelivery[] };
  readonly final: { readonly [queue: string]: readonly ObservedMessage[] };
  readonly publish_nacked?: readonly string[];
  readonly returned?: readonly string[];
}

export interface Scenario {
  readonly format: typeof SCENARIO_FORMAT;
  readonly name: string;
  readonly description?: string;
  readonly requires?: readonly string[];
  readonly recorded_on?: string;
  readonly topology: Topology;
  readonly consumers: readonly ScenarioConsumer[];
  readonly start_consumers?: 'before' | 'after';
  readonly steps: readonly ScenarioStep[];
  readonly settle_ms?: number;
  readonly expect?: Observed;
}
