/**
 * Fields a definitions import cannot go without, per broker line: measured by loading a file with
 * one field left out into throwaway vhosts through `POST /api/definitions/VHOST` (apps/server/src/cli/
 * corpus/README.md "Fields a broker refuses to go without"; definitionFields.integration.test.ts
 * re-measures it). RabbitMQ 3.10.8 answers 400 function_clause for a queue without `durable` or
 * `auto_delete` (after creating the file's exchanges and policies, none of its queues or bindings)
 * and for an exchange without `durable` (before anything is created); 4.3.6 takes both and fills
 * in the defaults. Both take a queue without `arguments`, an exchange without `auto_delete`,
 * `internal` or `arguments`, a binding without `routing_key` or `arguments`, a policy without
 * `apply-to` or `priority`. 4.0-4.2 were not measured: nothing is claimed for them.
 */
import type { BrokerProfileId } from './design.js';

/** A field of a queue or exchange the definitions file leaves out (the reader fills in the default). */
export interface OmittedField {
  readonly kind: 'queue' | 'exchange';
  readonly name: string;
  readonly field: 'durable' | 'auto_delete' | 'internal' | 'arguments';
}

interface Refusal {
  /** the fields whose absence makes the import fail */
  readonly queue: readonly OmittedField['field'][];
  readonly exchange: readonly OmittedField['field'][];
  /** what the broker answered, and the version it was measured on */
  readonly answer: string;
  readonly measuredOn: string;
  /** what it had created when it answered */
  readonly createdFirst: Readonly<Record<OmittedField['kind'], string>>;
}

const REFUSALS: Readonly<Partial<Record<BrokerProfileId, Refusal>>> = {
  '3.10': {
    queue: ['durable', 'auto_delete'],
    exchange: ['durable'],
    answer: '400 function_clause',
    measuredOn: '3.10.8',
    createdFirst: {
      queue: "the file's exchanges and policies, none of its queues or bindings",
      exchange: 'nothing',
    },
  },
  '4.3': { queue: [], exchange: [], answer: '', measuredOn: '4.3.6', createdFirst: { queue: '', exchange: '' } },
};

/** The omitted fields this broker line refuses the import for (undefined: the line was not measured). */
export function refusedOmissions(
  omitted: readonly OmittedField[],
  profile: BrokerProfileId,
):
  | {
      readonly refused: readonly OmittedField[];
      readonly answer: string;
      readonly measuredOn: string;
      readonly createdFirst: string;
    }
  | undefined {
  const r = REFUSALS[profile];
  if (!r) return undefined;
  const refused = omitted.filter((o) => r[o.kind].includes(o.field));
  const first = refused.find((o) => o.kind === 'exchange') ?? refused[0];
  return { refused, answer: r.answer, measuredOn: r.measuredOn, createdFirst: first ? r.createdFirst[first.kind] : '' };
}
