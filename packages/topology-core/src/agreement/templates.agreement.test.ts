/**
 * The consistency check over the templates (issue 29): every template x profile (3.10, 4.x, 4.3)
 * x failure model (always, fail-first 1..4, poison, 30% with seed 1). Every place states the same
 * outcome for every message, and lint's retry rule and each template's stated fate agree with the
 * simulation. A disagreement names the case, the two places and what each said.
 */
import { describe, expect, it } from 'vitest';
import type { BrokerProfileId, Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import { buildTemplate, listTemplates } from '../templates/registry.js';
import { outcomeDisagreements, ruleDisagreements, type Disagreement } from './outcomeAgreement.js';

export const PROFILES: readonly BrokerProfileId[] = ['3.10', '4.x', '4.3'];
export const MODELS: readonly FailureModel[] = [
  { kind: 'always' },
  ...[1, 2, 3, 4].map((n) => ({ kind: 'failFirst' as const, n })),
  { kind: 'poison' },
  { kind: 'percent', percent: 30 },
];
/** the check's event bound: a loop that never ends shows it well within it; ending retries end far before */
const MAX_EVENTS = 6_000;

function template(id: string, profile: BrokerProfileId, params: Record<string, unknown> = {}): Design {
  const r = buildTemplate(id, params);
  if (!r.ok) throw new Error(`${id}: ${JSON.stringify(r.errors)}`);
  return { ...r.template.design, profile };
}

const said = (d: readonly Disagreement[]): string[] =>
  d.map((x) => `${x.case}: ${x.places[0]} said "${x.said[0]}", ${x.places[1]} said "${x.said[1]}"`);

describe('every template: every place states the same outcome', () => {
  it.each(listTemplates().map((t) => t.id))('%s', { timeout: 120_000 }, (id) => {
    const found: Disagreement[] = [];
    for (const profile of PROFILES) {
      const design = template(id, profile);
      for (const failure of MODELS)
        found.push(...outcomeDisagreements(design, failure, { label: `template ${id}`, maxEvents: MAX_EVENTS }));
      found.push(...ruleDisagreements(design, { label: `template ${id}`, maxEvents: MAX_EVENTS }));
    }
    expect(said(found)).toEqual([]);
  });
});

describe('waits longer than a short horizon: the upgrade check and the budget still agree', () => {
  it(
    'dlx-ttl-wait-queue with 20 min waits parks after 40 min: parked in every place, not "still moving" where a run stops early',
    { timeout: 60_000 },
    () => {
      const found: Disagreement[] = [];
      for (const profile of PROFILES) {
        const design = template('dlx-ttl-wait-queue', profile, { delayMs: 20 * 60_000 });
        for (const failure of MODELS.slice(0, 2))
          found.push(
            ...outcomeDisagreements(design, failure, {
              label: 'template dlx-ttl-wait-queue (20 min)',
              maxEvents: MAX_EVENTS,
            }),
          );
        found.push(
          ...ruleDisagreements(design, { label: 'template dlx-ttl-wait-queue (20 min)', maxEvents: MAX_EVENTS }),
        );
      }
      expect(said(found)).toEqual([]);
    },
  );
});
