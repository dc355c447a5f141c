import { describe, expect, it } from 'vitest';
import type { Design } from './design.js';
import type { ConsumerAction, ConsumerSpec } from './consumer.js';
import type { PublisherSpec } from './publisher.js';
import { parseDesign, validateDesign, validateFailureModel } from './validateDesign.js';

/** Fixture builder: exchange `work` -> queue `q`, one worker on q, one publisher. */
function design(
  over: {
    consumers?: ConsumerSpec[];
    publishers?: PublisherSpec[];
    layout?: Design['layout'];
    onFailure?: ConsumerAction;
  } = {},
): Design {
  return {
    format: 'retry-studio/design',
    version: 1,
    name: 'd',
    topology: {
      exchanges: [
        { name: 'work', type: 'direct', durable: true },
        { name: 'retry', type: 'direct', durable: true },
      ],
      queues: [{ name: 'q', durable: true }],
      bindings: [{ source: 'work', destination: 'q', destination_type: 'queue', routing_key: 'k' }],
    },
    consumers: over.consumers ?? [
      {
        id: 'c1',
        queue: 'q',
        behaviour: {
          kind: 'worker',
          failure: { kind: 'always' },
          onFailure: [{ then: over.onFailure ?? { kind: 'reject' } }],
        },
      },
    ],
    publishers: over.publishers ?? [{ id: 'p1', exchange: 'work', routingKey: 'k' }],
    ...(over.layout ? { layout: over.layout } : {}),
  };
}
const errs = (d: Design) => validateDesign(d).errors.map((e) => `${e.path} ${e.code}`);

