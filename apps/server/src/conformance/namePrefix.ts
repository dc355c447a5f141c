/**
 * Fallback isolation when the management API (and so a fresh vhost) is unavailable: every
 * exchange and queue name gets a unique prefix on the way in, and the prefix is taken out of
 * everything observed on the way out (queue keys, x-death, x-first-death-*, routing keys).
 */
import type { AmqpTable, AmqpValue, Observed, ObservedDeath, Scenario, ScenarioAction, ScenarioStep } from '@retry-studio/topology-core';

export function prefixScenario(s: Scenario, prefix: string): Scenario {
  const p = (n: string): string => (n === '' ? n : prefix + n);
  const pArgs = (args: AmqpTable | undefined, keys: readonly string[]): AmqpTable | undefined => {
    if (!args) return args;
    const out: Record<string, AmqpValue> = { ...args };
    for (const k of keys) if (typeof out[k] === 'string') out[k] = p(out[k] as string);
    return out;
  };
  const action = (a: ScenarioAction): ScenarioAction => {
    if (typeof a === 'string') return a;
    const r = a.republish;
    return {
      republish: {
        ...r,
        exchange: p(r.exchange),
        ...(r.exchange === '' && r.routing_key !== undefined ? { routing_key: p(r.routing_key) } : {}),
      },
    };
  };
  const step = (st: ScenarioStep): ScenarioStep => {
    if (!('publish' in st)) return st;
    const pub = st.publish;
    return { publish: { ...pub, exchange: p(pub.exchange), routing_key: pub.exchange === '' ? p(pub.routing_key) : pub.routing_key } };
  };
  return {
    ...s,
    topology: {
      ...s.topology,
      exchanges: s.topology.exchanges.map((e) => ({ ...e, name: p(e.name), arguments: pArgs(e.arguments, ['alternate-exchange']) })),
      queues: s.topology.queues.map((q) => {
        const args = pArgs(q.arguments, ['x-dead-letter-exchange']);
        // a dead-letter routing key through the default exchange names a queue
        if (args && args['x-dead-letter-exchange'] === '' && typeof args['x-dead-letter-routing-key'] === 'string') {
          (args as Record<string, AmqpValue>)['x-dead-letter-routing-key'] = p(args['x-dead-letter-routing-key'] as string);
        }
        return { ...q, name: p(q.name), arguments: args };
      }),
      bindings: s.topology.bindings.map((b) => ({ ...b, source: p(b.source), destination: p(b.destination) })),
    },
    consumers: s.consumers.map((c) => ({ ...c, queue: p(c.queue), actions: c.actions.map(action) })),
    steps: s.steps.map(step),
  };
}

export function unprefixObserved(o: Observed, prefix: string): Observed {
  const u = (n: string): string => (n.startsWith(prefix) ? n.slice(prefix.length) : n);
  const death = (d: ObservedDeath): ObservedDeath => ({ ...d, queue: u(d.queue), exchange: u(d.exchange), 'routing-keys': d['routing-keys'].map(u) });
  const headers = (h: AmqpTable | undefined): AmqpTable | undefined => {
    if (!h) return h;
    const out: Record<string, AmqpValue> = { ...h };
    for (const k of ['x-first-death-queue', 'x-first-death-exchange', 'x-last-death-queue', 'x-last-death-exchange']) {
      if (typeof out[k] === 'string') out[k] = u(out[k] as string);
    }
    return out;
  };
  const msg = <T extends { 'x-death'?: readonly ObservedDeath[]; headers?: AmqpTable }>(m: T): T => {
    const r: T = { ...m };
    if (m['x-death']) r['x-death'] = m['x-death'].map(death);
    if (m.headers) r.headers = headers(m.headers);
    return r;
  };
  const byQueue = <T extends { 'x-death'?: readonly ObservedDeath[]; headers?: AmqpTable }>(m: { readonly [q: string]: readonly T[] }) =>
    Object.fromEntries(Object.entries(m).map(([q, list]) => [u(q), list.map(msg)]));
  return { ...o, deliveries: byQueue(o.deliveries), final: byQueue(o.final) };
}
