/**
 * A design part's shape: the part with every queue, exchange, consumer, publisher and policy name
 * replaced by a token, so that copies of one retry shape (a template applied per service, the
 * usual 1,000-queue file) have one shape. The upgrade check simulates a shape once and reads its
 * fate back under each copy's names: a check grows with the number of shapes, not of copies.
 *
 * The tokens keep what the broker reads in names: equality (one token per name), order (tokens
 * sort as the names do: the router sorts queue names) and the built-in `amq.*` exchanges (kept).
 * A policy's pattern becomes the exact list of the part's objects it matched. Where a name could
 * decide more than equality, there is no shape (undefined) and the part is simulated as it is:
 * a topic binding with a wildcard (other than `#` alone) beside a routing key that names a queue, or a
 * headers exchange.
 */
import type { Design } from '../model/design.js';
import type { PolicyDef, Topology } from '../model/definitions.js';
import { mapReferences } from '../model/references.js';
import { policyPattern } from '../model/policyMatch.js';

export interface PartShape {
  /** equal for parts that differ only in their names */
  readonly key: string;
  /** the part under its tokens: simulate this */
  readonly design: Design;
  /** a value with tokens in its strings (a fate, a path), read back under this part's names */
  readonly back: <T>(value: T) => T;
}

const TOKEN = /⟦([a-z])(\d+)⟧/g;

/** Tokens for a set of names, in the names' order. */
function tokensFor(kind: string, names: Iterable<string>): Map<string, string> {
  const sorted = [...new Set(names)].sort();
  const width = String(sorted.length).length;
  return new Map(sorted.map((n, i) => [n, `⟦${kind}${String(i).padStart(width, '0')}⟧`]));
}

/** a topic pattern that a key's words decide (`#` alone matches every key, whatever its words) */
const readsWords = (key: string): boolean => key !== '#' && key.split('.').some((w) => w === '*' || w === '#');

/** Whether a name could decide more than equality in this part (then it has no shape). */
function namesDecideRouting(t: Topology, keyNamesQueue: boolean): boolean {
  const types = new Map(t.exchanges.map((x) => [x.name, x.type as string]));
  if (t.exchanges.some((x) => x.type === 'headers')) return true;
  return keyNamesQueue && t.bindings.some((b) => types.get(b.source) === 'topic' && readsWords(b.routing_key));
}

export function partShape(part: Design): PartShape | undefined {
  const queues = new Set<string>();
  const exchanges = new Set<string>();
  let keyNamesQueue = false;
  mapReferences(part, (r) => {
    if (r.target === 'queue') queues.add(r.name);
    else if (!r.name.startsWith('amq.')) exchanges.add(r.name);
    if (r.kind === 'routingKey') keyNamesQueue = true;
    return r.name;
  });
  const t = part.topology;
  if (namesDecideRouting(t, keyNamesQueue)) return undefined;
  const q = tokensFor('q', queues);
  const x = tokensFor('x', exchanges);
  const policyNames = tokensFor(
    'p',
    (t.policies ?? []).map((p) => p.name),
  );
  const consumers = tokensFor(
    'c',
    part.consumers.map((c) => c.id),
  );
  const labels = tokensFor(
    'l',
    [...part.consumers, ...part.publishers].flatMap((a) => (a.label !== undefined ? [a.label] : [])),
  );
  const publishers = tokensFor(
    'u',
    part.publishers.map((p) => p.id),
  );
  const bodies = tokensFor(
    'b',
    part.publishers.flatMap((p) => (p.bodyPrefix !== undefined ? [p.bodyPrefix] : [])),
  );
  const renamed = mapReferences(part, (r) => (r.target === 'queue' ? q.get(r.name) : x.get(r.name)) ?? r.name);
  // a policy applies to the part's objects its pattern matched: the same list under their tokens
  const matchedBy = (p: PolicyDef): string[] => {
    const re = policyPattern(p.pattern);
    if (!re) return [];
    const objects = p['apply-to'] === 'exchanges' ? [] : [...queues].filter((n) => re.test(n)).map((n) => q.get(n)!);
    const xs = p['apply-to'] === 'queues' ? [] : [...exchanges].filter((n) => re.test(n)).map((n) => x.get(n)!);
    return [...objects, ...xs].sort();
  };
  const policies = (renamed.topology.policies ?? []).flatMap((p, i) => {
    const matched = matchedBy(t.policies![i]!);
    return matched.length === 0
      ? []
      : [{ ...p, name: policyNames.get(p.name)!, pattern: `^(?:${matched.join('|')})$` }];
  });
  const pins = t.policyPins
    ? Object.fromEntries(
        Object.entries(t.policyPins).flatMap(([k, v]) =>
          q.has(k) ? [[q.get(k)!, policyNames.get(v) ?? v] as const] : [],
        ),
      )
    : undefined;
  // only what a run reads: the name, description, layout and sources differ between copies and change nothing
  const design: Design = {
    format: renamed.format,
    version: renamed.version,
    name: '',
    ...(renamed.profile !== undefined ? { profile: renamed.profile } : {}),
    topology: {
      ...renamed.topology,
      policies,
      ...(pins ? { policyPins: pins } : {}),
    },
    consumers: renamed.consumers.map((c) => ({
      ...c,
      id: consumers.get(c.id)!,
      ...(c.label !== undefined ? { label: labels.get(c.label)! } : {}),
    })),
    publishers: renamed.publishers.map((p) => ({
      ...p,
      id: publishers.get(p.id)!,
      ...(p.label !== undefined ? { label: labels.get(p.label)! } : {}),
      ...(p.bodyPrefix !== undefined ? { bodyPrefix: bodies.get(p.bodyPrefix)! } : {}),
    })),
  };
  const names = new Map<string, string>();
  for (const m of [q, x, policyNames, consumers, labels, publishers, bodies])
    for (const [n, tok] of m) names.set(tok, n);
  return {
    key: JSON.stringify(design),
    design,
    back: <T>(value: T): T => backValue(value, names) as T,
  };
}

/** Every string in a value with its tokens replaced by the names (numbers and the rest as they are). */
function backValue(v: unknown, names: ReadonlyMap<string, string>): unknown {
  if (typeof v === 'string')
    return names.get(v) ?? (v.includes('⟦') ? v.replace(TOKEN, (tok) => names.get(tok) ?? tok) : v);
  if (Array.isArray(v)) return v.some((x) => typeof x !== 'number') ? v.map((x) => backValue(x, names)) : v;
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, backValue(x, names)]));
  return v;
}
