import { describe, expect, it } from 'vitest';
import { Renamer, renameDesign, resolveTarget, slugify } from './deployTarget.js';
import { design, bindQ, retryLoopDesign } from '../http/testing.js';

describe('deploy target and renaming', () => {
  it('defaults to a prefix from the design name; an explicit vhost drops it', () => {
    expect(resolveTarget('Orders: Retry v2!', {})).toEqual({ vhost: '/', prefix: 'rs.orders-retry-v2.' });
    expect(resolveTarget('x', { vhost: 'mine' })).toEqual({ vhost: 'mine', prefix: '' });
    expect(resolveTarget('x', { prefix: 'p.' })).toEqual({ vhost: '/', prefix: 'p.' });
    expect(slugify('!!!')).toBe('design');
  });

  it('renames every reference: bindings, DLX, alternate exchange, DLRK through the default exchange, consumers, publishers', () => {
    const d = design({
      exchanges: [
        { name: 'in', type: 'direct', arguments: { 'alternate-exchange': 'ae' } },
        { name: 'ae', type: 'fanout' },
      ],
      queues: [
        { name: 'work', arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'wait' } },
        {
          name: 'wait',
          arguments: { 'x-dead-letter-exchange': 'in', 'x-dead-letter-routing-key': 'job', 'x-message-ttl': 5 },
        },
      ],
      bindings: [bindQ('in', 'work', 'job')],
      consumers: [
        {
          id: 'c',
          queue: 'work',
          behaviour: {
            kind: 'worker',
            onFailure: [
              {
                when: { kind: 'lt', counter: { kind: 'deathCount', queue: 'work' }, value: 3 },
                then: { kind: 'republish', exchange: '', routingKey: 'wait' },
              },
            ],
          },
        },
      ],
      publishers: [{ id: 'p', exchange: '', routingKey: 'work' }],
    });
    const r = renameDesign(d, new Renamer('pre.'));
    expect(r.topology.exchanges.map((x) => [x.name, x.arguments])).toEqual([
      ['pre.in', { 'alternate-exchange': 'pre.ae' }],
      ['pre.ae', undefined],
    ]);
    expect(r.topology.queues[0]!.arguments).toEqual({
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': 'pre.wait',
    });
    // a DLRK through a named exchange is a routing key, not a queue name
    expect(r.topology.queues[1]!.arguments).toEqual({
      'x-dead-letter-exchange': 'pre.in',
      'x-dead-letter-routing-key': 'job',
      'x-message-ttl': 5,
    });
    expect(r.topology.bindings[0]).toMatchObject({ source: 'pre.in', destination: 'pre.work', routing_key: 'job' });
    const b = r.consumers[0]!.behaviour;
    expect(r.consumers[0]!.queue).toBe('pre.work');
    expect(b.kind === 'worker' && b.onFailure[0]).toEqual({
      when: { kind: 'lt', counter: { kind: 'deathCount', queue: 'pre.work' }, value: 3 },
      then: { kind: 'republish', exchange: '', routingKey: 'pre.wait' },
    });
    expect(r.publishers[0]).toMatchObject({ exchange: '', routingKey: 'pre.work' });
    const back = new Renamer('pre.');
    expect(back.back('pre.work')).toBe('work');
    expect(back.back('other')).toBe('other');
    expect(back.name('')).toBe('');
  });

  it('prefixes what the core reference walker finds: policies naming one queue, their DLX, radlx headers', () => {
    const base = design({
      exchanges: [{ name: 'dlx', type: 'direct' }],
      queues: [{ name: 'work' }],
      bindings: [bindQ('dlx', 'work', 'work')],
      publishers: [
        { id: 'p', exchange: 'dlx', routingKey: 'work', properties: { headers: { 'radlx-track-queue': 'work' } } },
      ],
    });
    const d = {
      ...base,
      topology: {
        ...base.topology,
        policies: [
          {
            name: 'p',
            pattern: '^work$',
            'apply-to': 'queues' as const,
            definition: { 'dead-letter-exchange': 'dlx' },
          },
        ],
      },
    };
    const r = renameDesign(d, new Renamer('pre.'));
    expect(r.topology.policies).toEqual([
      {
        name: 'pre.p',
        pattern: '^pre\\.(?:work$)',
        'apply-to': 'queues',
        definition: { 'dead-letter-exchange': 'pre.dlx' },
      },
    ]);
    // routing keys are not names on the broker: the binding key and the publisher's key stay
    expect(r.topology.bindings[0]).toMatchObject({ source: 'pre.dlx', destination: 'pre.work', routing_key: 'work' });
    expect(r.publishers[0]).toEqual({
      id: 'p',
      exchange: 'pre.dlx',
      routingKey: 'work',
      properties: { headers: { 'radlx-track-queue': 'pre.work' } },
    });
  });

  it('an empty prefix changes nothing', () => {
    const d = retryLoopDesign('x');
    expect(renameDesign(d, new Renamer(''))).toEqual(d);
  });
});
