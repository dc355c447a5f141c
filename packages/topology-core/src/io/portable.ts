/**
 * Portable compile: the same design without the delayed-message exchange plugin. Each
 * x-delayed-message exchange D becomes an ordinary exchange of its x-delayed-type; a headers
 * exchange `D.delay` sends a message by its x-delay header to a wait queue with that TTL,
 * which dead-letters it back into D with its routing key unchanged. Publishers and consumers
 * that published to D publish to `D.delay` instead. The result says exactly what changed.
 */
import type { AmqpValue, BindingDef, ExchangeDef, QueueDef } from '../model/definitions.js';
import type { ConsumerAction, ConsumerSpec, Rule, ValueExpr } from '../model/consumer.js';
import type { Design } from '../model/design.js';
import type { ValidationIssue } from '../model/validateResult.js';
import { MAX_TTL_MS } from '../model/arguments.js';
import { validateDesign } from '../model/validateDesign.js';

export type PortableResult =
  | { readonly ok: true; readonly design: Design; readonly changed: boolean; readonly changes: readonly string[] }
  | { readonly ok: false; readonly errors: readonly ValidationIssue[] };

/** Every value an x-delay expression can take, or a reason why that cannot be known. */
function delayValues(v: ValueExpr | AmqpValue | undefined): number[] | string {
  if (v === undefined) return [];
  if (typeof v === 'number') return Number.isInteger(v) ? [v] : `x-delay ${v} is not an integer`;
  if (typeof v === 'string') return /^-?[0-9]+$/.test(v) ? [Number(v)] : `x-delay ${JSON.stringify(v)} is not a number`;
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && 'kind' in v) {
    const e = v as ValueExpr & object;
    if (e.kind === 'curve')
      return e.values.every((x) => Number.isInteger(x)) ? [...e.values] : 'curve values must be integers';
    if (e.kind === 'exponential') {
      const out: number[] = [];
      for (let k = 1; k <= 64; k++) {
        const d = Math.min(e.maxMs, e.initialMs * Math.pow(e.multiplier, k - 1));
        if (!Number.isInteger(d)) return `the exponential backoff yields ${d} ms, not an integer`;
        if (!out.includes(d)) out.push(d);
        if (d >= e.maxMs || e.multiplier === 1) break;
      }
      return out;
    }
    return `x-delay computed by "${e.kind}" can take any value; a TTL queue per value cannot be declared in advance`;
  }
  return 'x-delay must be a number';
}

