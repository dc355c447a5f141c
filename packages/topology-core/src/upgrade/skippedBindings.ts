/**
 * A definitions file whose bindings name a queue or exchange it does not declare: 3.x loads the
 * file and skips those bindings, 4.x answers the import with 400 resources_missing after creating
 * the rest (measured on 3.10.8 and 4.3.6: apps/server/src/cli/corpus/README.md). Moving from 3.x
 * to 4.x the same file's import starts failing, so it is a refusal; the other way it is a note.
 */
import type { BrokerProfileId } from '../model/design.js';
import { profileFor } from '../sim/profiles.js';
import { exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { UNDECLARED_BINDING_END_ON_BROKERS, type SkippedBinding } from '../io/brokerObjects.js';
import { SOURCES } from './sources.js';
import type { DeclarationFinding } from './types.js';

const is4 = (p: BrokerProfileId): boolean => profileFor(p).major === 4;

export function skippedBindingFindings(
  skipped: readonly SkippedBinding[],
  from: BrokerProfileId,
  to: BrokerProfileId,
): DeclarationFinding[] {
  if (skipped.length === 0 || is4(from) === is4(to)) return [];
  const first = skipped[0]!;
  // one missing end per group of bindings, each binding by its key (a queue bound with 7 keys is 7 bindings, not 7 lines alike)
  const byEnd = new Map<string, SkippedBinding[]>();
  for (const b of skipped) {
    const k = `${b.source}\u0000${b.destination}\u0000${b.missing.kind}\u0000${b.missing.name}`;
    byEnd.set(k, [...(byEnd.get(k) ?? []), b]);
  }
  const names = [...byEnd.values()].map((group) => {
    const b = group[0]!;
    const keys = group.map((x) => JSON.stringify(x.routing_key));
    const withKeys = `key${keys.length === 1 ? '' : 's'} ${keys.slice(0, 3).join(', ')}${keys.length > 3 ? ` and ${keys.length - 3} more` : ''}`;
    return `${b.source} -> ${b.destination}, ${withKeys} (${b.missing.kind} ${b.missing.name} not declared)`;
  });
  const listed = `${names.slice(0, 5).join('; ')}${names.length > 5 ? `; and ${names.length - 5} more` : ''}`;
  const base = {
    id: 'binding-end-undeclared',
    object: `binding ${first.source} -> ${first.destination}`,
    objects: [
      ...new Set(
        skipped.flatMap((b) => [
          exchangeNodeId(b.source),
          b.destination_type === 'queue' ? queueNodeId(b.destination) : exchangeNodeId(b.destination),
        ]),
      ),
    ],
    // an amq. exchange cannot be declared by a file: the binding belongs to the vhost (or broker) that has it
    fix: skipped.some((b) => b.missing.name.startsWith('amq.'))
      ? 'Declare the missing queues and exchanges in the file, or remove the bindings that name them; a binding from an amq. exchange a file cannot declare (amq.rabbitmq.log) loads only into the vhost that has it (the default vhost of a broker with the log exchange).'
      : 'Declare the missing queues and exchanges in the file, or remove the bindings that name them.',
    sources: [SOURCES.measuredCorpus],
  };
  const message = `${skipped.length} binding(s) name a queue or exchange the file does not declare (${listed}). ${UNDECLARED_BINDING_END_ON_BROKERS}.`;
  return is4(to)
    ? [
        {
          ...base,
          kind: 'refused',
          message,
          brokerWording: `{resources_missing,[{not_found,{resource,<<"VHOST">>,${first.missing.kind},<<"${first.missing.name}">>}}]}`,
        },
      ]
    : [
        {
          ...base,
          kind: 'default-changed',
          message: `${message} On ${to} the import succeeds and the bindings are skipped.`,
        },
      ];
}
