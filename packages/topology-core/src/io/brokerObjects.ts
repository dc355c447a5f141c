/**
 * What a broker exports that a design does not declare. The name rules (names.ts) are for
 * what the tool declares; a definitions file is what a broker already holds, so its
 * server-named, exclusive and built-in objects, unknown exchange types and vendor fields are
 * read, and those the model has no place for are skipped with a note (never a refusal).
 */
import { BUILTIN_EXCHANGE_TYPES, PLUGIN_EXCHANGE_TYPES } from '../model/definitions.js';
import { isPlainObject, type ValidationIssue } from '../model/validateResult.js';

export type ObjectKind = 'exchanges' | 'queues' | 'bindings' | 'policies';

/** One object of the file with its index there (so that errors point into the file). */
export interface IndexedItem {
  readonly index: number;
  readonly item: { readonly [k: string]: unknown };
}

const KNOWN_FIELDS: { readonly [k in ObjectKind]: ReadonlySet<string> } = {
  exchanges: new Set(['name', 'vhost', 'type', 'durable', 'auto_delete', 'internal', 'arguments', 'user_who_performed_action']),
  queues: new Set(['name', 'vhost', 'type', 'durable', 'auto_delete', 'exclusive', 'arguments', 'node', 'owner_pid', 'state', 'leader', 'members']),
  bindings: new Set(['source', 'vhost', 'destination', 'destination_type', 'routing_key', 'arguments', 'properties_key']),
  policies: new Set(['name', 'vhost', 'pattern', 'apply-to', 'priority', 'definition']),
};

const MODELLED_EXCHANGE_TYPES: readonly string[] = [...BUILTIN_EXCHANGE_TYPES, ...PLUGIN_EXCHANGE_TYPES];

interface Skip {
  readonly kind: ObjectKind;
  readonly name: string;
  readonly reason: string;
}

export interface BrokerObjects {
  readonly kept: { readonly [k in ObjectKind]: readonly IndexedItem[] };
  /** one note per reason (names listed, a few at most), as warnings */
  readonly notes: readonly ValidationIssue[];
}

const SHOWN = 5;

/** `3 queues (a, b, c)` / `12 queues (a, b, c, d, e, ...)` */
export function countedNames(n: number, noun: string, names: readonly string[]): string {
  const shown = names.slice(0, SHOWN).map((x) => JSON.stringify(x));
  const plural = n === 1 ? noun : /[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`;
  return `${n} ${plural}${shown.length ? ` (${shown.join(', ')}${names.length > SHOWN ? ', ...' : ''})` : ''}`;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** Splits one vhost's objects into what the model holds and what it skips, with the reasons. */
export function readBrokerObjects(items: { readonly [k in ObjectKind]: readonly IndexedItem[] }): BrokerObjects {
  const skips: Skip[] = [];
  const skippedExchanges = new Set<string>();
  const skippedQueues = new Set<string>();
  // a name listed twice: the broker's import declares the first and keeps it (a redeclare does not change it)
  const firstOf = (kind: 'exchanges' | 'queues') => {
    const seen = new Set<string>();
    return ({ item }: IndexedItem): boolean => {
      if (typeof item.name !== 'string') return true;
      if (!seen.has(item.name)) {
        seen.add(item.name);
        return true;
      }
      skips.push({ kind, name: item.name, reason: 'listed twice (the broker keeps the first declaration; the later one is dropped)' });
      return false;
    };
  };
  const exchanges = items.exchanges.filter(firstOf('exchanges')).filter(({ item: x }) => {
    if (typeof x.name !== 'string') return true; // the validator names the field
    if (x.name === '' || x.name.startsWith('amq.')) {
      skips.push({ kind: 'exchanges', name: x.name, reason: 'built in (every vhost has it; a design does not declare it)' });
      skippedExchanges.add(x.name);
      return false;
    }
    if (typeof x.type === 'string' && !MODELLED_EXCHANGE_TYPES.includes(x.type)) {
      skips.push({ kind: 'exchanges', name: x.name, reason: `of a type the simulator does not model (${x.type}); its bindings are skipped too` });
      skippedExchanges.add(x.name);
      return false;
    }
    return true;
  });
  const queues = items.queues.filter(firstOf('queues')).filter(({ item: q }) => {
    if (typeof q.name !== 'string') return true;
    if (q.name === '' || q.name.startsWith('amq.')) {
      skips.push({ kind: 'queues', name: q.name, reason: 'server-named (amq.gen-*: the broker names them for one connection)' });
      skippedQueues.add(q.name);
      return false;
    }
    if (q.exclusive === true) {
      skips.push({ kind: 'queues', name: q.name, reason: 'exclusive (they belong to one connection)' });
      skippedQueues.add(q.name);
      return false;
    }
    return true;
  });
  const bindings = items.bindings.filter(({ item: b }) => {
    const label = `${str(b.source)} -> ${str(b.destination)}`;
    if (b.source === '') {
      skips.push({ kind: 'bindings', name: label, reason: "of the default exchange (implicit: every queue has one, by its name)" });
      return false;
    }
    // a built-in exchange stays a source (bindings from amq.fanout route as on the broker)
    const gone =
      (typeof b.source === 'string' && skippedExchanges.has(b.source) && !b.source.startsWith('amq.')) ||
      (typeof b.destination === 'string' && (b.destination_type === 'queue' ? skippedQueues.has(b.destination) : skippedExchanges.has(b.destination) && !b.destination.startsWith('amq.')));
    if (gone) {
      skips.push({ kind: 'bindings', name: label, reason: 'to or from an object that is skipped' });
      return false;
    }
    return true;
  });
  const kept = { exchanges, queues, bindings, policies: items.policies };

  const notes: ValidationIssue[] = [];
  const byReason = new Map<string, Skip[]>();
  for (const s of skips) byReason.set(`${s.kind}\u0000${s.reason}`, [...(byReason.get(`${s.kind}\u0000${s.reason}`) ?? []), s]);
  for (const list of byReason.values()) {
    const { kind, reason } = list[0]!;
    const noun = kind.slice(0, -1);
    notes.push({ path: kind, code: 'skipped', message: `skipped ${countedNames(list.length, noun, list.map((s) => s.name))}: ${reason}` });
  }
  // vendor fields (description, ...): read past, said once per field
  for (const kind of ['exchanges', 'queues', 'bindings', 'policies'] as const) {
    const extra = new Map<string, string[]>();
    for (const { item } of kept[kind])
      for (const k of Object.keys(item)) if (!KNOWN_FIELDS[kind].has(k)) extra.set(k, [...(extra.get(k) ?? []), str(item.name ?? `${str(item.source)} -> ${str(item.destination)}`)]);
    for (const [field, names] of extra)
      notes.push({ path: kind, code: 'field-ignored', message: `field "${field}" ignored on ${countedNames(names.length, kind.slice(0, -1), names)}: RabbitMQ does not define it` });
  }
  return { kept, notes };
}

/** Groups of a raw list that are plain objects, with their indices. */
export function indexed(list: readonly unknown[]): IndexedItem[] {
  const out: IndexedItem[] = [];
  list.forEach((item, index) => {
    if (isPlainObject(item)) out.push({ index, item });
  });
  return out;
}
