/**
 * upgrade-check's predictions against what the real brokers do, both directions, both brokers:
 * the original and the migrated topology declared in throwaway vhosts (verifyTopology), every
 * refusal predicted and every prediction seen, in the broker's own words; the vhosts deleted.
 */
import { describe, expect, it } from 'vitest';
import {
  DESIGN_FORMAT,
  DESIGN_VERSION,
  type BrokerProfileId,
  type Design,
  type Topology,
} from '@retry-studio/topology-core/model';
import { migrateDesignForUpgrade, upgradeCheck, type BehaviourFinding } from '@retry-studio/topology-core/upgrade';
import { parseAmqpUrl } from '../broker/index.js';
import { BROKER_310, BROKER_43, type TestBroker } from '../testing/testBrokers.js';
import { verifyTarget, verifyTopology, type VerifyRun } from './verifyUpgrade.js';
import { traceDifference } from './liveTrace.js';
import { verifyImport } from './verifyImport.js';

const ex = (name: string, type = 'direct', args: Record<string, unknown> = {}) =>
  ({
    name,
    type,
    durable: true,
    auto_delete: false,
    internal: false,
    arguments: args,
  }) as Topology['exchanges'][number];
const q = (name: string, args: Record<string, unknown> = {}, durable = true) =>
  ({ name, durable, auto_delete: false, arguments: args }) as Topology['queues'][number];
const bind = (source: string, destination: string, routing_key = '') => ({
  source,
  destination,
  destination_type: 'queue' as const,
  routing_key,
  arguments: {},
});
const design = (name: string, topology: Topology, profile: BrokerProfileId, extra: Partial<Design> = {}): Design => ({
  format: DESIGN_FORMAT,
  version: DESIGN_VERSION,
  name,
  profile,
  topology,
  consumers: [],
  publishers: [],
  ...extra,
});

