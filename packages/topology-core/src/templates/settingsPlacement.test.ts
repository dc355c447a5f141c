/**
 * The policy-first variant of the TTL wait-queue templates: no TTL/DLX arguments left, one
 * policy per queue instead, and the simulation is event for event the same.
 */
import { describe, expect, it } from 'vitest';
import { buildTemplate, listTemplates } from './registry.js';
import { simulate } from '../sim/simulate.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import { lintDesign } from '../lint/lintDesign.js';
import type { FailureModel } from '../model/consumer.js';
import type { Design } from '../model/design.js';

const withSettings = listTemplates().filter((t) => t.params.some((p) => p.name === 'settings'));

function build(id: string, settings: 'arguments' | 'policy'): Design {
  const r = buildTemplate(id, { settings });
  if (!r.ok) throw new Error(`${id}: ${JSON.stringify(r.errors)}`);
  return r.template.design;
}

const run = (d: Design, failure: FailureModel) =>
  simulate(designToSimulation(d, { messages: 3, failure })).events.map((e) => JSON.stringify(e));

describe('settings: policy (the policy-first template variant)', () => {
  it('is offered by the TTL wait-queue templates', () => {
    expect(withSettings.map((t) => t.id).sort()).toEqual([
      'binary-delay-levels',
      'chained-ttl',
      'dlx-ttl-wait-queue',
      'ttl-dlq-consumer',
    ]);
  });

  for (const t of withSettings) {
    it(`${t.id}: TTL and DLX move into policies and the simulation is identical`, () => {
      const args = build(t.id, 'arguments');
      const pol = build(t.id, 'policy');
      expect(args.topology.policies ?? []).toEqual([]);
      const moved = pol.topology.queues.flatMap((q) =>
        Object.keys(q.arguments ?? {}).filter((k) =>
          ['x-message-ttl', 'x-dead-letter-exchange', 'x-dead-letter-routing-key'].includes(k),
        ),
      );
      expect(moved).toEqual([]);
      expect(pol.topology.policies!.length).toBeGreaterThan(0);
      for (const failure of [{ kind: 'always' }, { kind: 'failFirst', n: 1 }] as const) {
        const a = run(args, failure);
        expect(a.length).toBeGreaterThan(3);
        expect(run(pol, failure)).toEqual(a);
      }
      // the linter sees the same topology through the policies
      expect(lintDesign(pol).map((f) => f.id)).toEqual(lintDesign(args).map((f) => f.id));
    });
  }

  it('dlx-ttl-wait-queue: the wait queue TTL sits in its own policy', () => {
    const pol = build('dlx-ttl-wait-queue', 'policy');
    expect(pol.topology.policies).toContainEqual({
      name: 'orders.wait.settings',
      pattern: '^orders\\.wait$',
      'apply-to': 'queues',
      priority: 0,
      definition: { 'message-ttl': 5000, 'dead-letter-exchange': 'orders.requeue' },
    });
    expect(pol.description).toMatch(/in policies/);
  });
});
