/**
 * Where the broker decides: each corpus vhost loaded into the real brokers (3.10.8 and 4.3.6,
 * a throwaway vhost each, deleted after) through POST /api/definitions/VHOST. What the broker
 * did is the expected result: `broker-recorded.json` (RECORD_CORPUS=1 rewrites it). The test
 * checks the broker still does that, that our reading of the file agrees with what it holds
 * (queues, exchanges, bindings, which policy each queue got, what 4.x refuses), and, for a
 * handful, that `import-broker` of the loaded vhost gives the same topology as importing the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  choosePolicy,
  POLICY_APPLY_TO_3_10,
  policyTargetOf,
  refusedOmissions,
  refusedPolicyKeys,
  type Design,
  type Topology,
} from '@retry-studio/topology-core/model';
import { ManagementClient, parseAmqpUrl } from '../../broker/index.js';
import { TEST_BROKERS, type TestBroker } from '../../testing/testBrokers.js';
import { operateTarget } from '../../operate/operateTarget.js';
import { importBroker } from '../../operate/importBroker.js';
import { EXPECTED } from './expectations.js';
import { CORPUS_DIR as DIR, corpusDefinitions, readCorpusFile } from './corpusFiles.js';

const RECORDED = path.join(DIR, 'broker-recorded.json');
const RECORD = process.env.RECORD_CORPUS === '1';
/** throwaway vhosts are named PREFIX-PID-RANDOM (a helper's runs use its own prefix) */
const VHOST_PREFIX = process.env.RETRY_STUDIO_TEST_VHOST_PREFIX ?? 'rs-corpus';

interface BrokerOutcome {
  readonly accepted: boolean;
  /** the start of the broker's reason when it refused the file */
  readonly refused?: string;
  readonly queues: readonly string[];
  readonly exchanges: number;
  /** absent for a load the broker refused: 4.3.6 answers before its last bindings are in place (21 to 26 of 26 in three runs) */
  readonly bindings?: number;
  /** queue -> the policy the broker applied (only for vhosts whose policies decide something) */
  readonly policies?: Readonly<Record<string, string | null>>;
}
type Recording = Record<string, Record<string, Partial<Record<TestBroker['name'], BrokerOutcome>>>>;

/** vhosts whose policy outcome is recorded (the others are checked for acceptance and objects). */
const POLICY_FILES = new Set(['alphagov-publishing-rendered.json', 'screwdriver-buildcluster-retry.json']);
/** vhosts loaded back through import-broker: the same topology as importing the file */
const ROUND_TRIP = new Set([
  'iqkv-microservices-platform.json',
  'rabbitmq-case9a.json',
  'rabbitmq-case13.json',
  'screwdriver-buildcluster-retry.json',
  'localega-tools-two-vhosts.json',
  'rabbitmq-stream-dotnet-super-stream.json',
  'cluster-operator-import-definitions.json',
  // a stream, a quorum and a classic queue with a per-type policy (4.3.6 only: 3.10.8 refuses the file)
  'rabbitmqadmin-ng-vhost-export-4.0.json',
  // issue 38's fourth batch: the default exchange as a DLX, an alternate exchange by policy and streams, and what
  // we read from operator resources (a SuperStream's exchange, streams and partition bindings)
  'ons-census-rm-delayed-redelivery.json',
  'neicnordic-sda-alternate-exchange-streams.json',
  'knative-predeclared-resources.yaml',
  'topology-operator-superstream.yaml',
]);

// every file we read, queues or not: a vhost of policies only (RabbitMQ's case1, the prometheus overview file) is
// refused or loaded as a whole too (4.x refuses classic-mirroring policies)
const loadable = Object.entries(EXPECTED)
  .filter(([, e]) => e.vhosts && !e.brokerRefuses)
  .map(([f]) => f);

/** The file's objects of one vhost (undefined: a per-vhost file, no vhost fields), as a per-vhost definitions document. */
function vhostPart(doc: Record<string, unknown>, vhost: string | undefined): Record<string, unknown[]> {
  const part: Record<string, unknown[]> = {};
  for (const k of ['queues', 'exchanges', 'bindings', 'policies'])
    part[k] = ((doc[k] as Record<string, unknown>[] | undefined) ?? [])
      .filter((o) => o.vhost === vhost)
      .map(({ vhost: _v, ...o }) => o);
  return part;
}

