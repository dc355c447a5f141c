/**
 * Fallback isolation when the management API (and so a fresh vhost) is unavailable: every
 * exchange and queue name gets a unique prefix on the way in, and the prefix is taken out of
 * everything observed on the way out (queue keys, x-death, x-first/last-death-*, routing keys).
 * Which fields name a queue or an exchange is the core's reference walker's to say
 * (`mapReferences`, `mapHeaderReferences`): the topology is prefixed as a deploy prefixes it,
 * and the consumers' republishes and the publish steps go through the walker as a design's
 * consumers and publishers.
 */
import {
  mapHeaderReferences,
  mapReferences,
  type AmqpTable,
  type ConsumerAction,
  type PublisherSpec,
} from '@retry-studio/topology-core/model';
import {
  scenarioConsumers,
  type Observed,
  type ObservedDeath,
  type Scenario,
  type ScenarioAction,
  type ScenarioStep,
} from '@retry-studio/topology-core/scenario';
import { Renamer, prefixedName, renameTopology } from '../deploy/deployTarget.js';

export function prefixScenario(s: Scenario, prefix: string): Scenario {
  const r = new Renamer(prefix);
  // the consumers and the publish steps as a design's, walked with the scenario's queues in view
  const publishes = s.steps.flatMap((st) => ('publish' in st ? [st.publish] : []));
  const publishers: PublisherSpec[] = publishes.map((p, i) => ({
    id: `step${i}`,
    exchange: p.exchange,
    routingKey: p.routing_key,
    ...(p.properties?.headers ? { properties: { headers: p.properties.headers } } : {}),
  }));
  const walked = mapReferences({ topology: s.topology, consumers: scenarioConsumers(s), publishers }, prefixedName(r));
  const action = (a: ScenarioAction, w: ConsumerAction | undefined): ScenarioAction => {
    if (typeof a === 'string' || w?.kind !== 'republish') return a;
    const headers =
      a.republish.headers && mapHeaderReferences(a.republish.headers, prefixedName(r), 'republish.headers');
    return {
      republish: {
        ...a.republish,
        exchange: w.exchange,
        ...(w.routingKey !== undefined ? { routing_key: w.routingKey } : {}),
        ...(headers !== undefined ? { headers } : {}),
      },
    };
  };
  let k = 0;
  const step = (st: ScenarioStep): ScenarioStep => {
    if (!('publish' in st)) return st;
    const w = walked.publishers[k++]!;
    const pub = st.publish;
    const headers = w.properties?.headers;
    return {
      publish: {
        ...pub,
        exchange: w.exchange,
        routing_key: w.routingKey,
        ...(pub.properties && headers ? { properties: { ...pub.properties, headers } } : {}),
      },
    };
  };
  return {
    ...s,
    topology: renameTopology(s.topology, r),
    consumers: s.consumers.map((c, i) => {
      const w = walked.consumers[i]!;
      const actions = w.behaviour.kind === 'script' ? w.behaviour.actions : [];
      return { ...c, queue: w.queue, actions: c.actions.map((a, j) => action(a, actions[j])) };
    }),
    steps: s.steps.map(step),
  };
}

export function unprefixObserved(o: Observed, prefix: string): Observed {
  const r = new Renamer(prefix);
  const u = (n: string): string => r.back(n);
  const death = (d: ObservedDeath): ObservedDeath => ({
    ...d,
    queue: u(d.queue),
    exchange: u(d.exchange),
    'routing-keys': d['routing-keys'].map(u),
  });
  const headers = (h: AmqpTable | undefined): AmqpTable | undefined =>
    mapHeaderReferences(h, (ref) => u(ref.name), 'headers');
  const msg = <T extends { 'x-death'?: readonly ObservedDeath[]; headers?: AmqpTable }>(m: T): T => {
    const out: T = { ...m };
    if (m['x-death']) out['x-death'] = m['x-death'].map(death);
    if (m.headers) out.headers = headers(m.headers);
    return out;
  };
  const byQueue = <T extends { 'x-death'?: readonly ObservedDeath[]; headers?: AmqpTable }>(m: {
    readonly [q: string]: readonly T[];
  }) => Object.fromEntries(Object.entries(m).map(([q, list]) => [u(q), list.map(msg)]));
  return { ...o, deliveries: byQueue(o.deliveries), final: byQueue(o.final) };
}
