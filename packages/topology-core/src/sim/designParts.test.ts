import { describe, expect, it } from 'vitest';
import { designParts } from './designParts.js';
import { boundedRetryRuns } from './retryEnding.js';
import { simulate } from './simulate.js';
import { designToSimulation } from './designToSimulation.js';
import { activeQueuesOf, deadLetteringQueuesOf, traceMessages } from './messageTrace.js';
import { mapReferences } from '../model/references.js';
import type { Design } from '../model/design.js';
import type { FailureModel } from '../model/consumer.js';
import { listTemplates } from '../templates/registry.js';
import { templateDesign } from '../../testing/templateDesign.js';

/** the runs as they were: every publisher simulated on the whole design */
function wholeDesignRuns(design: Design, failure: FailureModel) {
  const workers = design.consumers.filter((c) => c.behaviour.kind === 'worker').map((c) => c.id);
  return design.publishers.flatMap((p) => {
    const d = { ...design, publishers: [p], consumers: design.consumers.map((c) => (c.behaviour.kind === 'worker' ? { ...c, behaviour: { ...c.behaviour, failure } } : c)) };
    const result = simulate({ ...designToSimulation(d, { messages: 1, failure }), maxEvents: 5_000, maxTimeMs: 7 * 24 * 3600 * 1000 });
    const trace = traceMessages(result, { activeQueues: activeQueuesOf(design), deadLettering: deadLetteringQueuesOf(design.topology), ...(workers.length ? { workConsumers: workers } : {}) }).find(
      (t) => t.msgId === `${p.id}-1`,
    );
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

  it('a policy naming a dead-letter exchange joins the queues it matches to that exchange', () => {
    const d = merged(['dlx-ttl-wait-queue', 'dlx-ttl-wait-queue']);
    const withPolicy: Design = {
      ...d,
      topology: { ...d.topology, policies: [{ name: 'p', pattern: '^t0\\.', definition: { 'dead-letter-exchange': 't1.orders' } }] },
    };
    const names = (i: number) => designParts(withPolicy)(i).topology.queues.map((q) => q.name);
    expect(names(0).some((n) => n.startsWith('t1.'))).toBe(true);
    expect(designParts(d)(0).topology.queues.every((q) => q.name.startsWith('t0.'))).toBe(true);
  });

  for (const failure of [{ kind: 'always' }, { kind: 'failFirst', n: 2 }] as const)
    it(`every template's retry runs (${failure.kind}) are the runs on the whole design, alone and side by side`, () => {
      for (const id of ids) expect(boundedRetryRuns(templateDesign(id), failure), id).toEqual(wholeDesignRuns(templateDesign(id), failure));
      const all = merged(ids);
      expect(boundedRetryRuns(all, failure)).toEqual(wholeDesignRuns(all, failure));
    });
});
