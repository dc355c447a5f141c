/**
 * Shrinking a disagreement: smaller variants of a scenario (one step, consumer, binding, queue,
 * exchange, policy, argument or action fewer), tried greedily; a variant is kept while it still
 * disagrees (the caller's `stillDisagrees` runs it on the broker) and the loop starts over from it.
 */
import type { AmqpTable, QueueDef } from '@retry-studio/topology-core/model';
import type { Scenario, ScenarioAction } from '@retry-studio/topology-core/scenario';

const without = <T>(xs: readonly T[], i: number): T[] => xs.filter((_, j) => j !== i);

function withoutKey(t: AmqpTable, k: string): AmqpTable {
  const { [k]: _drop, ...rest } = t;
  return rest;
}

function republishTargets(s: Scenario): Set<string> {
  const out = new Set<string>();
  for (const c of s.consumers) for (const a of c.actions) if (typeof a !== 'string') out.add(a.republish.exchange);
  return out;
}

/** Every one-step-smaller variant of `s`, biggest cuts first. */
export function* shrinkCandidates(s: Scenario): Generator<Scenario> {
  const t = s.topology;
  for (let i = 0; i < t.queues.length; i++) {
    const q = t.queues[i]!.name;
    yield {
      ...s,
      topology: {
        ...t,
        queues: without(t.queues, i),
        bindings: t.bindings.filter((b) => !(b.destination_type === 'queue' && b.destination === q)),
      },
      consumers: s.consumers.filter((c) => c.queue !== q),
    };
  }
  const used = new Set([
    ...republishTargets(s),
    ...s.steps.flatMap((st) => ('publish' in st ? [st.publish.exchange] : [])),
  ]);
  for (let i = 0; i < t.exchanges.length; i++) {
    const x = t.exchanges[i]!.name;
    if (used.has(x)) continue;
    yield {
      ...s,
      topology: {
        ...t,
        exchanges: without(t.exchanges, i),
        bindings: t.bindings.filter(
          (b) => b.source !== x && !(b.destination_type === 'exchange' && b.destination === x),
        ),
      },
    };
  }
  for (let i = 0; i < s.steps.length; i++) if (s.steps.length > 1) yield { ...s, steps: without(s.steps, i) };
  for (let i = 0; i < s.consumers.length; i++) yield { ...s, consumers: without(s.consumers, i) };
  for (let i = 0; i < t.bindings.length; i++) yield { ...s, topology: { ...t, bindings: without(t.bindings, i) } };
  const policies = t.policies ?? [];
  for (let i = 0; i < policies.length; i++) yield { ...s, topology: { ...t, policies: without(policies, i) } };
  for (let i = 0; i < policies.length; i++) {
    const p = policies[i]!;
    const keys = Object.keys(p.definition);
    if (keys.length < 2) continue;
    for (const k of keys)
      yield {
        ...s,
        topology: {
          ...t,
          policies: policies.map((o, j) => (j === i ? { ...o, definition: withoutKey(o.definition, k) } : o)),
        },
      };
  }
  for (let i = 0; i < t.queues.length; i++) {
    const q = t.queues[i]!;
    for (const k of Object.keys(q.arguments ?? {})) {
      const next: QueueDef = { ...q, arguments: withoutKey(q.arguments ?? {}, k) };
      yield { ...s, topology: { ...t, queues: t.queues.map((o, j) => (j === i ? next : o)) } };
    }
  }
  for (let i = 0; i < s.consumers.length; i++) {
    const c = s.consumers[i]!;
    const swap = (actions: ScenarioAction[]): Scenario => ({
      ...s,
      consumers: s.consumers.map((o, j) => (j === i ? { ...o, actions } : o)),
    });
    for (let j = 0; j < c.actions.length; j++) if (c.actions.length > 1) yield swap(without(c.actions, j));
    for (let j = 0; j < c.actions.length; j++)
      if (typeof c.actions[j] !== 'string') yield swap(c.actions.map((a, k) => (k === j ? 'ack' : a)));
  }
  for (let i = 0; i < s.steps.length; i++) {
    const st = s.steps[i]!;
    if (!('publish' in st) || !st.publish.properties) continue;
    const { properties: _p, ...plain } = st.publish;
    yield { ...s, steps: s.steps.map((o, j) => (j === i ? { publish: plain } : o)) };
  }
}

/**
 * Greedy shrink: the first smaller variant that still disagrees replaces the case, until none
 * does or `budget` variants have been tried. `stillDisagrees` answers undefined for a variant it
 * will not try (one the race filter avoids).
 */
export async function shrinkScenario(
  s: Scenario,
  stillDisagrees: (c: Scenario) => Promise<boolean | undefined>,
  budget: number,
): Promise<{ scenario: Scenario; tried: number }> {
  let current = s;
  let tried = 0;
  for (;;) {
    let smaller: Scenario | undefined;
    for (const c of shrinkCandidates(current)) {
      if (tried >= budget) return { scenario: current, tried };
      const r = await stillDisagrees(c);
      if (r === undefined) continue;
      tried += 1;
      if (r) {
        smaller = c;
        break;
      }
    }
    if (!smaller) return { scenario: current, tried };
    current = smaller;
  }
}
