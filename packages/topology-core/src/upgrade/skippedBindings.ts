/**
 * A definitions file whose bindings name a queue or exchange it does not declare: 3.x loads the
 * file and skips those bindings, 4.x answers the import with 400 resources_missing after creating
 * the rest (measured on 3.10.8 and 4.3.6: apps/server/src/cli/corpus/README.md). Moving from 3.x
 * to 4.x the same file's import starts failing, so it is a refusal; the other way it is a note.
 */
import type { BrokerProfileId } from '../model/design.js';
import { exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { UNDECLARED_BINDING_END_ON_BROKERS, type SkippedBinding } from '../io/brokerObjects.js';
import { SOURCES } from './sources.js';
import type { DeclarationFinding } from './types.js';

const is4 = (p: BrokerProfileId): boolean => p !== '3.10';

export function skippedBindingFindings(
  skipped: readonly SkippedBinding[],
  from: BrokerProfileId,
  to: BrokerProfileId,
): DeclarationFinding[] {
  if (skipped.length === 0 || is4(from) === is4(to)) return [];
  const first = skipped[0]!;
  const names = skipped.map(
    (b) => `${b.source} -> ${b.destination} (${b.missing.kind} ${b.missing.name} not declared)`,
  );
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
    fix: 'Declare the missing queues and exchanges in the file, or remove the bindings that name them.',
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
