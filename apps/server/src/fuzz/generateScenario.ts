/**
 * The fuzzer's generator: one seeded random retry topology as a retry-scenario/1 (no `expect`,
 * no `settle_ms` yet: raceFilter.ts decides both from the simulator's timeline).
 *
 * The space: 1-3 exchanges (direct, fanout, topic, headers; sometimes bound exchange to exchange),
 * work queues (a consumer each), wait queues (a TTL, no consumer) and parking queues (no consumer),
 * classic or quorum, with random dead-letter exchange (a declared one, the default exchange, or a
 * missing one) and routing key, max-length with an overflow mode, a delivery limit (quorum),
 * policies, wildcard and headers bindings, and consumers scripted with the format's actions.
 * What it leaves out by construction is in AVOIDED (fuzzAvoided.ts) with the reason.
 */
import { mulberry32, type Rng } from '@retry-studio/topology-core/sim';
import type { AmqpTable, BindingDef, ExchangeDef, PolicyDef, QueueDef } from '@retry-studio/topology-core/model';
import {
  SCENARIO_FORMAT,
  type Scenario,
  type ScenarioAction,
  type ScenarioConsumer,
  type ScenarioStep,
} from '@retry-studio/topology-core/scenario';

/** the seed of topology `index` in a batch: every topology is reproducible on its own */
export function topologySeed(seed: number, index: number): number {
  return (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca77)) >>> 0;
}

class Draw {
  constructor(private readonly rng: Rng) {}
  chance(p: number): boolean {
    return this.rng.next() < p;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rng.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rng.next() * xs.length)]!;
  }
}

const EXCHANGE_TYPES = ['direct', 'fanout', 'topic', 'headers'] as const;
const KEYS = ['a', 'b', 'a.b', 'b.a', 'a.b.c'] as const;
const TOPIC_PATTERNS = ['a', 'a.b', '*.b', 'a.*', '#', 'a.#', '#.b', '*', 'b.#.c'] as const;
const HEADER_VALUES: readonly AmqpTable[] = [{ h1: 'x' }, { h2: 'y' }, { h1: 'x', h2: 'y' }, {}];
/**
 * Wait-queue TTLs, far enough apart that two paths through different waits never arrive within
 * the race margin of each other by accident (the timeline check rejects the ones that do).
 */
const WAIT_TTLS = [200, 500, 900] as const;

type Role = 'work' | 'wait' | 'park';

interface QueuePlan {
  readonly name: string;
  readonly role: Role;
  readonly quorum: boolean;
}

function bindingKey(d: Draw, type: ExchangeDef['type']): { routing_key: string; arguments?: AmqpTable } {
  if (type === 'fanout') return { routing_key: '' };
  if (type === 'topic') return { routing_key: d.pick(TOPIC_PATTERNS) };
  if (type === 'headers')
    return { routing_key: '', arguments: { 'x-match': d.pick(['all', 'any']), ...d.pick(HEADER_VALUES.slice(0, 3)) } };
  return { routing_key: d.pick(KEYS) };
}

function deadLetterArgs(d: Draw, exchanges: readonly ExchangeDef[], queues: readonly QueuePlan[]): AmqpTable {
  const args: Record<string, AmqpTable[string]> = {};
  const r = d.int(0, 9);
  // mostly a declared exchange; sometimes the default exchange with a queue's name as the key, or one that does not exist
  if (r < 6) args['x-dead-letter-exchange'] = d.pick(exchanges).name;
  else if (r < 8) {
    args['x-dead-letter-exchange'] = '';
    args['x-dead-letter-routing-key'] = d.pick(queues).name;
    return args;
  } else if (r < 9) args['x-dead-letter-exchange'] = 'missing';
  else return args;
  if (d.chance(0.4)) args['x-dead-letter-routing-key'] = d.pick([...KEYS, ...queues.map((q) => q.name)]);
  return args;
}

