/**
 * A definitions file that leaves out queue or exchange fields a broker line cannot import without
 * (model/definitionFields.ts, measured: 3.10.8 refuses a queue without auto_delete or durable, 4.3.6
 * fills in the defaults). Moving to a line that refuses them, the same file's import starts failing:
 * a refusal; the other way it is a note.
 */
import type { BrokerProfileId } from '../model/design.js';
import { exchangeNodeId, queueNodeId } from '../model/nodeIds.js';
import { refusedOmissions, type OmittedField } from '../model/definitionFields.js';
import { nameList } from '../text/nameList.js';
import { SOURCES } from './sources.js';
import type { DeclarationFinding } from './types.js';

export function omittedFieldFindings(
  omitted: readonly OmittedField[],
  from: BrokerProfileId,
  to: BrokerProfileId,
): DeclarationFinding[] {
  const onTarget = refusedOmissions(omitted, to);
  const onSource = refusedOmissions(omitted, from);
  const targetRefuses = onTarget !== undefined && onTarget.refused.length > 0;
  const sourceRefuses = onSource !== undefined && onSource.refused.length > 0;
  if (targetRefuses === sourceRefuses) return [];
  const r = (targetRefuses ? onTarget : onSource)!;
  const names = r.refused.map((o) => `${o.kind} ${o.name} (no ${o.field})`);
  const first = r.refused[0]!;
  const base = {
    id: 'definitions-field-refused',
    object: `${first.kind} ${first.name}`,
    objects: [...new Set(r.refused.map((o) => (o.kind === 'queue' ? queueNodeId(o.name) : exchangeNodeId(o.name))))],
    fix: 'Write durable and auto_delete on every queue and durable on every exchange (retry-studio export FILE --format definitions writes them).',
    sources: [SOURCES.measuredCorpus],
  };
  const refusedBy = (line: BrokerProfileId) =>
    `The file leaves out fields RabbitMQ ${line} cannot import without: ${nameList(names, 5)}. It answered ${r.answer} (measured on ${r.measuredOn}), having created ${r.createdFirst}.`;
  return targetRefuses
    ? [{ ...base, kind: 'refused', message: refusedBy(to), brokerWording: r.answer }]
    : [
        {
          ...base,
          kind: 'default-changed',
          message: `${refusedBy(from)} RabbitMQ ${to} imports it and fills in the defaults.`,
        },
      ];
}
