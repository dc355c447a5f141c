/**
 * What a broker exports that a design does not declare. The name rules (names.ts) are for
 * what the tool declares; a definitions file is what a broker already holds, so its
 * server-named, exclusive and built-in objects, unknown exchange types and vendor fields are
 * read, and those the model has no place for are skipped with a note (never a refusal).
 */
import { BUILTIN_EXCHANGE_TYPES, PLUGIN_EXCHANGE_TYPES, builtinExchangeType } from '../model/definitions.js';
import { isPlainObject, type ValidationIssue } from '../model/validateResult.js';
import { pathIndex } from '../model/names.js';

export type ObjectKind = 'exchanges' | 'queues' | 'bindings' | 'policies';

/** One object of the file with its index there (so that errors point into the file). */
export interface IndexedItem {
  readonly index: number;
  readonly item: { readonly [k: string]: unknown };
}

const KNOWN_FIELDS: { readonly [k in ObjectKind]: ReadonlySet<string> } = {
  exchanges: new Set([
    'name',
    'vhost',
    'type',
    'durable',
    'auto_delete',
    'internal',
    'arguments',
    'user_who_performed_action',
  ]),
  queues: new Set([
    'name',
    'vhost',
    'type',
    'durable',
    'auto_delete',
    'exclusive',
    'arguments',
    'node',
    'owner_pid',
    'state',
    'leader',
    'members',
  ]),
  bindings: new Set([
    'source',
    'vhost',
    'destination',
    'destination_type',
    'routing_key',
    'arguments',
    'properties_key',
  ]),
  policies: new Set(['name', 'vhost', 'pattern', 'apply-to', 'priority', 'definition']),
};

const MODELLED_EXCHANGE_TYPES: readonly string[] = [...BUILTIN_EXCHANGE_TYPES, ...PLUGIN_EXCHANGE_TYPES];

interface Skip {
  readonly kind: ObjectKind;
  readonly name: string;
  readonly reason: string;
}

/** A binding of the file one of whose ends the file does not declare (read past, never a refusal). */
export interface SkippedBinding {
  /** its index in the file's `bindings` */
  readonly index: number;
  readonly source: string;
  readonly destination: string;
  readonly destination_type: 'queue' | 'exchange';
  readonly routing_key: string;
  /** the end that is not declared */
  readonly missing: { readonly kind: 'queue' | 'exchange'; readonly name: string };
}

/**
 * What each broker line does with a definitions file holding such a binding (measured with
 * POST /api/definitions/VHOST, corpus/README.md): 3.x skips the binding and loads the rest;
 * 4.x creates every queue, exchange and other binding, then answers 400 resources_missing.
 */
export const UNDECLARED_BINDING_END_ON_BROKERS =
  'RabbitMQ 3.x skips the binding and loads the rest (measured on 3.10.8); 4.x creates every queue, exchange and other binding, then answers 400 resources_missing, so the import reports a failure while the rest is in place (measured on 4.3.6)';

