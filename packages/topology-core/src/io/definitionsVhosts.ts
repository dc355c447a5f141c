/**
 * The vhosts of a definitions file and what each holds. A whole-broker export carries `vhost`
 * on every object and a `vhosts` list; a per-vhost export (GET /api/definitions/VHOST) carries
 * none (its objects are in the vhost it was read from, which the file does not say).
 */
import { isPlainObject } from '../model/validateResult.js';

export interface VhostContents {
  /** undefined: the objects of a per-vhost export (no `vhost` field) */
  readonly name: string | undefined;
  readonly exchanges: number;
  readonly queues: number;
  readonly bindings: number;
  readonly policies: number;
}

const KINDS = ['exchanges', 'queues', 'bindings', 'policies'] as const;

/** Every vhost the file names (its `vhosts` list and its objects), in file order, with its object counts. */
export function vhostContents(input: { readonly [k: string]: unknown }): VhostContents[] {
  const counts = new Map<
    string | undefined,
    { exchanges: number; queues: number; bindings: number; policies: number }
  >();
  const entry = (v: string | undefined) => {
    let c = counts.get(v);
    if (!c) counts.set(v, (c = { exchanges: 0, queues: 0, bindings: 0, policies: 0 }));
    return c;
  };
  if (Array.isArray(input.vhosts))
    for (const v of input.vhosts) if (isPlainObject(v) && typeof v.name === 'string') entry(v.name);
  for (const k of KINDS) {
    const list = input[k];
    if (!Array.isArray(list)) continue;
    for (const item of list)
      if (isPlainObject(item)) entry(typeof item.vhost === 'string' ? item.vhost : undefined)[k]++;
  }
  return [...counts].map(([name, c]) => ({ name, ...c }));
}

export const objectCount = (v: VhostContents): number => v.exchanges + v.queues + v.bindings + v.policies;

/** `"/" (3 queues, 2 exchanges)` */
export function describeVhost(v: VhostContents): string {
  const parts = KINDS.filter((k) => v[k] > 0).map(
    (k) => `${v[k]} ${v[k] === 1 ? k.slice(0, -1).replace(/ie$/, 'y') : k}`,
  );
  return `${v.name === undefined ? '(no vhost field)' : JSON.stringify(v.name)}${parts.length ? ` (${parts.join(', ')})` : ' (empty)'}`;
}

/** The vhosts that hold objects, described: for "pick one of these" errors. */
export function describeVhostsWithObjects(all: readonly VhostContents[]): string {
  const full = all.filter((v) => objectCount(v) > 0);
  return full.length === 0
    ? 'none: the file has no exchanges, queues, bindings or policies'
    : full.map(describeVhost).join(', ');
}
