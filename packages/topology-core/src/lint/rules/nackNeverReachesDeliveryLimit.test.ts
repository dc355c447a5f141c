import { describe, expect, it } from 'vitest';
import type { Design } from '../../model/design.js';
import type { AmqpTable } from '../../model/definitions.js';
import type { ConsumerAction, ConsumerSpec } from '../../model/consumer.js';
import { lintDesign } from '../lintDesign.js';
import { simulate } from '../../sim/simulate.js';
import { designToSimulation } from '../../sim/designToSimulation.js';

// ../shared/reference/rabbitmq-4.3.md: `quorum-delivery-limit` (nack with requeue, limit 2) is
// redelivered forever on 4.3.6; docs quorum-queues "When is delivery count incremented?"
const DELAYED_RETRY = { 'x-delayed-retry-type': 'all', 'x-delayed-retry-min': 200 };

interface Opts {
  readonly profile?: '3.10' | '4.x' | '4.3';
  /** x-delivery-limit; null: none given */
  readonly limit?: number | null;
  /** x-delayed-retry-* (the design is then simulated and linted as 4.3); default true */
  readonly delayedRetry?: boolean;
  readonly classic?: boolean;
  readonly onFailure?: ConsumerAction;
  readonly consumer?: ConsumerSpec;
}

function design(o: Opts = {}): Design {
  const qArgs: AmqpTable = {
    'x-queue-type': o.classic ? 'classic' : 'quorum',
    'x-dead-letter-exchange': 'dlx',
    ...(o.limit !== null ? { 'x-delivery-limit': o.limit ?? 2 } : {}),
    ...((o.delayedRetry ?? true) ? DELAYED_RETRY : {}),
  };
  return {
    format: 'retry-studio/design',
    version: 1,
    name: 't',
    profile: o.profile ?? '4.x',
    topology: {
      exchanges: [{ name: 'dlx', type: 'fanout' }],
      queues: [
        { name: 'qq', durable: true, arguments: qArgs },
        { name: 'parked', durable: true, arguments: {} },
      ],
      bindings: [{ source: 'dlx', destination: 'parked', destination_type: 'queue', routing_key: '' }],
    },
    consumers: [
      o.consumer ?? {
        id: 'w',
        queue: 'qq',
        behaviour: {
          kind: 'worker',
          failure: { kind: 'always' },
          onFailure: [{ then: o.onFailure ?? { kind: 'requeue' } }],
        },
      },
    ],
    publishers: [{ id: 'p', exchange: '', routingKey: 'qq' }],
  };
}
const findings = (d: Design) => lintDesign(d).filter((f) => f.id === 'nack-never-reaches-delivery-limit');

describe('nack-never-reaches-delivery-limit', () => {
  it('4.3 design (x-delayed-retry-*): a nack-requeue worker on a quorum queue with a limit is an error that says why', () => {
    const [f, ...rest] = findings(design());
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: 'error', objects: ['consumer:w', 'queue:qq'] });
    expect(f?.message).toMatch(/nack no longer counts toward the quorum delivery limit 2.*redelivered forever/);
    // and the simulator under the same profile predicts exactly that: it never settles
    const r = simulate({ ...designToSimulation(design(), { messages: 1 }), maxEvents: 5_000 });
    expect(r.truncated).toBe(true);
    expect(r.events.some((e) => e.kind === 'dead-lettered')).toBe(false);
  });

  it('basic.reject with requeue counts: no finding, and the simulated message reaches the limit', () => {
    const d = design({ onFailure: { kind: 'requeue', via: 'reject' } });
    expect(findings(d)).toEqual([]);
    const r = simulate({ ...designToSimulation(d, { messages: 1 }), maxEvents: 5_000 });
    expect(
      r.events.filter((e) => e.kind === 'dead-lettered').map((e) => (e.kind === 'dead-lettered' ? e.reason : '')),
    ).toEqual(['delivery_limit']);
  });

  it('the 4.x default limit (20) counts as a limit; no limit (-1) is another rule', () => {
    expect(findings(design({ limit: null }))[0]?.message).toMatch(/delivery limit 20/);
    expect(findings(design({ limit: -1 }))).toEqual([]);
  });

  it('a bounded nack (only while not redelivered) does not rely on the limit', () => {
    const consumer: ConsumerSpec = {
      id: 'w',
      queue: 'qq',
      behaviour: {
        kind: 'worker',
        failure: { kind: 'always' },
        onFailure: [
          { when: { kind: 'redelivered', is: false }, then: { kind: 'requeue' } },
          { then: { kind: 'reject' } },
        ],
      },
    };
    expect(findings(design({ consumer }))).toEqual([]);
  });

  it('a design with the 4.3 profile is linted as 4.3 without any 4.3-only argument', () => {
    expect(findings(design({ profile: '4.3', delayedRetry: false })).map((f) => f.severity)).toEqual(['error']);
  });

  it('4.0-4.2 design: an info about the upgrade; 3.10 and classic queues: nothing', () => {
    expect(findings(design({ delayedRetry: false })).map((f) => f.severity)).toEqual(['info']);
    expect(findings(design({ profile: '3.10' }))).toEqual([]);
    expect(findings(design({ classic: true, delayedRetry: false }))).toEqual([]);
  });

  it('a batch consumer that nacks its batch with multiple relies on the limit too (a batch size is no bound)', () => {
    const consumer: ConsumerSpec = {
      id: 'w',
      queue: 'qq',
      prefetch: 3,
      behaviour: {
        kind: 'router',
        rules: [
          { when: { kind: 'lt', counter: { kind: 'held' }, value: 3 }, then: { kind: 'hold' } },
          { then: { kind: 'requeue', multiple: true } },
        ],
      },
    };
    const [f] = findings(design({ consumer }));
    expect(f?.severity).toBe('error');
    expect(f?.message).toMatch(/with basic\.nack multiple: on RabbitMQ 4\.3/);
    // the simulator agrees: three messages go round forever, none dead-letters
    const r = simulate({ ...designToSimulation(design({ consumer }), { messages: 3 }), maxEvents: 5_000 });
    expect(r.truncated).toBe(true);
    expect(r.events.some((e) => e.kind === 'dead-lettered')).toBe(false);
    // on 3.10 every nack counts: no finding, and the three reach the limit
    const on310 = design({ consumer, profile: '3.10', delayedRetry: false });
    expect(findings(on310)).toEqual([]);
    const r310 = simulate({ ...designToSimulation(on310, { messages: 3 }), maxEvents: 5_000 });
    expect(
      r310.events.filter((e) => e.kind === 'dead-lettered').map((e) => (e.kind === 'dead-lettered' ? e.reason : '')),
    ).toEqual(['delivery_limit', 'delivery_limit', 'delivery_limit']);
  });
});