export interface BrokerObjects {
  readonly kept: { readonly [k in ObjectKind]: readonly IndexedItem[] };
  /** bindings skipped because an end is not declared in the file */
  readonly skippedBindings: readonly SkippedBinding[];
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
      skips.push({
        kind,
        name: item.name,
        reason: 'listed twice (the broker keeps the first declaration; the later one is dropped)',
      });
      return false;
    };
  };
  const exchanges = items.exchanges.filter(firstOf('exchanges')).filter(({ item: x }) => {
    if (typeof x.name !== 'string') return true; // the validator names the field
    if (x.name === '' || x.name.startsWith('amq.')) {
      skips.push({
        kind: 'exchanges',
        name: x.name,
        reason: 'built in (every vhost has it; a design does not declare it)',
      });
      skippedExchanges.add(x.name);
      return false;
    }
    if (typeof x.type === 'string' && !MODELLED_EXCHANGE_TYPES.includes(x.type)) {
      skips.push({
        kind: 'exchanges',
        name: x.name,
        reason: `of a type the simulator does not model (${x.type}); its bindings are skipped too`,
      });
      skippedExchanges.add(x.name);
      return false;
    }
    return true;
  });
  const queues = items.queues.filter(firstOf('queues')).filter(({ item: q }) => {
    if (typeof q.name !== 'string') return true;
    if (q.name === '' || q.name.startsWith('amq.')) {
      skips.push({
        kind: 'queues',
        name: q.name,
        reason: 'server-named (amq.gen-*: the broker names them for one connection)',
      });
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
  const declaredExchanges = new Set(exchanges.map(({ item }) => item.name));
  const declaredQueues = new Set(queues.map(({ item }) => item.name));
  const skippedBindings: SkippedBinding[] = [];
  const bindings = items.bindings.filter(({ item: b, index }) => {
    const label = `${str(b.source)} -> ${str(b.destination)}`;
    if (b.source === '') {
      skips.push({
        kind: 'bindings',
        name: label,
        reason: 'of the default exchange (implicit: every queue has one, by its name)',
      });
      return false;
    }
    // a built-in exchange stays a source (bindings from amq.fanout route as on the broker)
    const gone =
      (typeof b.source === 'string' && skippedExchanges.has(b.source) && !b.source.startsWith('amq.')) ||
      (typeof b.destination === 'string' &&
        (b.destination_type === 'queue'
          ? skippedQueues.has(b.destination)
          : skippedExchanges.has(b.destination) && !b.destination.startsWith('amq.')));
    if (gone) {
      skips.push({ kind: 'bindings', name: label, reason: 'to or from an object that is skipped' });
      return false;
    }
    const missing = undeclaredEnd(b, declaredExchanges, declaredQueues);
    if (missing) {
      skippedBindings.push({
        index,
        source: b.source as string,
        destination: b.destination as string,
        destination_type: b.destination_type as 'queue' | 'exchange',
        routing_key: typeof b.routing_key === 'string' ? b.routing_key : '',
        missing,
      });
      return false;
    }
    return true;
  });
  const kept = { exchanges, queues, bindings, policies: items.policies };

  const notes: ValidationIssue[] = [];
  const byReason = new Map<string, Skip[]>();
  for (const s of skips)
    byReason.set(`${s.kind}\u0000${s.reason}`, [...(byReason.get(`${s.kind}\u0000${s.reason}`) ?? []), s]);
  for (const b of skippedBindings)
    notes.push({
      path: pathIndex('bindings', b.index),
      code: 'binding-end-undeclared',
      message: `binding ${JSON.stringify(b.source)} -> ${b.destination_type} ${JSON.stringify(b.destination)} (key ${JSON.stringify(b.routing_key)}) skipped: ${b.missing.kind} ${JSON.stringify(b.missing.name)} ${b.missing.name.startsWith('amq.') ? NOT_IN_EVERY_VHOST : 'is not declared in the file'}. ${UNDECLARED_BINDING_END_ON_BROKERS}`,
    });
  for (const list of byReason.values()) {
    const { kind, reason } = list[0]!;
    const noun = kind.slice(0, -1);
    notes.push({
      path: kind,
      code: 'skipped',
      message: `skipped ${countedNames(
        list.length,
        noun,
        list.map((s) => s.name),
      )}: ${reason}`,
    });
  }
  // vendor fields (description, ...): read past, said once per field
  for (const kind of ['exchanges', 'queues', 'bindings', 'policies'] as const) {
    const extra = new Map<string, string[]>();
    for (const { item } of kept[kind])
      for (const k of Object.keys(item))
        if (!KNOWN_FIELDS[kind].has(k))
          extra.set(k, [...(extra.get(k) ?? []), str(item.name ?? `${str(item.source)} -> ${str(item.destination)}`)]);
    for (const [field, names] of extra)
      notes.push({
        path: kind,
        code: 'field-ignored',
        message: `field "${field}" ignored on ${countedNames(names.length, kind.slice(0, -1), names)}: RabbitMQ does not define it`,
      });
  }
  return { kept, skippedBindings, notes };
}

/** An `amq.*` exchange that is not one of the built-ins every vhost has, said as a binding end. */
const NOT_IN_EVERY_VHOST =
  'is not one of the exchanges every vhost has (amq.direct, amq.fanout, amq.topic, amq.headers, amq.match, amq.rabbitmq.trace): the log exchange amq.rabbitmq.log exists in the default vhost only (4.3.6 has it, 3.10.8 not at all), a plugin exchange (amq.rabbitmq.event) only where its plugin declares it, and a file cannot declare an amq. exchange';

/**
 * The end of a binding that the file does not declare; malformed ends are the validator's. The built-in
 * exchanges exist in every vhost (model BUILTIN_EXCHANGES); other `amq.*` names do not: the broker's log
 * exchange `amq.rabbitmq.log` is in the default vhost only (4.3.6 has it there, 3.10.8 not at all), so a
 * binding from it into another vhost is skipped by 3.10.8 and refused by 4.3.6 (measured: corpus/README.md).
 */
function undeclaredEnd(
  b: { readonly [k: string]: unknown },
  exchanges: ReadonlySet<unknown>,
  queues: ReadonlySet<unknown>,
): SkippedBinding['missing'] | undefined {
  if (typeof b.source !== 'string' || typeof b.destination !== 'string') return undefined;
  if (b.destination_type !== 'queue' && b.destination_type !== 'exchange') return undefined;
  const known = (x: string) => builtinExchangeType(x) !== undefined || exchanges.has(x);
  if (b.source !== '' && !known(b.source)) return { kind: 'exchange', name: b.source };
  if (b.destination_type === 'queue' && !queues.has(b.destination)) return { kind: 'queue', name: b.destination };
  if (b.destination_type === 'exchange' && b.destination !== '' && !known(b.destination))
    return { kind: 'exchange', name: b.destination };
  return undefined;
}

/** Groups of a raw list that are plain objects, with their indices. */
export function indexed(list: readonly unknown[]): IndexedItem[] {
  const out: IndexedItem[] = [];
  list.forEach((item, index) => {
    if (isPlainObject(item)) out.push({ index, item });
  });
  return out;
}
