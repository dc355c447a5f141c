import { describe, expect, it } from 'vitest';
import { designParts } from './designParts.js';
import { boundedRetryRuns } from './retryEnding.js';
import { simulate } from './simulate.js';
import { designToSimulation } from './designToSimulation.js';
import { activeQueuesOf, deadLetteringQueuesOf, traceMessages } from './messageTrace.js';
import { mapReferences } from '../model/references.js';
import type { Design } from '../model/design.js';
import type { QueueDef } from '../model/definitions.js';
import type { FailureModel } from '../model/consumer.js';
import { listTemplates } from '../templates/registry.js';
import { templateDesign } from '../../testing/templateDesign.js';

/** the runs as they were: every publisher simulated on the whole design */
function wholeDesignRuns(design: Design, failure: FailureModel) {
  const workers = design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
  return design.publishers.flatMap((p) => {
    const d = {
      ...design,
      publishers: [p],
      consumers: design.consumers.map((c) =>
        c.behaviour.kind === 'worker' ? { ...c, behaviour: { ...c.behaviour, failure } } : c,
      ),
    };
    const result = simulate({
      ...designToSimulation(d, { messages: 1, failure }),
      maxEvents: 5_000,
      maxTimeMs: 7 * 24 * 3600 * 1000,
    });
    const trace = traceMessages(result, {
      activeQueues: activeQueuesOf(design),
      deadLettering: deadLetteringQueuesOf(design.topology),
      ...(workers.length ? { workConsumers: workers } : {}),
    }).find((t) => t.msgId === `${p.id}-1`);
    return trace ? [{ publisher: p.id, trace, events: result.events.filter((e) => e.msgId === trace.msgId) }] : [];
  });
}

/** several templates side by side, each renamed with its own prefix (unconnected parts) */
function merged(ids: readonly string[]): Design {
  const parts = ids.map((id, i) => {
    const d = mapReferences(templateDesign(id), (r) => `t${i}.${r.name}`);
    return {
      ...d,
      consumers: d.consumers.map((c) => ({ ...c, id: `t${i}.${c.id}` })),
      publishers: d.publishers.map((p) => ({ ...p, id: `t${i}.${p.id}` })),
    };
  });
  return {
    ...parts[0]!,
    topology: {
      exchanges: parts.flatMap((d) => d.topology.exchanges),
      queues: parts.flatMap((d) => d.topology.queues),
      bindings: parts.flatMap((d) => d.topology.bindings),
      policies: parts.flatMap((d) => d.topology.policies ?? []),
    },
    consumers: parts.flatMap((d) => d.consumers),
    publishers: parts.flatMap((d) => d.publishers),
  };
}

describe('designParts', () => {
  const ids = listTemplates().map((t) => t.id);

  it('a publisher part holds its own template only, when templates sit side by side', () => {
    const d = merged(ids);
    const partOf = designParts(d);
    d.publishers.forEach((p, i) => {
      const prefix = p.id.slice(0, p.id.indexOf('.') + 1);
      const part = partOf(i);
      expect(part.publishers).toEqual([p]);
      expect(part.topology.queues.length).toBeGreaterThan(0);
      for (const q of part.topology.queues) expect(q.name.startsWith(prefix), `${p.id}: ${q.name}`).toBe(true);
      for (const c of part.consumers) expect(c.id.startsWith(prefix), `${p.id}: ${c.id}`).toBe(true);
    });
  });

  it('a policy naming a dead-letter exchange takes the part on to that exchange (the parking queue has no DLX of its own)', () => {
    const d = merged(['dlx-ttl-wait-queue', 'dlx-ttl-wait-queue']);
    const withPolicy: Design = {
      ...d,
      topology: {
        ...d.topology,
        policies: [
          { name: 'p', pattern: '^t0\\.orders\\.parking$', definition: { 'dead-letter-exchange': 't1.orders' } },
        ],
      },
    };
    const exchanges = (x: Design) => designParts(x)(0).topology.exchanges.map((e) => e.name);
    expect(exchanges(withPolicy)).toContain('t1.orders');
    expect(exchanges(d).every((n) => n.startsWith('t0.'))).toBe(true);
  });

  it('a vhost import of topic keys per queue: a publisher reaches its own work queue and DLQ, not its team', () => {
    const queues: QueueDef[] = Array.from({ length: 40 }, (_, i): QueueDef[] => [
      {
        name: `w${i}`,
        durable: true,
        auto_delete: false,
        arguments: { 'x-dead-letter-exchange': 'dlx', 'x-dead-letter-routing-key': `w${i}.dlq` },
      },
      { name: `w${i}.dlq`, durable: true, auto_delete: false, arguments: {} },
    ]).flat();
    const d: Design = {
      ...templateDesign('dlx-ttl-wait-queue'),
      topology: {
        exchanges: [
          { name: 'events', type: 'topic', durable: true, auto_delete: false, internal: false, arguments: {} },
          { name: 'dlx', type: 'direct', durable: true, auto_delete: false, internal: false, arguments: {} },
        ],
        queues,
        bindings: Array.from({ length: 40 }, (_, i) => [
          {
            source: 'events',
            destination: `w${i}`,
            destination_type: 'queue' as const,
            routing_key: `t.${i}.#`,
            arguments: {},
          },
          {
            source: 'dlx',
            destination: `w${i}.dlq`,
            destination_type: 'queue' as const,
            routing_key: `w${i}.dlq`,
            arguments: {},
          },
        ]).flat(),
      },
      consumers: [],
      publishers: Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, exchange: 'events', routingKey: `t.${i}.x` })),
    };
    const part = designParts(d)(7);
    expect(part.topology.queues.map((q) => q.name)).toEqual(['w7', 'w7.dlq']);
    expect(part.topology.bindings).toHaveLength(2);
  });

  for (const failure of [{ kind: 'always' }, { kind: 'failFirst', n: 2 }] as const)
    it(`every template's retry runs (${failure.kind}) are the runs on the whole design, alone and side by side`, () => {
      for (const id of ids)
        expect(boundedRetryRuns(templateDesign(id), failure), id).toEqual(wholeDesignRuns(templateDesign(id), failure));
      const all = merged(ids);
      expect(boundedRetryRuns(all, failure)).toEqual(wholeDesignRuns(all, failure));
    });
});
