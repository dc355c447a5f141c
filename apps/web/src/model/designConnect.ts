/**
 * Connecting two handles on the canvas: the kinds of the two ends decide what the edge means
 * (a binding, a dead-letter exchange, a consumer's queue, a republish target, a publisher's
 * exchange). Pure, like every design edit.
 */
import type {
  BindingDef,
  ConsumerAction,
  ConsumerBehaviour,
  Design,
  ExchangeDef,
} from '@retry-studio/topology-core/model';
import { topicMatches } from '@retry-studio/topology-core/routing';
import { parseNodeId, type NodeKind } from './nodeIds';
import { edgeIdOf, type EdgeKind } from './edgeIds';

export type ConnectResult = { design: Design; kind: EdgeKind; edgeId: string } | { error: string };

/**
 * Connecting two handles: the kinds of the two ends decide what the edge means.
 * exchange→queue/exchange binds (the `ae` handle sets the alternate exchange instead),
 * queue→exchange sets the dead-letter exchange, queue→consumer attaches the consumer,
 * consumer→exchange republishes, publisher→exchange sets where it publishes.
 */
export function connect(
  design: Design,
  sourceId: string,
  targetId: string,
  sourceHandle?: string | null,
): ConnectResult {
  const s = parseNodeId(sourceId);
  const t = parseNodeId(targetId);
  if (!s || !t) return { error: 'unknown node' };
  if (sourceId === targetId && s.kind !== 'exchange') return { error: 'cannot connect a node to itself' };
  const topo = design.topology;
  const pair = `${s.kind}->${t.kind}` as `${NodeKind}->${NodeKind}`;
  switch (pair) {
    case 'exchange->exchange':
      if (sourceHandle === 'ae') {
        const exchanges = topo.exchanges.map((x) =>
          x.name === s.key ? { ...x, arguments: { ...(x.arguments ?? {}), 'alternate-exchange': t.key } } : x,
        );
        return {
          design: { ...design, topology: { ...topo, exchanges } },
          kind: 'alternate',
          edgeId: edgeIdOf.alternate(s.key),
        };
      }
    // falls through: an exchange-to-exchange binding
    case 'exchange->queue': {
      const source = topo.exchanges.find((x) => x.name === s.key);
      const b: BindingDef = {
        source: s.key,
        destination: t.key,
        destination_type: t.kind === 'queue' ? 'queue' : 'exchange',
        routing_key: source?.type === 'fanout' ? '' : t.key,
        ...(source?.type === 'headers' ? { arguments: { 'x-match': 'all' } } : {}),
      };
      const id = edgeIdOf.binding(b);
      if (topo.bindings.some((x) => edgeIdOf.binding(x) === id)) return { error: 'that binding exists already' };
      const bindings = [...topo.bindings, b];
      // a publisher drawn first publishes with no key: give it this binding's, or every message it sends is dropped
      const publishers = design.publishers.map((p) =>
        p.exchange === s.key &&
        p.routingKey === '' &&
        !routes(source, bindings, '') &&
        literalKey(source, b.routing_key)
          ? { ...p, routingKey: b.routing_key }
          : p,
      );
      return { design: { ...design, publishers, topology: { ...topo, bindings } }, kind: 'binding', edgeId: id };
    }
    case 'queue->exchange': {
      const queues = topo.queues.map((q) =>
        q.name === s.key ? { ...q, arguments: { ...(q.arguments ?? {}), 'x-dead-letter-exchange': t.key } } : q,
      );
      return {
        design: { ...design, topology: { ...topo, queues } },
        kind: 'deadLetter',
        edgeId: edgeIdOf.deadLetter(s.key),
      };
    }
    case 'queue->consumer': {
      const consumers = design.consumers.map((c) => (c.id === t.key ? { ...c, queue: s.key } : c));
      return { design: { ...design, consumers }, kind: 'consume', edgeId: edgeIdOf.consume(t.key) };
    }
    case 'consumer->exchange': {
      const consumers = design.consumers.map((c) =>
        c.id === s.key ? { ...c, behaviour: withRepublish(c.behaviour, t.key) } : c,
      );
      return { design: { ...design, consumers }, kind: 'republish', edgeId: edgeIdOf.republish(s.key, t.key) };
    }
    case 'publisher->exchange': {
      // a publisher with no key, onto an exchange whose bindings want one: it takes the first binding's key
      const x = topo.exchanges.find((e) => e.name === t.key);
      const bound = topo.bindings.filter((b) => b.source === t.key);
      const key = bound.map((b) => b.routing_key).find((k) => literalKey(x, k));
      const publishers = design.publishers.map((p) =>
        p.id === s.key
          ? {
              ...p,
              exchange: t.key,
              ...(p.routingKey === '' && key !== undefined && !routes(x, bound, '') ? { routingKey: key } : {}),
            }
          : p,
      );
      return { design: { ...design, publishers }, kind: 'publish', edgeId: edgeIdOf.publish(s.key) };
    }
    default:
      return { error: `a ${s.kind} cannot connect to a ${t.kind}` };
  }
}

/** Does a message with `key` reach any of the exchange's bindings (direct and topic; other types route without a key)? */
function routes(x: ExchangeDef | undefined, bindings: readonly BindingDef[], key: string): boolean {
  if (x?.type !== 'direct' && x?.type !== 'topic') return true;
  return bindings.some(
    (b) => b.source === x.name && (x.type === 'direct' ? b.routing_key === key : topicMatches(b.routing_key, key)),
  );
}

/** a key a publisher can send as is: any key of a direct exchange, a topic key without wildcards */
const literalKey = (x: ExchangeDef | undefined, key: string) =>
  key !== '' && (x?.type === 'direct' || (x?.type === 'topic' && !/[*#]/.test(key)));

/** The failure path of a behaviour now republishes to `exchange` (its last unconditional reject becomes the republish). */
function withRepublish(b: ConsumerBehaviour, exchange: string): ConsumerBehaviour {
  const action: ConsumerAction = {
    kind: 'republish',
    exchange,
    headers: { 'x-retries': { kind: 'counter', by: { kind: 'header', name: 'x-retries' }, add: 1 } },
  };
  switch (b.kind) {
    case 'worker': {
      const idx = b.onFailure.findIndex((r) => !r.when && r.then.kind === 'reject');
      const onFailure =
        idx >= 0 ? b.onFailure.map((r, i) => (i === idx ? { then: action } : r)) : [...b.onFailure, { then: action }];
      return { ...b, onFailure };
    }
    case 'router':
      return { ...b, rules: [...b.rules, { then: action }] };
    case 'script':
      return { ...b, actions: [...b.actions, action] };
  }
}
