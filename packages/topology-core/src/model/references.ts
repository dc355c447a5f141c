/**
 * Every place a design names a queue or an exchange, enumerated in one walk: declarations,
 * bindings, dead-letter exchange and routing key, alternate exchanges, policies, consumers,
 * their counters and republish targets, publishers and layout keys. Rename, validation and
 * the deploy prefix all go through `mapReferences`, so a new place that names something is
 * added here once.
 *
 * The walk reads untrusted JSON too (validation runs it before the design is known to be
 * well formed): what is not the expected shape is kept as is and yields no reference.
 */
import type { Design } from './design.js';
import { parseNodeId } from './nodeIds.js';
import { pathIndex, pathKey } from './names.js';
import { isPlainObject } from './validateResult.js';
import { mapRepublishes } from './republishes.js';

export type ReferenceTarget = 'queue' | 'exchange';

/** Where the name sits; the role is what validation and rename decide on. */
export type ReferenceRole =
  | 'declaration'
  | 'alternate-exchange'
  | 'dead-letter-exchange'
  | 'dead-letter-routing-key'
  | 'binding-source'
  | 'binding-destination'
  | 'binding-key'
  | 'policy-pattern'
  | 'policy-dead-letter-exchange'
  | 'policy-alternate-exchange'
  | 'policy-dead-letter-routing-key'
  | 'consumer-queue'
  | 'counter'
  | 'republish-exchange'
  | 'republish-routing-key'
  | 'publisher-exchange'
  | 'publisher-routing-key'
  | 'layout'
  /** a key of `sources` (where an app-config import read the object) */
  | 'source'
  /** radlx (retry-aware DLX plugin): the header naming the queue whose x-death it counts, and the dead-binding argument naming the source queue */
  | 'radlx-track-queue'
  | 'radlx-dead-source'
  /** the x-first-death-* / x-last-death-* headers RabbitMQ sets on a dead letter: the queue it died in, the exchange it was published to */
  | 'death-header';

/**
 * How the name is used:
 * - `declaration`: the object itself (`topology.queues[0].name`);
 * - `name`: the broker resolves it by name (a binding's destination, a DLX, a DLRK through the
 *   default exchange, a counter's x-death queue);
 * - `routingKey`: a routing key through a named exchange that equals a queue's name by convention
 *   (the binding key of `orders.q`, a DLRK `orders.q`). A rename follows it; a deploy prefix does not,
 *   since keys are not names on the broker;
 * - `pattern`: a policy pattern matching exactly this one name (`^orders\.q$`).
 */
export type ReferenceKind = 'declaration' | 'name' | 'routingKey' | 'pattern';

export interface NameReference {
  readonly target: ReferenceTarget;
  readonly kind: ReferenceKind;
  readonly role: ReferenceRole;
  readonly name: string;
  /** field path, e.g. `consumers[0].behaviour.onFailure[1].when.counter.queue` */
  readonly path: string;
}

/** Returns the name to write in place of `ref.name` (return `ref.name` to keep it). */
export type RenameReference = (ref: NameReference) => string;

type Obj = { readonly [k: string]: unknown };

/**
 * Headers whose value names a queue or an exchange: radlx's tracked queue, and the headers
 * RabbitMQ sets on a dead letter (read back from a delivery, or set by a republish).
 */
export const NAMING_HEADERS: Readonly<
  Record<string, { readonly target: ReferenceTarget; readonly role: ReferenceRole }>
> = {
  'radlx-track-queue': { target: 'queue', role: 'radlx-track-queue' },
  'x-first-death-queue': { target: 'queue', role: 'death-header' },
  'x-first-death-exchange': { target: 'exchange', role: 'death-header' },
  'x-last-death-queue': { target: 'queue', role: 'death-header' },
  'x-last-death-exchange': { target: 'exchange', role: 'death-header' },
};

/**
 * A header table with every value that names a queue or an exchange (NAMING_HEADERS) passed
 * through `rename`; the table itself when nothing changes (or it is not a table). `path`: the
 * table's field path.
 */
