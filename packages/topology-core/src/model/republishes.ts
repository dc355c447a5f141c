/**
 * Where a consumer republishes to: every `republish` action of a behaviour, wherever it sits
 * (a script's actions, a worker's onSuccess and onFailure rules, a router's rules, the `recover`
 * of an in-process retry). The one walk of it: the canvas draws an edge per target, the
 * exporters list the publications, and `mapReferences` renames through it.
 *
 * It reads untrusted JSON too (a behaviour being typed): what is not the expected shape is kept
 * as is and yields nothing.
 */
import type { ConsumerAction } from './consumer.js';
import { pathIndex } from './names.js';
import { isPlainObject } from './validateResult.js';

type Obj = { readonly [k: string]: unknown };

/** Where the action sits in the behaviour. */
export type RepublishSlot =
  | { readonly kind: 'action'; readonly index: number }
  | { readonly kind: 'onSuccess' }
  | { readonly kind: 'rule'; readonly index: number };

export interface RepublishSite {
  readonly slot: RepublishSlot;
  /** field path, e.g. `consumers[0].behaviour.onFailure[1].then.recover` */
  readonly path: string;
  readonly action: Extract<ConsumerAction, { kind: 'republish' }>;
}

/** Rewrites a republish action (return it unchanged to keep it). */
export type MapRepublish = (action: Obj, path: string, slot: RepublishSlot) => unknown;

/** The behaviour with every republish action passed through `f` (the input is not changed; unchanged parts keep their identity). */
export function mapRepublishes(behaviour: unknown, path: string, f: MapRepublish): unknown {
  if (!isPlainObject(behaviour)) return behaviour;
  const set = (o: Obj, k: string, v: unknown): Obj => (o[k] === v ? o : { ...o, [k]: v });
  const action = (a: unknown, p: string, slot: RepublishSlot): unknown => {
    if (!isPlainObject(a)) return a;
    if (a.kind === 'retryInProcess') return set(a, 'recover', action(a.recover, `${p}.recover`, slot));
    if (a.kind === 'defer') return set(a, 'then', action(a.then, `${p}.then`, slot));
    return a.kind === 'republish' ? f(a, p, slot) : a;
  };
  const list = (v: unknown, p: string, each: (x: unknown, p: string, i: number) => unknown): unknown => {
    if (!Array.isArray(v)) return v;
    const out = v.map((x, i) => each(x, pathIndex(p, i), i));
    return out.every((x, i) => x === v[i]) ? v : out;
  };
  const rules = (v: unknown, p: string): unknown =>
    list(v, p, (r, rp, index) =>
      isPlainObject(r) ? set(r, 'then', action(r.then, `${rp}.then`, { kind: 'rule', index })) : r,
    );
  let out: Obj = behaviour;
  if ('actions' in behaviour)
    out = set(
      out,
      'actions',
      list(behaviour.actions, `${path}.actions`, (a, ap, index) => action(a, ap, { kind: 'action', index })),
    );
  if ('onSuccess' in behaviour)
    out = set(out, 'onSuccess', action(behaviour.onSuccess, `${path}.onSuccess`, { kind: 'onSuccess' }));
  if ('onFailure' in behaviour) out = set(out, 'onFailure', rules(behaviour.onFailure, `${path}.onFailure`));
  if ('rules' in behaviour) out = set(out, 'rules', rules(behaviour.rules, `${path}.rules`));
  return out;
}

/** Every republish of a behaviour, in document order; only those that name their exchange (a string). */
export function republishSites(behaviour: unknown, path = 'behaviour'): RepublishSite[] {
  const out: RepublishSite[] = [];
  mapRepublishes(behaviour, path, (a, p, slot) => {
    if (typeof a.exchange === 'string') out.push({ slot, path: p, action: a as unknown as RepublishSite['action'] });
    return a;
  });
  return out;
}

/**
 * Where a republish lands when it can be told from the design: a fixed exchange, or a queue
 * through the default exchange with a fixed routing key (the parking queue, mostly). A key taken
 * from a header or the original key through the default exchange is known only at run time.
 */
export type RepublishDestination =
  | { readonly kind: 'exchange'; readonly exchange: string; readonly routingKey?: string }
  | { readonly kind: 'queue'; readonly queue: string }
  | { readonly kind: 'unknown'; readonly exchange: '' };

export function republishDestination(a: RepublishSite['action']): RepublishDestination {
  if (a.exchange !== '')
    return {
      kind: 'exchange',
      exchange: a.exchange,
      ...(typeof a.routingKey === 'string' ? { routingKey: a.routingKey } : {}),
    };
  return typeof a.routingKey === 'string' && a.routingKey !== ''
    ? { kind: 'queue', queue: a.routingKey }
    : { kind: 'unknown', exchange: '' };
}
