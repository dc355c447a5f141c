import { describe, expect, it } from 'vitest';
import { A, C } from '../../testing/builders.js';
import { mapRepublishes, republishDestination, republishSites } from './republishes.js';
import { designReferences } from './references.js';
import type { ConsumerAction } from './consumer.js';

const inProcess = (recover: ConsumerAction): ConsumerAction => ({
  kind: 'retryInProcess',
  maxAttempts: 3,
  backoff: { initialMs: 10, multiplier: 2, maxMs: 100 },
  recover,
});

describe('the one republish walk', () => {
  it('finds every republish: script actions, onSuccess, onFailure rules, router rules, an in-process retry’s recover', () => {
    const script = C.script('q', A.ack, A.republish('audit'));
    expect(republishSites(script.behaviour).map((s) => [s.path, s.action.exchange])).toEqual([
      ['behaviour.actions[1]', 'audit'],
    ]);
    const worker = C.worker(
      'q',
      [
        { when: { kind: 'redelivered', is: true }, then: A.republish('', { routingKey: 'parking.q' }) },
        { then: inProcess(A.republish('retry')) },
      ],
      {
        onSuccess: A.republish('done'),
      },
    );
    expect(republishSites(worker.behaviour).map((s) => [s.slot, s.path, s.action.exchange])).toEqual([
      [{ kind: 'onSuccess' }, 'behaviour.onSuccess', 'done'],
      [{ kind: 'rule', index: 0 }, 'behaviour.onFailure[0].then', ''],
      [{ kind: 'rule', index: 1 }, 'behaviour.onFailure[1].then.recover', 'retry'],
    ]);
    const router = { kind: 'router', rules: [{ then: A.republish('x') }] };
    expect(republishSites(router).map((s) => s.path)).toEqual(['behaviour.rules[0].then']);
  });

  it('tells where a republish lands: an exchange, a queue through the default exchange, or not known before run time', () => {
    expect(republishDestination({ kind: 'republish', exchange: 'retry', routingKey: 'k' })).toEqual({
      kind: 'exchange',
      exchange: 'retry',
      routingKey: 'k',
    });
    expect(republishDestination({ kind: 'republish', exchange: '', routingKey: 'parking.q' })).toEqual({
      kind: 'queue',
      queue: 'parking.q',
    });
    expect(republishDestination({ kind: 'republish', exchange: '', routingKeyFromHeader: 'x-q' })).toEqual({
      kind: 'unknown',
      exchange: '',
    });
  });

  it('reads half-written JSON without throwing and keeps what it does not change', () => {
    for (const bad of [
      null,
      'x',
      { kind: 'worker', onFailure: 'oops' },
      { kind: 'worker', onFailure: [null, { then: 3 }] },
      { actions: [{ kind: 'republish' }] },
    ])
      expect(republishSites(bad)).toEqual([]);
    const b = C.worker('q', [{ then: A.reject }]).behaviour;
    expect(mapRepublishes(b, 'behaviour', () => ({ kind: 'reject' }))).toBe(b);
  });

  it('is the walk references and rename go through: a republish in onSuccess and in a recover is a reference', () => {
    const worker = {
      ...C.worker('q', [{ then: inProcess(A.republish('retry')) }], {
        onSuccess: A.republish('', { routingKey: 'parking.q' }),
      }),
      id: 'w',
    };
    const design = {
      topology: {
        exchanges: [{ name: 'retry', type: 'direct' }],
        queues: [{ name: 'q' }, { name: 'parking.q' }],
        bindings: [],
      },
      consumers: [worker],
      publishers: [],
    };
    const refs = designReferences(design).filter((r) => r.role.startsWith('republish'));
    expect(refs.map((r) => `${r.role} ${r.name} ${r.path}`)).toEqual([
      'republish-routing-key parking.q consumers[0].behaviour.onSuccess.routingKey',
      'republish-exchange retry consumers[0].behaviour.onFailure[0].then.recover.exchange',
    ]);
  });
});
