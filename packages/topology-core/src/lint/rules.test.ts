import { describe, expect, it } from 'vitest';
import type { Design } from '../model/design.js';
import type { AmqpTable, Topology } from '../model/definitions.js';
import type { ConsumerSpec, Rule } from '../model/consumer.js';
import type { PublisherSpec } from '../model/publisher.js';
import { lintDesign, lintTopology } from './lintDesign.js';
import { LINT_RULE_IDS } from './rules.js';
import { buildTemplate } from '../templates/registry.js';

/** Fixture builder: exchange `work` (direct) -> queue `q`; optional extras. */
function design(
  o: {
    qArgs?: AmqpTable;
    extra?: Partial<Topology>;
    consumers?: ConsumerSpec[];
    publishers?: PublisherSpec[];
    profile?: '3.10' | '4.x';
  } = {},
): Design {
  return {
    format: 'retry-studio/design',
    version: 1,
    name: 't',
    ...(o.profile ? { profile: o.profile } : {}),
    topology: {
      exchanges: [{ name: 'work', type: 'direct' }, ...(o.extra?.exchanges ?? [])],
      queues: [{ name: 'q', durable: true, arguments: o.qArgs ?? {} }, ...(o.extra?.queues ?? [])],
      bindings: [
        { source: 'work', destination: 'q', destination_type: 'queue', routing_key: 'task' },
        ...(o.extra?.bindings ?? []),
      ],
      ...(o.extra?.policies ? { policies: o.extra.policies } : {}),
    },
    consumers: o.consumers ?? [],
    publishers: o.publishers ?? [],
  };
}
const worker = (onFailure: Rule[], queue = 'q', id = 'w'): ConsumerSpec => ({
  id,
  queue,
  behaviour: { kind: 'worker', onFailure },
});
const ids = (d: Design, opts = {}) => lintDesign(d, opts).map((f) => f.id);