describe('validateDesign', () => {
  it('accepts a valid design', () => {
    expect(validateDesign(design())).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it('consumers referencing missing queues', () => {
    expect(
      errs(
        design({ consumers: [{ id: 'c', queue: 'nope', behaviour: { kind: 'script', actions: [{ kind: 'ack' }] } }] }),
      ),
    ).toEqual(['consumers[0].queue missing-queue']);
  });

  it('prefetch 0..65535', () => {
    const c = (prefetch: number): ConsumerSpec[] => [
      { id: 'c', queue: 'q', prefetch, behaviour: { kind: 'script', actions: [{ kind: 'ack' }] } },
    ];
    expect(errs(design({ consumers: c(0) }))).toEqual([]);
    expect(errs(design({ consumers: c(65535) }))).toEqual([]);
    expect(errs(design({ consumers: c(70000) }))).toEqual(['consumers[0].prefetch prefetch-range']);
    expect(errs(design({ consumers: c(-1) }))).toEqual(['consumers[0].prefetch prefetch-range']);
  });

  it('republish to a missing exchange', () => {
    expect(errs(design({ onFailure: { kind: 'republish', exchange: 'gone' } }))).toEqual([
      'consumers[0].behaviour.onFailure[0].then.exchange missing-exchange',
    ]);
    expect(errs(design({ onFailure: { kind: 'republish', exchange: '' } }))).toEqual([]);
  });

  it('republish expiration: integer ms or decimal string', () => {
    expect(errs(design({ onFailure: { kind: 'republish', exchange: 'retry', expiration: 1.5 } }))).toEqual([
      'consumers[0].behaviour.onFailure[0].then.expiration ttl-range',
    ]);
    expect(errs(design({ onFailure: { kind: 'republish', exchange: 'retry', expiration: 'abc' } }))).toEqual([
      'consumers[0].behaviour.onFailure[0].then.expiration expiration-format',
    ]);
    expect(
      errs(
        design({
          onFailure: {
            kind: 'republish',
            exchange: 'retry',
            expiration: { kind: 'curve', values: [100, -5], by: { kind: 'attempt' } },
          },
        }),
      ),
    ).toEqual(['consumers[0].behaviour.onFailure[0].then.expiration.values[1] ttl-range']);
    expect(errs(design({ onFailure: { kind: 'republish', exchange: 'retry', expiration: '5000' } }))).toEqual([]);
  });

  it('__proto__ in republish headers and publisher headers', () => {
    const h = JSON.parse('{"__proto__": 1}');
    expect(errs(design({ onFailure: { kind: 'republish', exchange: 'retry', headers: h } }))).toEqual([
      'consumers[0].behaviour.onFailure[0].then.headers.__proto__ forbidden-key',
    ]);
    expect(
      errs(design({ publishers: [{ id: 'p', exchange: 'work', routingKey: 'k', properties: { headers: h } }] })),
    ).toEqual(['publishers[0].properties.headers.__proto__ forbidden-key']);
  });

  it('publisher: missing exchange, expiration must be a decimal string, priority 0..255, duplicate ids', () => {
    expect(errs(design({ publishers: [{ id: 'p', exchange: 'nope', routingKey: 'k' }] }))).toEqual([
      'publishers[0].exchange missing-exchange',
    ]);
    expect(
      errs(
        design({
          publishers: [{ id: 'p', exchange: 'work', routingKey: 'k', properties: { expiration: 5000 as never } }],
        }),
      ),
    ).toEqual(['publishers[0].properties.expiration expiration-format']);
    expect(
      errs(design({ publishers: [{ id: 'p', exchange: 'work', routingKey: 'k', properties: { priority: 300 } }] })),
    ).toEqual(['publishers[0].properties.priority field-type']);
    expect(
      errs(
        design({
          publishers: [
            { id: 'p', exchange: 'work', routingKey: 'k' },
            { id: 'p', exchange: 'work', routingKey: 'k' },
          ],
        }),
      ),
    ).toEqual(['publishers[1].id duplicate-id']);
  });

  it('negative x-delay is a warning (routed at once)', () => {
    const r = validateDesign(
      design({
        publishers: [{ id: 'p', exchange: 'work', routingKey: 'k', properties: { headers: { 'x-delay': -5 } } }],
      }),
    );
    expect(r.ok).toBe(true);
    expect(r.warnings.map((w) => w.code)).toEqual(['delay-range']);
  });

  it('retryInProcess: maxAttempts >= 1 and no nested retry', () => {
    expect(
      errs(
        design({
          onFailure: {
            kind: 'retryInProcess',
            maxAttempts: 0,
            backoff: { initialMs: 10, multiplier: 2, maxMs: 100 },
            recover: { kind: 'reject' },
          },
        }),
      ),
    ).toEqual(['consumers[0].behaviour.onFailure[0].then.maxAttempts field-type']);
  });

  it('multiple and hold: a boolean, never with basic.reject, never in a recoverer', () => {
    const at = 'consumers[0].behaviour.onFailure[0].then';
    expect(errs(design({ onFailure: { kind: 'reject', multiple: true } }))).toEqual([]);
    expect(errs(design({ onFailure: { kind: 'requeue', multiple: true } }))).toEqual([]);
    expect(errs(design({ onFailure: { kind: 'hold' } }))).toEqual([]);
    expect(errs(design({ onFailure: { kind: 'ack', multiple: 'yes' } as unknown as ConsumerAction }))).toEqual([
      `${at}.multiple field-type`,
    ]);
    expect(errs(design({ onFailure: { kind: 'requeue', via: 'reject', multiple: true } }))).toEqual([
      `${at}.multiple action-multiple`,
    ]);
    const retry = (recover: ConsumerAction): ConsumerAction => ({
      kind: 'retryInProcess',
      maxAttempts: 2,
      backoff: { initialMs: 10, multiplier: 2, maxMs: 100 },
      recover,
    });
    expect(errs(design({ onFailure: retry({ kind: 'reject', multiple: true }) }))).toEqual([
      `${at}.recover.multiple action-multiple`,
    ]);
    expect(errs(design({ onFailure: retry({ kind: 'hold' }) }))).toEqual([`${at}.recover.kind action-kind`]);
    const held: ConsumerAction = { kind: 'hold' };
    expect(
      errs(
        design({
          consumers: [
            {
              id: 'c1',
              queue: 'q',
              behaviour: {
                kind: 'router',
                rules: [
                  { when: { kind: 'lt', counter: { kind: 'held' }, value: 3 }, then: held },
                  { then: { kind: 'ack', multiple: true } },
                ],
              },
            },
          ],
        }),
      ),
    ).toEqual([]);
  });

  it('layout keys must be node ids of the design', () => {
    const r = validateDesign(
      design({ layout: { 'queue:q': { x: 1, y: 2 }, 'queue:zz': { x: 0, y: 0 }, bogus: { x: 0, y: 0 } } }),
    );
    expect(r.ok).toBe(true);
    expect(r.warnings.map((w) => `${w.path} ${w.code}`)).toEqual([
      'layout.queue:zz layout-unknown-node'.replace('layout.queue:zz', 'layout["queue:zz"]'),
      'layout.bogus layout-node-id',
    ]);
  });

  it('topology errors carry the topology. prefix', () => {
    const d = design();
    const bad: Design = {
      ...d,
      topology: { ...d.topology, queues: [{ name: 'q', arguments: { 'x-message-ttl': '5000' } }] },
    };
    expect(errs(bad)).toEqual(['topology.queues[0].arguments.x-message-ttl ttl-range']);
  });
});

describe('parseDesign', () => {
  it('parses a valid document', () => {
    const r = parseDesign(JSON.parse(JSON.stringify(design())));
    expect(r.ok).toBe(true);
  });
  it('rejects non-objects and wrong formats with a path', () => {
    expect(parseDesign('x').errors[0]).toMatchObject({ path: '', code: 'design-type' });
    expect(parseDesign({ format: 'other', version: 1 }).errors[0]).toMatchObject({ path: 'format' });
    expect(parseDesign({ ...design(), version: 99 }).errors[0]).toMatchObject({
      path: 'version',
      code: 'design-too-new',
    });
  });
  it('migrates an unversioned v0 document', () => {
    const { format: _f, version: _v, consumers: _c, publishers: _p, ...v0 } = design();
    const r = parseDesign(v0);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.design.version).toBe(1);
      expect(r.design.consumers).toEqual([]);
      expect(r.migratedFrom).toBe(0);
    }
  });
  it('reports structural errors by field', () => {
    const r = parseDesign({
      format: 'retry-studio/design',
      version: 1,
      name: 'x',
      topology: { queues: [{ name: 5 }] },
      consumers: {},
      publishers: [],
    });
    expect(r.errors.map((e) => e.path)).toEqual(['topology.queues[0].name', 'consumers']);
  });
});

describe('validateFailureModel', () => {
  it('names the field of a bad failure model', () => {
    expect(validateFailureModel({ kind: 'failFirst', n: -1 }).map((i) => i.path)).toEqual(['failure.n']);
    expect(validateFailureModel({ kind: 'percent', percent: 101 }).map((i) => i.path)).toEqual(['failure.percent']);
    expect(validateFailureModel({ kind: 'sometimes' }).map((i) => i.path)).toEqual(['failure.kind']);
    expect(validateFailureModel({ kind: 'failFirst', n: 2 })).toEqual([]);
  });
});
