/**
 * The consistency check over the real-world corpus (issue 29): every definitions file, with the
 * actors lint assumes (withAssumedActors), each publisher's message under every profile and
 * failure model. Every place states the same outcome, and lint's retry-never-ends agrees with the
 * simulation. No broker: the core's check on the files as loaded.
 */
import { describe, expect, it } from 'vitest';
import { withAssumedActors } from '@retry-studio/topology-core/lint';
import type { BrokerProfileId, FailureModel } from '@retry-studio/topology-core/model';
import { outcomeDisagreements, ruleDisagreements, type Disagreement } from '@retry-studio/topology-core/agreement';
import { CORPUS_FILES as FILES, readCorpusFile } from './corpusFiles.js';
const PROFILES: readonly BrokerProfileId[] = ['3.10', '4.x', '4.3'];
const MODELS: readonly FailureModel[] = [
  { kind: 'always' },
  ...[1, 2, 3, 4].map((n) => ({ kind: 'failFirst' as const, n })),
  { kind: 'poison' },
  { kind: 'percent', percent: 30 },
];
const MAX_EVENTS = 6_000;

const said = (d: readonly Disagreement[]): string[] =>
  d.map((x) => `${x.case}: ${x.places[0]} said "${x.said[0]}", ${x.places[1]} said "${x.said[1]}"`);

describe('every corpus file with its assumed actors: every place states the same outcome', () => {
  it.each(FILES)('%s', { timeout: 120_000 }, async (file) => {
    const r = await readCorpusFile(file);
    if (!r.ok) return; // a file the reader refuses has no outcome to state (corpus.test.ts checks the refusal)
    const found: Disagreement[] = [];
    for (const doc of r.docs) {
      const { design } = withAssumedActors(doc.design);
      const label = `${file}${doc.vhost !== undefined ? ` (vhost ${doc.vhost})` : ''}`;
      for (const profile of PROFILES) {
        const onProfile = { ...design, profile };
        for (const p of onProfile.publishers)
          for (const failure of MODELS)
            found.push(
              ...outcomeDisagreements({ ...onProfile, publishers: [p] }, failure, {
                label: `${label} publisher ${p.id}`,
                maxEvents: MAX_EVENTS,
              }),
            );
        found.push(...ruleDisagreements(onProfile, { label, maxEvents: MAX_EVENTS, linted: doc.design }));
      }
    }
    expect(said(found)).toEqual([]);
  });
});
