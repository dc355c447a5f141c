/**
 * The knobs of a user's own design (`tune --from`): its delays (TTLs, x-delayed-retry-min/max,
 * republish expirations and x-delay headers, backoff curves) and its counts (delivery limits,
 * retry conditions, in-process attempts). A variant scales every delay by one factor and shifts
 * every count by one step, so the design keeps its strategy and its names; `params` names each
 * knob by where it lives, with its new value.
 */
import type { AmqpTable, AmqpValue } from '../model/definitions.js';
import type { ConsumerAction, ConsumerBehaviour, Rule, ValueExpr } from '../model/consumer.js';
import type { Design } from '../model/design.js';
import type { ParamValue } from '../templates/types.js';

const DELAY_ARGS = new Set(['x-message-ttl', 'x-delayed-retry-min', 'x-delayed-retry-max', 'message-ttl']);
const COUNT_ARGS = new Set(['x-delivery-limit', 'delivery-limit']);

export interface Variant {
  readonly design: Design;
  readonly params: Readonly<Record<string, ParamValue>>;
}

export function designVariant(d: Design, delayScale: number, countShift: number): Variant {
  const params: Record<string, ParamValue> = {};
  const delay = (where: string, ms: number): number => {
    const v = Math.max(1, Math.round(ms * delayScale));
    params[where] = v;
    return v;
  };
  const count = (where: string, n: number): number => {
    const v = Math.max(1, n + countShift);
    params[where] = v;
    return v;
  };
  const table = (where: string, t: AmqpTable | undefined): AmqpTable | undefined => {
    if (!t) return t;
    const out: Record<string, AmqpValue> = {};
    for (const [k, v] of Object.entries(t))
      out[k] =
        typeof v === 'number' && DELAY_ARGS.has(k)
          ? delay(`${where} ${k}`, v)
          : typeof v === 'number' && COUNT_ARGS.has(k)
            ? count(`${where} ${k}`, v)
            : v;
    return out;
  };
  const expr = (where: string, e: ValueExpr): ValueExpr => {
    if (typeof e === 'number') return delay(where, e);
    if (typeof e === 'string') return /^[0-9]+$/.test(e) ? String(delay(where, Number(e))) : e;
    if (e.kind === 'curve') {
      const values = e.values.map((v) => Math.max(1, Math.round(v * delayScale)));
      params[where] = values;
      return { ...e, values };
    }
    if (e.kind === 'exponential')
      return { ...e, initialMs: delay(`${where} initial`, e.initialMs), maxMs: delay(`${where} max`, e.maxMs) };
    return e;
  };
  const action = (where: string, a: ConsumerAction): ConsumerAction => {
    if (a.kind === 'republish') {
      const headers =
        a.headers &&
        Object.fromEntries(
          Object.entries(a.headers).map(([k, v]) => [
            k,
            k === 'x-delay' ? expr(`${where} x-delay`, v as ValueExpr) : v,
          ]),
        );
      return {
        ...a,
        ...(a.expiration !== undefined ? { expiration: expr(`${where} expiration`, a.expiration) } : {}),
        ...(headers ? { headers } : {}),
      };
    }
    if (a.kind === 'retryInProcess')
      return {
        ...a,
        maxAttempts: count(`${where} maxAttempts`, a.maxAttempts),
        backoff: {
          ...a.backoff,
          initialMs: delay(`${where} backoff initial`, a.backoff.initialMs),
          maxMs: delay(`${where} backoff max`, a.backoff.maxMs),
        },
        recover: action(where, a.recover),
      };
    return a;
  };
  const rules = (where: string, rs: readonly Rule[]): Rule[] =>
    rs.map((r, i) => {
      const w = r.when;
      const when =
        w && (w.kind === 'lt' || w.kind === 'gte') && w.counter.kind !== 'held'
          ? { ...w, value: count(`${where} rule ${i + 1} ${w.kind}`, w.value) }
          : w;
      return { ...r, ...(when ? { when } : {}), then: action(`${where} rule ${i + 1}`, r.then) };
    });
  const behaviour = (where: string, b: ConsumerBehaviour): ConsumerBehaviour => {
    if (b.kind === 'worker')
      return {
        ...b,
        onFailure: rules(where, b.onFailure),
        ...(b.onSuccess ? { onSuccess: action(where, b.onSuccess) } : {}),
      };
    if (b.kind === 'router') return { ...b, rules: rules(where, b.rules) };
    return b;
  };
  const topology = {
    ...d.topology,
    queues: d.topology.queues.map((q) => ({ ...q, arguments: table(`queue ${q.name}`, q.arguments) })),
    ...(d.topology.policies
      ? { policies: d.topology.policies.map((p) => ({ ...p, definition: table(`policy ${p.name}`, p.definition)! })) }
      : {}),
  };
  const consumers = d.consumers.map((c) => ({ ...c, behaviour: behaviour(`consumer ${c.id}`, c.behaviour) }));
  return { design: { ...d, topology, consumers }, params };
}

/** The variants tried for --from, coarse: delays from a tenth to 30x, counts from -2 to +16. */
export const DELAY_SCALES = [0.1, 0.25, 0.5, 1, 2, 4, 10, 30] as const;
export const COUNT_SHIFTS = [-2, -1, 0, 1, 2, 4, 8, 16] as const;
