/**
 * `parking=stream`: every template that parks a message offers a stream as the parking place.
 * Simulated on both broker lines, the documented outcome holds and the parked message stays in
 * the stream, at offset 0, after a reader has read it.
 */
import { describe, expect, it } from 'vitest';
import { listTemplates, buildTemplate } from './registry.js';
import { simulate } from '../sim/simulate.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import { activeQueuesOf, traceMessages } from '../sim/messageTrace.js';
import { validateDesign } from '../model/validateDesign.js';
import { lintDesign } from '../lint/lintDesign.js';
import { STREAM_PARKING_NOTE } from './build.js';
import type { Design } from '../model/design.js';

const withParking = listTemplates().filter((t) => t.params.some((p) => p.name === 'parking'));

function build(id: string, params: Record<string, unknown>) {
  const r = buildTemplate(id, params);
  if (!r.ok) throw new Error(`${id} ${JSON.stringify(r.errors)}`);
  return r.template;
}

/** a tool reading the parking stream from offset first, as browse does */
function withReader(d: Design, stream: string): Design {
  return {
    ...d,
    consumers: [
      ...d.consumers,
      {
        id: 'reader',
        queue: stream,
        prefetch: 10,
        streamOffset: 'first',
        behaviour: { kind: 'script', actions: [{ kind: 'ack' }] },
      },
    ],
  };
}

describe('parking=stream', () => {
  it('is offered by the templates that park a message by republishing it (7 of them; a dead letter routed to a stream is dropped by 3.10)', () => {
    expect(withParking.map((t) => t.id).sort()).toEqual([
      'binary-delay-levels',
      'delayed-exchange',
      'dlx-delayed-requeue',
      'dlx-requeue-consumer',
      'dlx-ttl-wait-queue',
      'republish-ttl',
      'ttl-dlq-consumer',
    ]);
  });

  it.each(withParking.map((t) => t.id))(
    '%s: the parking place becomes a durable stream; the default stays a classic queue',
    (id) => {
      const def = build(id, {});
      const s = build(id, { parking: 'stream' });
      const parking = s.documented[0]!.endsIn;
      expect(parking.kind).toBe('queue');
      const name = parking.kind === 'queue' ? parking.queue : '';
      expect(s.design.topology.queues.find((q) => q.name === name)).toMatchObject({
        durable: true,
        auto_delete: false,
        arguments: { 'x-queue-type': 'stream' },
      });
      expect(def.design.topology.queues.find((q) => q.name === name)?.arguments?.['x-queue-type']).toBeUndefined();
      expect(s.explanation).toContain(STREAM_PARKING_NOTE);
      expect(def.explanation).not.toContain(STREAM_PARKING_NOTE);
      expect(validateDesign(s.design).errors).toEqual([]);
      expect(lintDesign(s.design).filter((f) => f.severity === 'error')).toEqual([]);
    },
  );

  // on each line where the queue variant parks the message (the 3.10 templates that count a client-set x-death loop on 4.x)
  const ends = (id: string, profile: '3.10' | '4.3'): boolean => {
    const t = build(id, {});
    const doc = t.documented.find((d) => d.failure.kind === 'always')!;
    const design = { ...t.design, profile };
    const result = simulate(designToSimulation(design, { messages: 1, failure: doc.failure, seed: 1 }));
    const [tr] = traceMessages(result, { workConsumers: t.workConsumers, activeQueues: activeQueuesOf(design) });
    return tr!.endsIn.kind === 'queue';
  };
  const lines = withParking.flatMap((t) =>
    (['3.10', '4.3'] as const).filter((profile) => ends(t.id, profile)).map((profile) => [t.id, profile] as const),
  );

  it('parks on 3.10 for every template, on 4.3 for those that do not count a client-set x-death', () => {
    expect(lines.filter(([, p]) => p === '3.10')).toHaveLength(withParking.length);
    expect(lines.filter(([, p]) => p === '4.3').length).toBeGreaterThanOrEqual(4);
  });

  it.each(lines)(
    '%s on %s: an always-failing message ends parked in the stream, which keeps it after a reader read it',
    (id, profile) => {
      const t = build(id, { parking: 'stream' });
      const doc = t.documented.find((d) => d.failure.kind === 'always')!;
      const stream = doc.endsIn.kind === 'queue' ? doc.endsIn.queue : '';
      const design = { ...withReader(t.design, stream), profile };
      const input = designToSimulation(design, { messages: 1, failure: doc.failure, seed: 1 });
      const result = simulate({ ...input, startConsumers: 'before' });
      const [tr] = traceMessages(result, { workConsumers: t.workConsumers, activeQueues: activeQueuesOf(design) });
      expect({ attempts: tr!.attempts, endsIn: tr!.endsIn }).toEqual({
        attempts: doc.attempts,
        endsIn: { kind: 'queue', queue: stream },
      });
      expect(
        result.events.filter((e) => e.kind === 'delivered' && e.queue === stream && e.consumer === 'reader'),
      ).toHaveLength(1);
      expect(result.final[stream]?.map((m) => m.headers['x-stream-offset'])).toEqual([0]);
    },
  );
});