/** a 3.13 export: mirroring policy, CQv1, master locator, lazy, transient, quorum without a limit */
const legacy: Topology = {
  exchanges: [ex('up'), ex('up.dlx', 'fanout')],
  queues: [
    q('up.q', { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': 'up.dlx' }),
    q('up.dlq', { 'x-queue-version': 1 }),
    q('up.located', { 'x-queue-master-locator': 'min-masters' }),
    q('up.lazy', { 'x-queue-mode': 'lazy' }),
    q('up.tmp', {}, false),
  ],
  bindings: [bind('up', 'up.q', 'k'), bind('up.dlx', 'up.dlq')],
  policies: [
    {
      name: 'up-ha',
      pattern: '^up\\.(dlq|lazy)$',
      'apply-to': 'queues',
      priority: 0,
      definition: { 'ha-mode': 'all', 'ha-sync-mode': 'automatic' },
    },
  ],
};

/** Nanit option 4: a worker republishing to a delayed-message exchange that routes back to its queue */
const delayed = design(
  'dm',
  {
    exchanges: [ex('dm'), ex('dm.retry', 'x-delayed-message', { 'x-delayed-type': 'direct' })],
    queues: [q('dm.q'), q('dm.parking')],
    bindings: [bind('dm', 'dm.q', 'k'), bind('dm.retry', 'dm.q', 'dm.q')],
    policies: [],
  },
  '3.10',
  {
    consumers: [
      {
        id: 'worker',
        queue: 'dm.q',
        behaviour: {
          kind: 'worker',
          onFailure: [
            {
              when: { kind: 'lt', counter: { kind: 'header', name: 'x-retries' }, value: 3 },
              then: {
                kind: 'republish',
                exchange: 'dm.retry',
                routingKey: 'dm.q',
                headers: {
                  'x-retries': { kind: 'counter', by: { kind: 'header', name: 'x-retries' }, add: 1 },
                  'x-delay': 1000,
                },
              },
            },
            { then: { kind: 'republish', exchange: '', routingKey: 'dm.parking' } },
          ],
        },
      },
    ],
    publishers: [{ id: 'p', exchange: 'dm', routingKey: 'k' }],
  },
);

/** a 4.3 export: quorum delayed retry by argument and by policy (apply-to quorum_queues) */
const modern: Topology = {
  exchanges: [ex('dr'), ex('dr.dlx', 'fanout')],
  queues: [
    q('dr.q', {
      'x-queue-type': 'quorum',
      'x-delivery-limit': 3,
      'x-dead-letter-exchange': 'dr.dlx',
      'x-delayed-retry-type': 'all',
      'x-delayed-retry-min': 200,
      'x-delayed-retry-max': 500,
    }),
    q('dr.dlq'),
  ],
  bindings: [bind('dr', 'dr.q', 'k'), bind('dr.dlx', 'dr.dlq')],
  policies: [
    {
      name: 'dr-retry',
      pattern: '^dr\\.q$',
      'apply-to': 'quorum_queues',
      priority: 0,
      definition: { 'delayed-retry-type': 'all', 'delayed-retry-min': 100 },
    },
  ],
};

async function run(
  b: TestBroker,
  d: Design,
  from: BrokerProfileId,
  to: BrokerProfileId,
): Promise<{ original: VerifyRun; migrated: VerifyRun }> {
  const t = await verifyTarget(parseAmqpUrl(b.amqpUrl), b.managementUrl);
  const report = upgradeCheck(d, { from, to });
  const m = migrateDesignForUpgrade(d, { from, to });
  const original = await verifyTopology(t, d.topology, report.findings, 'it-original');
  const migrated = await verifyTopology(
    t,
    m.design.topology,
    upgradeCheck({ ...m.design, profile: from }, { from, to }).findings,
    'it-migrated',
  );
  const vhosts = (await t.management.listVhosts()).map((v) => v.name);
  expect(vhosts).not.toContain(original.vhost);
  expect(vhosts).not.toContain(migrated.vhost);
  return { original, migrated };
}

const said = (r: VerifyRun, object: string): string | undefined =>
  r.outcomes.find((o) => o.object === object)?.brokerSaid;
const refused = (r: VerifyRun): string[] =>
  r.outcomes.filter((o) => !o.accepted && !o.object.startsWith('binding ')).map((o) => o.object);

describe('3.x -> 4.3, on RabbitMQ 4.3.6', () => {
  it("legacy declarations: refused as predicted, in the broker's words; the migration is accepted whole", async () => {
    const r = await run(BROKER_43, design('up', legacy, '3.10'), '3.10', '4.3');
    expect(r.original.outcomes.filter((o) => !o.agrees)).toEqual([]);
    expect(refused(r.original)).toEqual(['policy up-ha', 'queue up.dlq', 'queue up.located']);
    expect(said(r.original, 'policy up-ha')).toContain(
      '[{<<"ha-mode">>,<<"all">>},{<<"ha-sync-mode">>,<<"automatic">>}] are not recognised policy settings',
    );
    expect(said(r.original, 'queue up.dlq')).toContain("PRECONDITION_FAILED - invalid arg 'x-queue-version'");
    expect(said(r.original, 'queue up.located')).toContain('Channel ended');
    // the file as one definitions import: refused whole, after the exchanges were created and before any queue
    const t = await verifyTarget(parseAmqpUrl(BROKER_43.amqpUrl), BROKER_43.managementUrl);
    const imp = await verifyImport(
      t,
      legacy,
      upgradeCheck(design('up', legacy, '3.10'), { from: '3.10', to: '4.3' }).findings,
    );
    expect(imp).toMatchObject({ accepted: false, predictedRefused: true, agrees: true, cleanedUp: true });
    expect(imp.brokerSaid).toContain('are not recognised policy settings');
    expect([[...imp.created.exchanges].sort(), imp.created.queues]).toEqual([['up', 'up.dlx'], []]);
    // lazy and transient: accepted (ignored / deprecated, not refused); the transient queue is reported as a deprecated feature in use
    expect(r.original.deprecatedUsed).toContain('transient_nonexcl_queues');
    expect(r.migrated.outcomes.filter((o) => !o.accepted)).toEqual([]);
  });
  it('the delayed-message exchange: refused (unknown exchange type); the migration to quorum delayed retry is accepted', async () => {
    const r = await run(BROKER_43, delayed, '3.10', '4.3');
    expect(said(r.original, 'exchange dm.retry')).toContain("unknown exchange type 'x-delayed-message'");
    expect(r.original.outcomes.filter((o) => !o.agrees)).toEqual([]);
    expect(r.migrated.outcomes.filter((o) => !o.accepted)).toEqual([]);
  });
  it('the 4.3 design runs on its own broker: everything accepted', async () => {
    const t = await verifyTarget(parseAmqpUrl(BROKER_43.amqpUrl), BROKER_43.managementUrl);
    const r = await verifyTopology(t, modern, [], 'it-source');
    expect(r.outcomes.filter((o) => !o.accepted)).toEqual([]);
  });
});

describe('4.3 -> 3.10, on RabbitMQ 3.10.8', () => {
  it('4.x policy keys and per-type apply-to refused as predicted; x-delayed-retry-* arguments accepted (and ignored); the migration is accepted', async () => {
    const r = await run(BROKER_310, design('dr', modern, '4.3'), '4.3', '3.10');
    expect(r.original.outcomes.filter((o) => !o.agrees)).toEqual([]);
    expect(refused(r.original)).toEqual(['policy dr-retry']);
    expect(said(r.original, 'policy dr-retry')).toMatch(
      /are not recognised policy settings.*apply-to 'quorum_queues' unrecognised/,
    );
    expect(r.original.outcomes.find((o) => o.object === 'queue dr.q')?.accepted).toBe(true);
    expect(r.migrated.outcomes.filter((o) => !o.accepted)).toEqual([]);
  });
  it('the 3.x legacy topology runs on its own broker: everything accepted', async () => {
    const t = await verifyTarget(parseAmqpUrl(BROKER_310.amqpUrl), BROKER_310.managementUrl);
    const r = await verifyTopology(t, legacy, [], 'it-source');
    expect(r.outcomes.filter((o) => !o.accepted)).toEqual([]);
  });
});

describe('live traces of the behaviour differences, on the target broker', () => {
  const nackLimit = (): Design =>
    design(
      'nl',
      {
        exchanges: [ex('nl'), ex('nl.dlx', 'fanout')],
        queues: [
          q('nl.q', { 'x-queue-type': 'quorum', 'x-delivery-limit': 2, 'x-dead-letter-exchange': 'nl.dlx' }),
          q('nl.dlq'),
        ],
        bindings: [bind('nl', 'nl.q', 'k'), bind('nl.dlx', 'nl.dlq')],
        policies: [],
      },
      '3.10',
      {
        consumers: [
          { id: 'w', queue: 'nl.q', behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'requeue' } }] } },
        ],
        publishers: [{ id: 'p', exchange: 'nl', routingKey: 'k' }],
      },
    );
  it('4.3.6: a nacked message on a quorum queue with x-delivery-limit 2 is still moving when 3.10 would have dead-lettered it', async () => {
    const t = await verifyTarget(parseAmqpUrl(BROKER_43.amqpUrl), BROKER_43.managementUrl);
    const f = upgradeCheck(nackLimit(), { from: '3.10', to: '4.3' }).findings.find(
      (x) => x.kind === 'behaviour-changed' && x.failure.kind === 'always',
    );
    expect(f?.kind).toBe('behaviour-changed');
    const r = await traceDifference(t, nackLimit(), f as BehaviourFinding, 4000);
    expect(r, JSON.stringify(r)).toMatchObject({
      predicted: 'still moving',
      observed: 'still moving',
      agrees: true,
      cleanedUp: true,
    });
  });
  it('3.10.8: x-delayed-retry-* ignored: dead-lettered after 4 deliveries with no wait, as predicted', async () => {
    const t = await verifyTarget(parseAmqpUrl(BROKER_310.amqpUrl), BROKER_310.managementUrl);
    const d = design('dr', modern, '4.3', {
      topology: { ...modern, policies: [] },
      consumers: [
        {
          id: 'w',
          queue: 'dr.q',
          behaviour: { kind: 'worker', onFailure: [{ then: { kind: 'requeue', via: 'reject' } }] },
        },
      ],
      publishers: [{ id: 'p', exchange: 'dr', routingKey: 'k' }],
    });
    const f = upgradeCheck(d, { from: '4.3', to: '3.10' }).findings.find(
      (x) => x.kind === 'behaviour-changed' && x.failure.kind === 'always',
    ) as BehaviourFinding;
    expect(f.before.delaysMs).toEqual([200, 400, 500]);
    const r = await traceDifference(t, d, f);
    expect(r, JSON.stringify(r)).toMatchObject({
      predicted: 'parked in dr.dlq',
      observed: 'parked in dr.dlq',
      agrees: true,
      cleanedUp: true,
    });
    expect(r!.observedDelaysMs.every((ms) => ms < 150)).toBe(true);
  });
});
