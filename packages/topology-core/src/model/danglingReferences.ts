/**
 * Dangling references: a name that no declaration in the design answers to, reported at the
 * field that holds it. Roles the topology and consumer checks already report (binding ends,
 * DLX, alternate exchange, a consumer's queue, republish and publisher exchanges, layout keys,
 * a publish to the default exchange) are left to them, so nothing is said twice.
 */
import { designReferences, type NameReference, type ReferenceRole } from './references.js';
import type { IssueSink } from './validateResult.js';

const CHECKED_HERE: ReadonlySet<ReferenceRole> = new Set<ReferenceRole>([
  'counter',
  'dead-letter-routing-key',
  'republish-routing-key',
  'policy-dead-letter-exchange',
  'policy-alternate-exchange',
  'policy-dead-letter-routing-key',
  'radlx-track-queue',
  'radlx-dead-source',
]);

const WHAT: Partial<Record<ReferenceRole, string>> = {
  counter: 'the counter reads the x-death entry of queue',
  'dead-letter-routing-key': 'dead letters go through the default exchange to queue',
  'republish-routing-key': 'the republish goes through the default exchange to queue',
  'policy-dead-letter-exchange': 'the policy dead-letters to exchange',
  'policy-alternate-exchange': 'the policy sets the alternate exchange',
  'policy-dead-letter-routing-key': 'the policy dead-letters through the default exchange to queue',
  'radlx-track-queue': 'radlx counts the x-death entries of queue',
  'radlx-dead-source': 'the dead binding matches messages that died in queue',
};

function consequence(r: NameReference): string {
  if (r.role === 'counter') return 'the count stays 0, so a limit on it never trips';
  return r.target === 'queue' ? 'messages sent there are dropped' : 'it has no effect';
}

/** Warns (the broker accepts these) about every name that points at nothing in the design. */
export function checkDanglingReferences(sink: IssueSink, design: unknown): void {
  const refs = designReferences(design);
  const declared = new Set(refs.filter((r) => r.kind === 'declaration').map((r) => `${r.target}:${r.name}`));
  for (const r of refs) {
    // routing keys through a named exchange are keys, not names: only `name` references can dangle
    if (r.kind !== 'name' || !CHECKED_HERE.has(r.role)) continue;
    if (declared.has(`${r.target}:${r.name}`) || (r.target === 'exchange' && r.name.startsWith('amq.'))) continue;
    sink.warn(
      r.path,
      'dangling-reference',
      `${WHAT[r.role]} "${r.name}", which is not declared in the design: ${consequence(r)}`,
    );
  }
}