export function mapHeaderReferences<T>(headers: T, rename: RenameReference, path: string): T {
  if (!isPlainObject(headers)) return headers;
  const h: Obj = headers;
  let out: Obj = h;
  for (const [k, { target, role }] of Object.entries(NAMING_HEADERS)) {
    const name = h[k];
    // '' is the default exchange: never a reference
    if (typeof name !== 'string' || name === '') continue;
    const renamed = rename({ target, kind: 'name', role, name, path: pathKey(path, k) });
    if (renamed !== name) out = { ...out, [k]: renamed };
  }
  return out as T;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** `^orders\.q$` -> `orders.q`; anything that is not an anchored literal -> undefined */
function exactPatternName(pattern: string): string | undefined {
  const m = /^\^((?:[^.*+?^${}()|[\]\\]|\\[.*+?^${}()|[\]\\/-])*)\$$/.exec(pattern);
  return m ? m[1]!.replace(/\\(.)/g, '$1') : undefined;
}

const names = (list: unknown): Set<string> =>
  new Set(
    Array.isArray(list) ? list.flatMap((x) => (isPlainObject(x) && typeof x.name === 'string' ? [x.name] : [])) : [],
  );

type Ref = (target: ReferenceTarget, kind: ReferenceKind, role: ReferenceRole, name: unknown, path: string) => unknown;

/** The three ways a name is referred to, each passing it through `rename` (`queues`: the design's queue names). */
interface ReferenceMappers {
  readonly ref: Ref;
  readonly key: (role: ReferenceRole, exchange: unknown, k: unknown, path: string) => unknown;
  readonly tableName: (tbl: unknown, k: string, role: ReferenceRole, path: string) => unknown;
}

// copy-on-write helpers: an object comes back as it was (the same object) when nothing in it was renamed
const set = (o: Obj, k: string, v: unknown): Obj => (o[k] === v ? o : { ...o, [k]: v });
const list = (v: unknown, path: string, f: (x: Obj, p: string) => Obj): unknown =>
  Array.isArray(v) ? v.map((x, i) => (isPlainObject(x) ? f(x, pathIndex(path, i)) : x)) : v;
const args = (a: unknown, path: string, f: (a: Obj, path: string) => Obj): unknown =>
  isPlainObject(a) ? f(a, path) : a;

function referenceMappers(rename: RenameReference, queues: ReadonlySet<string>): ReferenceMappers {
  const ref: Ref = (
    target: ReferenceTarget,
    kind: ReferenceKind,
    role: ReferenceRole,
    name: unknown,
    path: string,
  ): unknown => {
    // '' is the default exchange (or no name at all): never a reference
    if (typeof name !== 'string' || name === '') return name;
    return rename({ target, kind, role, name, path });
  };
  /** a routing key: a queue's name through the default exchange, by convention when it equals one */
  const key = (role: ReferenceRole, exchange: unknown, k: unknown, path: string): unknown => {
    if (exchange === '') return ref('queue', 'name', role, k, path);
    return typeof k === 'string' && queues.has(k) ? ref('queue', 'routingKey', role, k, path) : k;
  };
  /** a table entry holding a queue's name (radlx headers and binding arguments) */
  const tableName = (tbl: unknown, k: string, role: ReferenceRole, path: string): unknown =>
    isPlainObject(tbl) && k in tbl ? set(tbl, k, ref('queue', 'name', role, tbl[k], pathKey(path, k))) : tbl;
  return { ref, key, tableName };
}

/** The topology's declarations and the names their arguments, bindings and policies refer to. */
function mapTopologyReferences(
  topo: Obj,
  m: ReferenceMappers,
  queues: ReadonlySet<string>,
  exchanges: ReadonlySet<string>,
): Obj {
  let t: Obj = topo;
  t = set(
    t,
    'exchanges',
    list(topo.exchanges, 'topology.exchanges', (x, p) => {
      const named = set(x, 'name', m.ref('exchange', 'declaration', 'declaration', x.name, `${p}.name`));
      return set(
        named,
        'arguments',
        args(x.arguments, `${p}.arguments`, (a, ap) =>
          'alternate-exchange' in a
            ? set(
                a,
                'alternate-exchange',
                m.ref(
                  'exchange',
                  'name',
                  'alternate-exchange',
                  a['alternate-exchange'],
                  pathKey(ap, 'alternate-exchange'),
                ),
              )
            : a,
        ),
      );
    }),
  );
  t = set(
    t,
    'queues',
    list(topo.queues, 'topology.queues', (q, p) => {
      const named = set(q, 'name', m.ref('queue', 'declaration', 'declaration', q.name, `${p}.name`));
      return set(
        named,
        'arguments',
        args(q.arguments, `${p}.arguments`, (a, ap) => {
          const dlx = a['x-dead-letter-exchange'];
          let o =
            'x-dead-letter-exchange' in a
              ? set(
                  a,
                  'x-dead-letter-exchange',
                  m.ref('exchange', 'name', 'dead-letter-exchange', dlx, pathKey(ap, 'x-dead-letter-exchange')),
                )
              : a;
          if ('x-dead-letter-routing-key' in a)
            o = set(
              o,
              'x-dead-letter-routing-key',
              m.key(
                'dead-letter-routing-key',
                dlx,
                a['x-dead-letter-routing-key'],
                pathKey(ap, 'x-dead-letter-routing-key'),
              ),
            );
          return o;
        }),
      );
    }),
  );
  t = set(
    t,
    'bindings',
    list(topo.bindings, 'topology.bindings', (b, p) => {
      let o = set(b, 'source', m.ref('exchange', 'name', 'binding-source', b.source, `${p}.source`));
      o = set(
        o,
        'destination',
        m.ref(
          b.destination_type === 'exchange' ? 'exchange' : 'queue',
          'name',
          'binding-destination',
          b.destination,
          `${p}.destination`,
        ),
      );
      o = set(o, 'arguments', m.tableName(b.arguments, 'radlx.dead.source', 'radlx-dead-source', `${p}.arguments`));
      return set(o, 'routing_key', m.key('binding-key', b.source, b.routing_key, `${p}.routing_key`));
    }),
  );
  t = set(
    t,
    'policies',
    list(topo.policies, 'topology.policies', (pol, p) => mapPolicyReferences(pol, p, m, queues, exchanges)),
  );
  return t;
}

/** A policy: an anchored literal pattern names one queue or exchange; its definition names exchanges. */
function mapPolicyReferences(
  pol: Obj,
  p: string,
  m: ReferenceMappers,
  queues: ReadonlySet<string>,
  exchanges: ReadonlySet<string>,
): Obj {
  let o = pol;
  const exact = typeof pol.pattern === 'string' ? exactPatternName(pol.pattern) : undefined;
  const applyTo = pol['apply-to'] ?? 'all';
  const target: ReferenceTarget | undefined =
    exact === undefined
      ? undefined
      : applyTo === 'queues' || (applyTo === 'all' && queues.has(exact))
        ? 'queue'
        : applyTo === 'exchanges' || exchanges.has(exact)
          ? 'exchange'
          : undefined;
  if (exact !== undefined && target) {
    const n = m.ref(target, 'pattern', 'policy-pattern', exact, `${p}.pattern`);
    if (n !== exact) o = set(o, 'pattern', `^${escapeRegExp(n as string)}$`);
  }
  return set(
    o,
    'definition',
    args(pol.definition, `${p}.definition`, (a, ap) => {
      let x = a;
      for (const [k, role] of [
        ['dead-letter-exchange', 'policy-dead-letter-exchange'],
        ['alternate-exchange', 'policy-alternate-exchange'],
      ] as const)
        if (k in a) x = set(x, k, m.ref('exchange', 'name', role, a[k], pathKey(ap, k)));
      if ('dead-letter-routing-key' in a)
        x = set(
          x,
          'dead-letter-routing-key',
          m.key(
            'policy-dead-letter-routing-key',
            a['dead-letter-exchange'],
            a['dead-letter-routing-key'],
            pathKey(ap, 'dead-letter-routing-key'),
          ),
        );
      return x;
    }),
  );
}

/** The design with every reference passed through `rename` (the input is not changed). */
export function mapReferences<D>(design: D, rename: RenameReference): D {
  if (!isPlainObject(design)) return design;
  const d: Obj = design;
  const topo = isPlainObject(d.topology) ? d.topology : undefined;
  const queues = names(topo?.queues);
  const exchanges = names(topo?.exchanges);

  const mappers = referenceMappers(rename, queues);
  const { ref, key } = mappers;
  /**
   * A map keyed by node id (`layout`, `sources`): a queue's or an exchange's key follows its name.
   * The keys are read once: read per entry, a 5,000-node layout took 28 s here.
   */
  const nodeKeys = (o: Obj, field: 'layout' | 'sources', role: ReferenceRole): Obj => {
    const map = d[field];
    if (!isPlainObject(map)) return o;
    const entries = Object.entries(map).map(([k, v]): [string, unknown] => {
      const n = parseNodeId(k);
      if (!n || (n.kind !== 'queue' && n.kind !== 'exchange')) return [k, v];
      const renamed = ref(n.kind, 'name', role, n.name, pathKey(field, k));
      return [renamed === n.name ? k : `${n.kind}:${String(renamed)}`, v];
    });
    const keys = Object.keys(map);
    return entries.some(([k], i) => k !== keys[i]) ? set(o, field, Object.fromEntries(entries)) : o;
  };

  const counter = (c: unknown, path: string): unknown =>
    isPlainObject(c) && c.kind === 'deathCount' && 'queue' in c
      ? set(c, 'queue', ref('queue', 'name', 'counter', c.queue, `${path}.queue`))
      : c;
  const valueExpr = (v: unknown, path: string): unknown =>
    isPlainObject(v) && 'by' in v ? set(v, 'by', counter(v.by, `${path}.by`)) : v;
  /** a republish action (found by the one republish walk, republishes.ts) */
  const republish = (a: Obj, path: string): unknown => {
    let out = set(a, 'exchange', ref('exchange', 'name', 'republish-exchange', a.exchange, `${path}.exchange`));
    if ('routingKey' in a)
      out = set(out, 'routingKey', key('republish-routing-key', a.exchange, a.routingKey, `${path}.routingKey`));
    if ('expiration' in a) out = set(out, 'expiration', valueExpr(a.expiration, `${path}.expiration`));
    if (isPlainObject(a.headers)) {
      const h: Obj = a.headers;
      const headers = mapHeaderReferences(
        Object.fromEntries(Object.entries(h).map(([k, v]) => [k, valueExpr(v, pathKey(`${path}.headers`, k))])),
        rename,
        `${path}.headers`,
      );
      if (Object.keys(h).some((k) => headers[k] !== h[k])) out = set(out, 'headers', headers);
    }
    return out;
  };
  /** a rule's condition counter (the actions are the republish walk's) */
  const ruleCounters = (v: unknown, path: string): unknown =>
    list(v, path, (r, p) =>
      isPlainObject(r.when) && 'counter' in r.when
        ? set(r, 'when', set(r.when, 'counter', counter(r.when.counter, `${p}.when.counter`)))
        : r,
    );
  const behaviour = (b: unknown, path: string): unknown => {
    // document order: a rule's counter before its action's references
    const counted = isPlainObject(b)
      ? set(
          set(b, 'onFailure', 'onFailure' in b ? ruleCounters(b.onFailure, `${path}.onFailure`) : b.onFailure),
          'rules',
          'rules' in b ? ruleCounters(b.rules, `${path}.rules`) : b.rules,
        )
      : b;
    return mapRepublishes(counted, path, republish);
  };
  let out: Obj = d;
  if (topo) out = set(out, 'topology', mapTopologyReferences(topo, mappers, queues, exchanges));
  out = set(
    out,
    'consumers',
    list(d.consumers, 'consumers', (c, p) =>
      set(
        set(c, 'queue', ref('queue', 'name', 'consumer-queue', c.queue, `${p}.queue`)),
        'behaviour',
        behaviour(c.behaviour, `${p}.behaviour`),
      ),
    ),
  );
  out = set(
    out,
    'publishers',
    list(d.publishers, 'publishers', (pub, p) => {
      let o = set(pub, 'exchange', ref('exchange', 'name', 'publisher-exchange', pub.exchange, `${p}.exchange`));
      o = set(o, 'routingKey', key('publisher-routing-key', pub.exchange, pub.routingKey, `${p}.routingKey`));
      if (!isPlainObject(pub.properties)) return o;
      const headers = mapHeaderReferences(pub.properties.headers, rename, `${p}.properties.headers`);
      return set(o, 'properties', set(pub.properties, 'headers', headers));
    }),
  );
  out = nodeKeys(out, 'layout', 'layout');
  out = nodeKeys(out, 'sources', 'source');
  return out as D;
}

/** Every reference in a design, in document order. */
export function designReferences(design: Design | unknown): NameReference[] {
  const out: NameReference[] = [];
  mapReferences(design, (r) => {
    out.push(r);
    return r.name;
  });
  return out;
}