function overflowArgs(d: Draw, quorum: boolean): AmqpTable {
  if (!d.chance(0.3)) return {};
  // a quorum queue has no reject-publish-dlx (the broker refuses the declare)
  const modes = quorum ? ['drop-head', 'reject-publish'] : ['drop-head', 'reject-publish', 'reject-publish-dlx'];
  return { 'x-max-length': d.int(0, 2), 'x-overflow': d.pick(modes) };
}

function queueDef(d: Draw, q: QueuePlan, exchanges: readonly ExchangeDef[], all: readonly QueuePlan[]): QueueDef {
  const args: Record<string, AmqpTable[string]> = q.quorum ? { 'x-queue-type': 'quorum' } : {};
  if (q.role !== 'park' || d.chance(0.3)) Object.assign(args, deadLetterArgs(d, exchanges, all));
  // a wait queue has a TTL; sometimes a parking queue too (what expires there is dead-lettered or dropped)
  if (q.role === 'wait' || (q.role === 'park' && d.chance(0.15))) args['x-message-ttl'] = d.pick(WAIT_TTLS);
  // a consumed queue gets no TTL and no length limit: what expires or overflows there depends on how fast the consumer takes it
  if (q.role !== 'work') Object.assign(args, overflowArgs(d, q.quorum));
  if (q.quorum && q.role === 'work' && d.chance(0.5)) args['x-delivery-limit'] = d.int(0, 3);
  // quorum at-least-once dead-lettering needs reject-publish overflow (else the broker falls back to at-most-once)
  if (q.quorum && args['x-dead-letter-exchange'] !== undefined && d.chance(0.15))
    Object.assign(args, { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' });
  return { name: q.name, durable: true, auto_delete: false, arguments: args };
}

function consumerActions(d: Draw, exchanges: readonly ExchangeDef[]): ScenarioAction[] {
  const n = d.int(1, 4);
  const actions: ScenarioAction[] = [];
  for (let i = 0; i < n; i++) {
    const last = i === n - 1;
    const r = d.int(0, 9);
    // the last action repeats forever: a requeue there never ends (the timeline check would drop it), so it is never last
    if (r < 3) actions.push('ack');
    else if (r < 6) actions.push('reject');
    else if (r < 7 && !last) actions.push('requeue');
    else if (r < 8 && !last) actions.push('reject-requeue');
    else if (r < 9) {
      const ex = d.pick(exchanges);
      actions.push({ republish: { exchange: ex.name, ...(d.chance(0.6) ? { routing_key: d.pick(KEYS) } : {}) } });
    } else actions.push(d.pick(['ack', 'reject'] as const));
  }
  return actions;
}

function policies(d: Draw, queues: readonly QueuePlan[], exchanges: readonly ExchangeDef[]): PolicyDef[] {
  if (!d.chance(0.3)) return [];
  const n = d.int(1, 2);
  const out: PolicyDef[] = [];
  for (let i = 0; i < n; i++) {
    const definition: Record<string, AmqpTable[string]> = {};
    if (d.chance(0.6)) definition['dead-letter-exchange'] = d.pick(exchanges).name;
    if (d.chance(0.3)) definition['dead-letter-routing-key'] = d.pick(KEYS);
    if (d.chance(0.3)) definition['message-ttl'] = d.pick(WAIT_TTLS);
    if (d.chance(0.3)) definition['max-length'] = d.int(1, 2);
    if (d.chance(0.2)) definition['delivery-limit'] = d.int(0, 2);
    if (Object.keys(definition).length === 0) definition['dead-letter-exchange'] = d.pick(exchanges).name;
    const target = d.pick(queues);
    // a pattern by role (every wait queue), by one name, or by a suffix
    const pattern = d.pick([`^${target.role}`, `^${target.name}$`, `${target.name.slice(-1)}$`]);
    // distinct priorities: two policies of equal priority on one queue are a tie the broker breaks its own way
    out.push({ name: `pol${i + 1}`, pattern, 'apply-to': 'queues', priority: i * 10, definition });
  }
  return out;
}

/** One random scenario from `seed` (named `name`), consumers attached after the publishes. */
export function generateScenario(seed: number, name: string): Scenario {
  const d = new Draw(mulberry32(seed));
  const exchanges: ExchangeDef[] = [];
  const nEx = d.int(1, 3);
  for (let i = 0; i < nEx; i++)
    exchanges.push({
      name: `x${i + 1}`,
      type: d.pick(EXCHANGE_TYPES),
      durable: true,
      auto_delete: false,
      arguments: {},
    });
  // sometimes the first exchange has an alternate exchange (the last one) for what it cannot route
  if (nEx > 1 && d.chance(0.2))
    exchanges[0] = { ...exchanges[0]!, arguments: { 'alternate-exchange': exchanges[nEx - 1]!.name } };
  const plans: QueuePlan[] = [];
  const add = (role: Role, n: number): void => {
    for (let i = 1; i <= n; i++) plans.push({ name: `${role}${i}`, role, quorum: d.chance(0.35) });
  };
  add('work', d.int(1, 2));
  add('wait', d.int(0, 2));
  add('park', d.int(0, 2));
  const queues = plans.map((q) => queueDef(d, q, exchanges, plans));
  const bindings: BindingDef[] = [];
  for (const q of plans) {
    const n = d.int(q.role === 'work' ? 1 : 0, 2);
    for (let i = 0; i < n; i++) {
      const ex = d.pick(exchanges);
      const b: BindingDef = {
        source: ex.name,
        destination: q.name,
        destination_type: 'queue',
        ...bindingKey(d, ex.type),
      };
      if (!bindings.some((o) => JSON.stringify(o) === JSON.stringify(b))) bindings.push(b);
    }
  }
  if (exchanges.length > 1 && d.chance(0.2)) {
    const [src, dst] = [exchanges[0]!, exchanges[exchanges.length - 1]!];
    bindings.push({
      source: src.name,
      destination: dst.name,
      destination_type: 'exchange',
      ...bindingKey(d, src.type),
    });
  }
  const consumers: ScenarioConsumer[] = plans
    .filter((q) => q.role === 'work')
    .map((q) => ({ queue: q.name, actions: consumerActions(d, exchanges) }));
  const steps: ScenarioStep[] = [];
  const nMsg = d.int(1, 3);
  // one per-message TTL for every publish, or none: different ones in one queue are the head-of-line case (AVOIDED)
  const expiration = d.chance(0.15) ? d.pick(WAIT_TTLS) : undefined;
  for (let i = 1; i <= nMsg; i++) {
    const viaDefault = d.chance(0.15);
    const ex = viaDefault ? undefined : d.pick(exchanges);
    const headers = ex?.type === 'headers' || d.chance(0.2) ? d.pick(HEADER_VALUES) : undefined;
    const properties = {
      ...(headers && Object.keys(headers).length > 0 ? { headers } : {}),
      ...(expiration !== undefined ? { expiration: String(expiration) } : {}),
    };
    steps.push({
      publish: {
        exchange: ex?.name ?? '',
        routing_key: ex ? d.pick(KEYS) : d.pick(plans).name,
        body: `m${i}`,
        ...(d.chance(0.15) ? { mandatory: true } : {}),
        ...(Object.keys(properties).length > 0 ? { properties } : {}),
      },
    });
  }
  const pols = policies(d, plans, exchanges);
  return {
    format: SCENARIO_FORMAT,
    name,
    description: `fuzz topology (seed ${seed})`,
    topology: { exchanges, queues, bindings, ...(pols.length > 0 ? { policies: pols } : {}) },
    consumers,
    // consumers attach once every publish is confirmed: a publish racing a consumer's requeue or dead letter is AVOIDED
    start_consumers: 'after',
    steps,
  };
}