describe('lint rules', () => {
  it('has the 15 ids of issue 3', () => {
    for (const id of [
      'requeue-without-limit',
      'dead-letter-unroutable',
      'dlx-missing',
      'dlx-fanout-redelivers-to-all',
      'per-message-ttl-head-of-line',
      'automatic-cycle-dropped',
      'retry-without-max',
      'plugin-required',
      'delayed-exchange-mandatory',
      'delay-out-of-range',
      'quorum-default-delivery-limit',
      'dl-routing-key-without-dlx',
      'overflow-drops-silently',
      'large-exception-headers',
      'immutable-argument-change',
    ])
      expect(LINT_RULE_IDS).toContain(id);
  });

  it('findings carry severity, objects and a fix', () => {
    const f = lintDesign(design({ consumers: [worker([{ then: { kind: 'requeue' } }])] }))[0]!;
    expect(f).toMatchObject({ id: 'requeue-without-limit', severity: 'error', objects: ['consumer:w', 'queue:q'] });
    expect(f.fix.length).toBeGreaterThan(10);
  });

  describe('requeue-without-limit', () => {
    it('triggers on an unconditional requeue', () =>
      expect(ids(design({ consumers: [worker([{ then: { kind: 'requeue' } }])] }))).toContain('requeue-without-limit'));
    it('not when guarded by redelivered', () =>
      expect(
        ids(
          design({
            consumers: [
              worker([
                { when: { kind: 'redelivered', is: false }, then: { kind: 'requeue' } },
                { then: { kind: 'reject' } },
              ]),
            ],
          }),
        ),
      ).not.toContain('requeue-without-limit'));
    it('not on a quorum queue with a delivery limit', () =>
      expect(
        ids(
          design({
            qArgs: { 'x-queue-type': 'quorum', 'x-delivery-limit': 3 },
            consumers: [worker([{ then: { kind: 'requeue' } }])],
          }),
        ),
      ).not.toContain('requeue-without-limit'));
  });

  describe('dead-letter-unroutable', () => {
    const dl = (key: string) =>
      design({
        qArgs: { 'x-dead-letter-exchange': 'dlx', 'x-dead-letter-routing-key': key },
        extra: {
          exchanges: [{ name: 'dlx', type: 'direct' }],
          queues: [{ name: 'dead' }],
          bindings: [{ source: 'dlx', destination: 'dead', destination_type: 'queue', routing_key: 'dead' }],
        },
      });
    it('triggers when no binding takes the key', () => expect(ids(dl('nope'))).toContain('dead-letter-unroutable'));
    it('not when a binding matches', () => expect(ids(dl('dead'))).not.toContain('dead-letter-unroutable'));
  });

  describe('dlx-missing', () => {
    it('triggers on an undeclared DLX', () =>
      expect(ids(design({ qArgs: { 'x-dead-letter-exchange': 'ghost' } }))).toContain('dlx-missing'));
    it('not for the default exchange', () =>
      expect(ids(design({ qArgs: { 'x-dead-letter-exchange': '' } }))).not.toContain('dlx-missing'));
    it('sees a DLX set by policy', () =>
      expect(
        ids(
          design({
            extra: { policies: [{ name: 'p', pattern: '^q$', definition: { 'dead-letter-exchange': 'ghost' } }] },
          }),
        ),
      ).toContain('dlx-missing'));
  });

  describe('dlx-fanout-redelivers-to-all', () => {
    const fan = (n: number) =>
      design({
        qArgs: { 'x-dead-letter-exchange': 'fan' },
        extra: {
          exchanges: [{ name: 'fan', type: 'fanout' }],
          queues: Array.from({ length: n }, (_, i) => ({ name: `s${i}` })),
          bindings: Array.from({ length: n }, (_, i) => ({
            source: 'fan',
            destination: `s${i}`,
            destination_type: 'queue' as const,
            routing_key: '',
          })),
        },
      });
    it('triggers with two queues on the fanout DLX', () =>
      expect(ids(fan(2))).toContain('dlx-fanout-redelivers-to-all'));
    it('not with one', () => expect(ids(fan(1))).not.toContain('dlx-fanout-redelivers-to-all'));
  });

  describe('per-message-ttl-head-of-line', () => {
    it('triggers on a growing expiration into one wait queue', () => {
      const r = buildTemplate('republish-ttl');
      expect(r.ok && lintDesign(r.template.design).map((f) => f.id)).toContain('per-message-ttl-head-of-line');
    });
    it('not for queue-level TTL tiers', () => {
      const r = buildTemplate('chained-ttl');
      expect(r.ok && lintDesign(r.template.design).map((f) => f.id)).not.toContain('per-message-ttl-head-of-line');
    });
  });

  describe('automatic-cycle-dropped', () => {
    const cyc = (ttlBoth: boolean) =>
      design({
        qArgs: ttlBoth
          ? { 'x-message-ttl': 10, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'w2' }
          : { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'w2' },
        extra: {
          queues: [
            {
              name: 'w2',
              arguments: { 'x-message-ttl': 10, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': 'q' },
            },
          ],
        },
      });
    it('triggers on a TTL ping-pong (definitions: warning)', () => {
      const f = lintDesign(cyc(true)).find((x) => x.id === 'automatic-cycle-dropped');
      expect(f?.severity).toBe('warning');
    });
    it('not when one queue of the loop only dead-letters by rejection', () =>
      expect(ids(cyc(false))).not.toContain('automatic-cycle-dropped'));
  });

  describe('retry-without-max', () => {
    const loop = (rules: Rule[]) =>
      design({
        qArgs: { 'x-dead-letter-exchange': 'retry', 'x-dead-letter-routing-key': 'q' },
        extra: {
          exchanges: [
            { name: 'retry', type: 'direct' },
            { name: 'back', type: 'direct' },
          ],
          queues: [
            { name: 'wait', arguments: { 'x-message-ttl': 100, 'x-dead-letter-exchange': 'back' } },
            { name: 'parking' },
          ],
          bindings: [
            { source: 'retry', destination: 'wait', destination_type: 'queue', routing_key: 'q' },
            { source: 'back', destination: 'q', destination_type: 'queue', routing_key: 'q' },
          ],
        },
        consumers: [worker(rules)],
      });
    it('triggers when a reject loop has no count', () =>
      expect(ids(loop([{ then: { kind: 'reject' } }]))).toContain('retry-without-max'));
    it('not with an x-death limit', () =>
      expect(
        ids(
          loop([
            {
              when: { kind: 'lt', counter: { kind: 'deathCount', queue: 'q', reason: 'rejected' }, value: 3 },
              then: { kind: 'reject' },
            },
            { then: { kind: 'republish', exchange: '', routingKey: 'parking' } },
          ]),
        ),
      ).not.toContain('retry-without-max'));
  });

  describe('retry-without-max with radlx', () => {
    const lintOf = (id: string) => {
      const r = buildTemplate(id);
      return r.ok ? lintDesign(r.template.design).map((f) => f.id) : [];
    };
    it('triggers when the dead-letter queue cycles back (radlx-cycles never gives up)', () =>
      expect(lintOf('radlx-cycles')).toContain('retry-without-max'));
    it('not when radlx ends in a plain DLQ', () => expect(lintOf('radlx-simple')).not.toContain('retry-without-max'));
  });

  describe('plugin-required', () => {
    it('triggers for a delayed exchange', () =>
      expect(
        ids(
          design({
            extra: { exchanges: [{ name: 'd', type: 'x-delayed-message', arguments: { 'x-delayed-type': 'direct' } }] },
          }),
        ),
      ).toContain('plugin-required'));
    it('radlx on 3.10 is an error', () =>
      expect(
        lintDesign(design({ extra: { exchanges: [{ name: 'r', type: 'radlx' }] } })).find(
          (f) => f.id === 'plugin-required',
        )?.severity,
      ).toBe('error'));
    it('not for built-in types', () => expect(ids(design())).not.toContain('plugin-required'));
    it('x-delayed-retry-* warns below 4.3, not on the 4.3 profile the template opens under', () => {
      const r = buildTemplate('quorum-delayed-retry', {});
      if (!r.ok) throw new Error('template');
      expect(r.template.design.profile).toBe('4.3');
      expect(ids(r.template.design)).not.toContain('plugin-required');
      expect(ids({ ...r.template.design, profile: '4.x' })).toContain('plugin-required');
    });
  });

  describe('delayed-exchange-mandatory', () => {
    const d = (mandatory: boolean) =>
      design({
        extra: { exchanges: [{ name: 'd', type: 'x-delayed-message', arguments: { 'x-delayed-type': 'direct' } }] },
        publishers: [{ id: 'p', exchange: 'd', routingKey: 'k', mandatory }],
      });
    it('triggers with mandatory', () => expect(ids(d(true))).toContain('delayed-exchange-mandatory'));
    it('not without', () => expect(ids(d(false))).not.toContain('delayed-exchange-mandatory'));
  });

  describe('delay-out-of-range', () => {
    const d = (delay: number) =>
      design({
        consumers: [
          worker([{ then: { kind: 'republish', exchange: 'work', routingKey: 'x', headers: { 'x-delay': delay } } }]),
        ],
      });
    it('triggers above 2^32-1', () => expect(ids(d(4294967296))).toContain('delay-out-of-range'));
    it('triggers on a negative delay', () => expect(ids(d(-5))).toContain('delay-out-of-range'));
    it('not in range', () => expect(ids(d(5000))).not.toContain('delay-out-of-range'));
  });

  describe('quorum-default-delivery-limit', () => {
    it('warns under 4.x', () =>
      expect(
        lintDesign(design({ qArgs: { 'x-queue-type': 'quorum' }, profile: '4.x' })).find(
          (f) => f.id === 'quorum-default-delivery-limit',
        )?.severity,
      ).toBe('warning'));
    it('not with a limit set by policy', () =>
      expect(
        ids(
          design({
            qArgs: { 'x-queue-type': 'quorum' },
            extra: { policies: [{ name: 'p', pattern: '.*', definition: { 'delivery-limit': 5 } }] },
          }),
        ),
      ).not.toContain('quorum-default-delivery-limit'));
  });

  describe('dl-routing-key-without-dlx', () => {
    it('triggers', () =>
      expect(ids(design({ qArgs: { 'x-dead-letter-routing-key': 'k' } }))).toContain('dl-routing-key-without-dlx'));
    it('not with a DLX', () =>
      expect(ids(design({ qArgs: { 'x-dead-letter-routing-key': 'q', 'x-dead-letter-exchange': '' } }))).not.toContain(
        'dl-routing-key-without-dlx',
      ));
  });

  describe('overflow-drops-silently', () => {
    it('triggers on drop-head without DLX', () =>
      expect(ids(design({ qArgs: { 'x-max-length': 10 } }))).toContain('overflow-drops-silently'));
    it('not with a DLX', () =>
      expect(
        ids(
          design({
            qArgs: { 'x-max-length': 10, 'x-dead-letter-exchange': 'dlx' },
            extra: { exchanges: [{ name: 'dlx', type: 'fanout' }] },
          }),
        ),
      ).not.toContain('overflow-drops-silently'));
  });

  describe('large-exception-headers', () => {
    it('triggers on exception headers', () =>
      expect(
        ids(
          design({
            consumers: [
              worker([{ then: { kind: 'republish', exchange: 'work', routingKey: 'e', exceptionHeaders: true } }]),
            ],
          }),
        ),
      ).toContain('large-exception-headers'));
    it('not without', () =>
      expect(
        ids(design({ consumers: [worker([{ then: { kind: 'republish', exchange: 'work', routingKey: 'e' } }])] })),
      ).not.toContain('large-exception-headers'));
  });

  describe('immutable-argument-change', () => {
    const prev = design({ qArgs: { 'x-message-ttl': 100 } }).topology;
    it('triggers when a queue argument changes', () => {
      const f = lintDesign(design({ qArgs: { 'x-message-ttl': 200 } }), { previous: prev }).find(
        (x) => x.id === 'immutable-argument-change',
      );
      expect(f?.message).toContain('x-message-ttl: 100 -> 200');
    });
    it('not when unchanged', () =>
      expect(ids(design({ qArgs: { 'x-message-ttl': 100 } }), { previous: prev })).not.toContain(
        'immutable-argument-change',
      ));
  });

  it('lints a bare topology (definitions file)', () => {
    expect(lintTopology(design({ qArgs: { 'x-dead-letter-exchange': 'ghost' } }).topology).map((f) => f.id)).toEqual([
      'dlx-missing',
    ]);
  });
});
