import type { AmqpTable } from './definitions.js';

export interface PublishProperties {
  readonly headers?: AmqpTable;
  /** per-message TTL, a decimal string of milliseconds, as on the wire */
  readonly expiration?: string;
  readonly priority?: number;
  readonly message_id?: string;
}

/** A source of test messages on the canvas. */
export interface PublisherSpec {
  readonly id: string;
  readonly label?: string;
  readonly exchange: string;
  readonly routingKey: string;
  readonly properties?: PublishProperties;
  readonly mandatory?: boolean;
  /** body prefix; messages are `${bodyPrefix}-${n}` */
  readonly bodyPrefix?: string;
}
