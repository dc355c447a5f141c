/** Canvas edge ids, derived from what the edge means so they survive reloads and undo. */
import type { BindingDef } from '@retry-studio/topology-core/model';

export type EdgeKind = 'binding' | 'deadLetter' | 'alternate' | 'republish' | 'consume' | 'publish';

const SEP = '\u241f'; // a separator no RabbitMQ name is likely to hold

export const edgeIdOf = {
  binding: (b: BindingDef) =>
    [
      'b',
      b.source,
      b.destination_type,
      b.destination,
      b.routing_key,
      b.arguments ? JSON.stringify(b.arguments) : '',
    ].join(SEP),
  deadLetter: (queue: string) => ['dl', queue].join(SEP),
  alternate: (exchange: string) => ['ae', exchange].join(SEP),
  republish: (consumerId: string, exchange: string) => ['rp', consumerId, exchange].join(SEP),
  /** a republish through the default exchange straight to a queue (the parking queue, mostly) */
  republishToQueue: (consumerId: string, queue: string) => ['rp', consumerId, '', queue].join(SEP),
  consume: (consumerId: string) => ['cq', consumerId].join(SEP),
  publish: (publisherId: string) => ['pe', publisherId].join(SEP),
};

const KIND: Record<string, EdgeKind> = {
  b: 'binding',
  dl: 'deadLetter',
  ae: 'alternate',
  rp: 'republish',
  cq: 'consume',
  pe: 'publish',
};

/** `from`/`to` are names or ids: for bindings source/destination, for consume the consumer in `to`, for a republish the consumer and the exchange. */
export function parseEdgeId(id: string): { kind: EdgeKind; from: string; to: string; queue?: string } | undefined {
  const parts = id.split(SEP);
  const kind = KIND[parts[0] ?? ''];
  if (!kind) return undefined;
  switch (kind) {
    case 'binding':
      return { kind, from: parts[1] ?? '', to: parts[3] ?? '' };
    case 'republish':
      // `to` the exchange; through the default exchange ('') the queue it names
      return { kind, from: parts[1] ?? '', to: parts[2] ?? '', ...(parts[3] !== undefined ? { queue: parts[3] } : {}) };
    case 'consume':
      return { kind, from: '', to: parts[1] ?? '' };
    default:
      return { kind, from: parts[1] ?? '', to: '' };
  }
}