export function compilePortable(design: Design): PortableResult {
  const delayed = design.topology.exchanges.filter((x) => x.type === 'x-delayed-message');
  if (delayed.length === 0)
    return {
      ok: true,
      design,
      changed: false,
      changes: ['The design uses no delayed-message exchange: nothing to change.'],
    };
  const names = new Set(delayed.map((x) => x.name));
  const delays = new Map<string, Set<number>>(delayed.map((x) => [x.name, new Set<number>()]));
  const errors: ValidationIssue[] = [];
  const users = new Map<string, Set<string>>(delayed.map((x) => [x.name, new Set<string>()]));

  const collect = (path: string, exchange: string, xdelay: ValueExpr | AmqpValue | undefined, who: string): void => {
    if (!names.has(exchange)) return;
    users.get(exchange)!.add(who);
    const v = delayValues(xdelay);
    if (typeof v === 'string') return void errors.push({ path, code: 'portable-delay-unknown', message: v });
    for (const d of v) if (d > 0 && d <= MAX_TTL_MS) delays.get(exchange)!.add(d);
  };
  const walkAction = (path: string, a: ConsumerAction, who: string): void => {
    if (a.kind === 'republish')
      collect(`${path}.headers.x-delay`, a.exchange, a.headers?.['x-delay'] as ValueExpr | AmqpValue | undefined, who);
    if (a.kind === 'retryInProcess') walkAction(`${path}.recover`, a.recover, who);
    if (a.kind === 'defer') walkAction(`${path}.then`, a.then, who);
  };
  design.consumers.forEach((c, i) => {
    const b = c.behaviour;
    const p = `consumers[${i}].behaviour`;
    if (b.kind === 'worker') {
      b.onFailure.forEach((r, j) => walkAction(`${p}.onFailure[${j}].then`, r.then, `consumer ${c.id}`));
      if (b.onSuccess) walkAction(`${p}.onSuccess`, b.onSuccess, `consumer ${c.id}`);
    } else if (b.kind === 'router')
      b.rules.forEach((r, j) => walkAction(`${p}.rules[${j}].then`, r.then, `consumer ${c.id}`));
    else b.actions.forEach((a, j) => walkAction(`${p}.actions[${j}]`, a, `consumer ${c.id}`));
  });
  design.publishers.forEach((pub, i) =>
    collect(
      `publishers[${i}].properties.headers.x-delay`,
      pub.exchange,
      pub.properties?.headers?.['x-delay'],
      `publisher ${pub.id}`,
    ),
  );
  if (errors.length > 0) return { ok: false, errors };

  const delayX = (d: string): string => `${d}.delay`;
  const waitQ = (d: string, ms: number): string => `${d}.delay.${ms}`;
  const exchanges: ExchangeDef[] = [];
  const queues: QueueDef[] = [...design.topology.queues];
  const bindings: BindingDef[] = [...design.topology.bindings];
  const changes: string[] = [];
  for (const x of design.topology.exchanges) {
    if (!names.has(x.name)) {
      exchanges.push(x);
      continue;
    }
    const { 'x-delayed-type': underlying, ...rest } = x.arguments ?? {};
    const type = (underlying ?? 'direct') as ExchangeDef['type'];
    exchanges.push({ ...x, type, arguments: rest });
    exchanges.push({
      name: delayX(x.name),
      type: 'headers',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: { 'alternate-exchange': x.name },
    });
    const ds = [...delays.get(x.name)!].sort((a, b) => a - b);
    for (const ms of ds) {
      queues.push({
        name: waitQ(x.name, ms),
        durable: true,
        auto_delete: false,
        arguments: { 'x-message-ttl': ms, 'x-dead-letter-exchange': x.name },
      });
      bindings.push({
        source: delayX(x.name),
        destination: waitQ(x.name, ms),
        destination_type: 'queue',
        routing_key: '',
        arguments: { 'x-match': 'all-with-x', 'x-delay': ms },
      });
    }
    changes.push(
      `${x.name}: was x-delayed-message (x-delayed-type ${type}); now an ordinary ${type} exchange with the same bindings. No plugin needed.`,
      `${delayX(x.name)}: new headers exchange. It matches the x-delay header exactly (all-with-x) and sends the message to one of ${ds.length} wait queue(s): ${ds.map((d) => waitQ(x.name, d)).join(', ')}. Each has x-message-ttl equal to its delay and dead-letters into ${x.name} with the routing key unchanged. A message without a listed x-delay goes to ${x.name} at once through the alternate exchange (as the plugin does for a missing or non-positive delay).`,
      `${[...users.get(x.name)!].join(', ') || 'nobody'}: now publish to ${delayX(x.name)} instead of ${x.name}; the x-delay header they set stays the same.`,
    );
  }
  const redirect = (a: ConsumerAction): ConsumerAction =>
    a.kind === 'republish' && names.has(a.exchange)
      ? { ...a, exchange: delayX(a.exchange) }
      : a.kind === 'retryInProcess'
        ? { ...a, recover: redirect(a.recover) }
        : a.kind === 'defer'
          ? { ...a, then: redirect(a.then) }
          : a;
  const redirectRules = (rs: readonly Rule[]): Rule[] => rs.map((r) => ({ ...r, then: redirect(r.then) }));
  const consumers: ConsumerSpec[] = design.consumers.map((c) => {
    const b = c.behaviour;
    if (b.kind === 'worker')
      return {
        ...c,
        behaviour: {
          ...b,
          onFailure: redirectRules(b.onFailure),
          ...(b.onSuccess ? { onSuccess: redirect(b.onSuccess) } : {}),
        },
      };
    if (b.kind === 'router') return { ...c, behaviour: { ...b, rules: redirectRules(b.rules) } };
    return { ...c, behaviour: { ...b, actions: b.actions.map(redirect) } };
  });
  const publishers = design.publishers.map((p) => (names.has(p.exchange) ? { ...p, exchange: delayX(p.exchange) } : p));
  changes.push(
    'Only the delays listed above exist: a new delay value needs a new wait queue (and binding).',
    'Delivered messages now also carry x-death (reason expired, queue <exchange>.delay.<ms>) and, on the first death, x-first-death-* headers; a consumer that copies headers when it republishes carries that history along.',
    'Waiting messages sit in durable queues: they survive a node restart, can be counted and inspected in the management UI, and are not lost when a plugin is disabled.',
    'Each wait queue has a single TTL, so a long delay never holds up a shorter one (no head-of-line blocking). Each retry costs one extra dead-lettering.',
    'mandatory works again (the plugin returned every delayed message at once), and publisher confirms now mean the message is stored in a queue.',
  );
  const out: Design = {
    ...design,
    name: `${design.name} (portable)`,
    topology: { ...design.topology, exchanges, queues, bindings },
    consumers,
    publishers,
  };
  const v = validateDesign(out);
  if (!v.ok) return { ok: false, errors: v.errors };
  return { ok: true, design: out, changed: true, changes };
}