async function load(
  broker: TestBroker,
  file: string,
  vhost: string | undefined,
  withPolicies: boolean,
  roundTrip?: (d: Design) => void,
): Promise<BrokerOutcome> {
  const url = parseAmqpUrl(broker.amqpUrl);
  const mgmt = new ManagementClient(url, { baseUrl: broker.managementUrl, timeoutMs: 20_000 });
  const tv = `${VHOST_PREFIX}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  await mgmt.createVhost(tv);
  try {
    // what the file declares (a YAML file's: the definitions its resources and embedded JSON make)
    const doc = await corpusDefinitions(file);
    let refused: string | undefined;
    await mgmt.loadDefinitions(tv, vhostPart(doc, vhost)).catch((e: Error) => {
      refused = e.message
        .replace(/^.*failed with \d+: /s, '')
        .split('\n')[0]!
        .slice(0, 60);
    });
    let queues = await mgmt.listQueues(tv);
    if (withPolicies && !refused)
      // a queue's policy appears with its first statistics (every few seconds)
      for (let i = 0; i < 40 && !queues.every((q) => 'policy' in q || 'effective_policy_definition' in q); i++) {
        await new Promise((r) => setTimeout(r, 500));
        queues = await mgmt.listQueues(tv);
      }
    const exchanges = (await mgmt.listExchanges(tv)).filter((x) => x.name !== '' && !x.name.startsWith('amq.'));
    const bindings = (await mgmt.listBindings(tv)).filter((b) => b.source !== '');
    if (roundTrip && !refused) {
      const r = await importBroker(await operateTarget(url, { vhost: tv, managementUrl: broker.managementUrl }));
      if (!r.ok) throw new Error(`import-broker: ${JSON.stringify(r.errors)}`);
      roundTrip(r.design);
    }
    return {
      accepted: refused === undefined,
      ...(refused !== undefined ? { refused } : {}),
      queues: queues.map((q) => q.name).sort(),
      exchanges: exchanges.length,
      ...(refused === undefined ? { bindings: bindings.length } : {}),
      ...(withPolicies && !refused
        ? { policies: Object.fromEntries(queues.map((q) => [q.name, (q.policy as string | undefined) || null]).sort()) }
        : {}),
    };
  } finally {
    await mgmt.deleteVhost(tv);
  }
}

/** A topology in a comparable form: sorted, defaults written out. */
function canonical(t: Topology): unknown {
  const sortBy = <T>(xs: readonly T[], key: (x: T) => string) => [...xs].sort((a, b) => key(a).localeCompare(key(b)));
  return {
    exchanges: sortBy(t.exchanges, (x) => x.name).map((x) => ({
      name: x.name,
      type: x.type,
      durable: x.durable ?? true,
      auto_delete: x.auto_delete ?? false,
      internal: x.internal ?? false,
      arguments: x.arguments ?? {},
    })),
    // 4.x writes x-queue-type: classic on every classic queue it lists: the default, the same queue
    queues: sortBy(t.queues, (q) => q.name).map((q) => {
      const { 'x-queue-type': type, ...rest } = q.arguments ?? {};
      return {
        name: q.name,
        durable: q.durable ?? true,
        auto_delete: q.auto_delete ?? false,
        arguments: type === undefined || type === 'classic' ? rest : { ...rest, 'x-queue-type': type },
      };
    }),
    bindings: sortBy(t.bindings, (b) => JSON.stringify([b.source, b.destination, b.routing_key])).map((b) => ({
      ...b,
      arguments: b.arguments ?? {},
    })),
    policies: sortBy(t.policies ?? [], (p) => p.name).map((p) => ({
      name: p.name,
      pattern: p.pattern,
      'apply-to': p['apply-to'] ?? 'all',
      priority: p.priority ?? 0,
      definition: p.definition,
    })),
  };
}

// RECORD_CORPUS=1 rewrites the entries of the files it ran and keeps the others (a run filtered to new files adds theirs)
const recorded: Recording = JSON.parse(readFileSync(RECORDED, 'utf8')) as Recording;
const fresh: Recording = {};

describe.each(TEST_BROKERS)('corpus on RabbitMQ $name', (broker) => {
  it.each(loadable)('%s: the broker holds what we read', { timeout: 120_000 }, async (file) => {
    const r = await readCorpusFile(file);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    for (const d of r.docs) {
      // a per-vhost file (no vhost fields) is recorded under "(none)", as corpus.test.ts names it
      const vhost = d.vhost ?? '(none)';
      const ours = d.design.topology;
      let roundTripped: Design | undefined;
      const got = await load(
        broker,
        file,
        d.vhost,
        POLICY_FILES.has(file),
        ROUND_TRIP.has(file) ? (x) => (roundTripped = x) : undefined,
      );
      // where two policies tie, the broker's pick differs from one load to the next (seen on 3.10.8):
      // the recording says "one of" them, and the pick is checked to be one of them below
      const tieAware: BrokerOutcome = {
        ...got,
        ...(got.policies
          ? {
              policies: Object.fromEntries(
                Object.entries(got.policies).map(([queue, applied]) => {
                  const q = ours.queues.find((x) => x.name === queue);
                  const c = choosePolicy(ours.policies, queue, policyTargetOf(q?.arguments?.['x-queue-type']));
                  return [
                    queue,
                    c.tiedWith.length > 0
                      ? `one of ${[c.policy!, ...c.tiedWith]
                          .map((p) => p.name)
                          .sort()
                          .join(', ')}`
                      : applied,
                  ];
                }),
              ),
            }
          : {}),
      };
      ((fresh[file] ??= {})[vhost] ??= {})[broker.name] = tieAware;
      if (!RECORD)
        expect(tieAware, `${file} ${vhost} on ${broker.name}: not what was recorded`).toEqual(
          recorded[file]?.[vhost]?.[broker.name],
        );
      // 4.x refuses a file whose policies carry keys it no longer knows (classic mirroring), 3.10 one whose policy
      // applies to one queue type (classic_queues, ...: 3.12+): we say which
      const refusedKeys = [
        ...(ours.policies ?? []).flatMap((p) =>
          refusedPolicyKeys(p.definition, broker.name === '4.3' ? '4.3' : '3.10'),
        ),
        ...(broker.name === '3.10'
          ? (ours.policies ?? [])
              .filter((p) => p['apply-to'] !== undefined && !POLICY_APPLY_TO_3_10.includes(p['apply-to']))
              .map((p) => `apply-to ${p['apply-to']}`)
          : []),
        // a binding to an end the file does not declare (a queue it leaves out, amq.rabbitmq.log): 3.10.8 skips the
        // binding, 4.3.6 answers 400 resources_missing (io/brokerObjects.ts, measured)
        ...(broker.name === '4.3'
          ? (d.skippedBindings ?? []).map(
              (b) => `binding ${b.source} -> ${b.destination} (${b.missing.name} undeclared)`,
            )
          : []),
        // a queue or exchange field the line cannot import without (model/definitionFields.ts, measured)
        ...(refusedOmissions(d.omittedFields ?? [], broker.name)?.refused ?? []).map(
          (o) => `${o.kind} ${o.name} without ${o.field}`,
        ),
      ];
      expect(got.accepted, `${file}: refused keys we know of: ${refusedKeys.join(', ')}`).toBe(
        refusedKeys.length === 0,
      );
      if (!got.accepted) continue;
      // what the broker holds is what we read (server-named and exclusive queues are not imported by either)
      expect(got.queues).toEqual(ours.queues.map((q) => q.name).sort());
      expect(got.exchanges).toBe(ours.exchanges.length);
      expect(got.bindings).toBe(
        new Set(
          ours.bindings.map((b) =>
            JSON.stringify([b.source, b.destination, b.destination_type, b.routing_key, b.arguments ?? {}]),
          ),
        ).size,
      );
      // the policy the broker applied is the one we choose, or, where two tie, one of the tied
      for (const [queue, applied] of Object.entries(got.policies ?? {})) {
        const q = ours.queues.find((x) => x.name === queue)!;
        const c = choosePolicy(ours.policies, queue, policyTargetOf(q.arguments?.['x-queue-type']));
        const candidates = [c.policy, ...c.tiedWith].map((p) => p?.name ?? null);
        expect(candidates, `${file} ${queue}: the broker applied ${applied}`).toContain(applied);
        if (c.tiedWith.length === 0) expect(applied).toBe(c.policy?.name ?? null);
      }
      if (roundTripped)
        expect(
          canonical(roundTripped.topology),
          `${file} ${vhost}: import-broker differs from importing the file`,
        ).toEqual(canonical(ours));
    }
  });
});

describe('recording', () => {
  it.runIf(RECORD)('writes broker-recorded.json', () => {
    writeFileSync(RECORDED, JSON.stringify({ ...recorded, ...fresh }, null, 1) + '\n');
  });
});
