import { describe, expect, it } from 'vitest';
import type { Design } from './design.js';
import { validateDesign } from './validateDesign.js';
import { buildTemplate, listTemplates } from '../templates/registry.js';

const template = (id: string): Design => {
  const r = buildTemplate(id);
  if (!r.ok) throw new Error(r.errors[0]?.message);
  return r.template.design;
};
const dangling = (d: Design) => validateDesign(d).warnings.filter((w) => w.code === 'dangling-reference');

describe('dangling references', () => {
  it('no template has one', () => {
    for (const t of listTemplates()) expect(dangling(template(t.id)), t.id).toEqual([]);
  });

  it('a counter naming a queue that is not declared is reported at the counter', () => {
    const d = template('dlx-ttl-wait-queue');
    const w = d.consumers[0]!;
    const b = w.behaviour.kind === 'worker' ? w.behaviour : undefined;
    const broken: Design = {
      ...d,
      consumers: [
        {
          ...w,
          behaviour: {
            ...b!,
            onFailure: [
              {
                ...b!.onFailure[0]!,
                when: { kind: 'lt', counter: { kind: 'deathCount', queue: 'gone.q', reason: 'rejected' }, value: 3 },
              },
              ...b!.onFailure.slice(1),
            ],
          },
        },
      ],
    };
    expect(dangling(broken)).toEqual([
      expect.objectContaining({
        path: 'consumers[0].behaviour.onFailure[0].when.counter.queue',
        message: expect.stringContaining('"gone.q"'),
      }),
    ]);
  });

  it('a DLRK or a republish through the default exchange, and a policy DLX, that name nothing', () => {
    const d = template('dlx-ttl-wait-queue');
    const broken: Design = {
      ...d,
      topology: {
        ...d.topology,
        queues: [
          ...d.topology.queues,
          { name: 'extra', arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'nowhere' } },
        ],
        policies: [{ name: 'p', pattern: '^extra$', definition: { 'dead-letter-exchange': 'ghost' } }],
      },
    };
    expect(dangling(broken).map((w) => w.path)).toEqual([
      'topology.queues[3].arguments.x-dead-letter-routing-key',
      'topology.policies[0].definition.dead-letter-exchange',
    ]);
    // the republish to orders.parking via the default exchange, with the parking queue gone
    const noParking: Design = {
      ...d,
      topology: { ...d.topology, queues: d.topology.queues.filter((q) => q.name !== 'orders.parking') },
    };
    expect(dangling(noParking).map((w) => w.path)).toEqual(['consumers[0].behaviour.onFailure[1].then.routingKey']);
  });

  it('survives malformed input', () => {
    expect(() =>
      validateDesign({ topology: { queues: [null] }, consumers: [{ behaviour: 3 }] } as unknown as Design),
    ).not.toThrow();
  });
});
