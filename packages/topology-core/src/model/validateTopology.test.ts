import { describe, expect, it } from 'vitest';
import type { AmqpTable, Topology } from './definitions.js';
import { validateTopology } from './validateTopology.js';
import { utf8ByteLength } from './names.js';

/** Fixture builder: one direct exchange `work` bound to queue `q` with the given queue args. */
function topo(
  over: { qArgs?: AmqpTable; qName?: string; xName?: string; extra?: Partial<Topology>; durable?: boolean } = {},
): Topology {
  const q = over.qName ?? 'q';
  const x = over.xName ?? 'work';
  return {
    exchanges: [{ name: x, type: 'direct', durable: true }, ...(over.extra?.exchanges ?? [])],
    queues: [{ name: q, durable: over.durable ?? true, arguments: over.qArgs ?? {} }, ...(over.extra?.queues ?? [])],
    bindings: [
      { source: x, destination: q, destination_type: 'queue', routing_key: 'k' },
      ...(over.extra?.bindings ?? []),
    ],
  };
}
const codes = (t: Topology) => validateTopology(t).errors.map((e) => `${e.path} ${e.code}`);

describe('validateTopology', () => {
  it('accepts a plain topology', () => {
    const r = validateTopology(topo());
    expect(r).toEqual({ ok: true, errors: [], warnings: [] });
  });

  it('names: 255 bytes of UTF-8, counted in bytes not characters', () => {
    expect(utf8ByteLength('é')).toBe(2);
    expect(utf8ByteLength('😀')).toBe(4);
    expect(codes(topo({ qName: 'a'.repeat(255) }))).toEqual([]);
    expect(codes(topo({ qName: 'a'.repeat(256) }))).toContain('queues[0].name name-too-long');
    expect(codes(topo({ qName: '😀'.repeat(64) }))).toContain('queues[0].name name-too-long');
    expect(codes(topo({ qName: '😀'.repeat(63) }))).toEqual([]);
  });

  it('names: amq. prefix reserved, line breaks, empty exchange name', () => {
    expect(codes(topo({ qName: 'amq.retry' }))).toContain('queues[0].name name-reserved');
    expect(codes(topo({ xName: 'amq.x' }))).toContain('exchanges[0].name name-reserved');
    expect(codes(topo({ qName: 'a\nb' }))).toContain('queues[0].name name-bad-char');
    expect(codes(topo({ qName: 'a\rb' }))).toContain('queues[0].name name-bad-char');
    expect(codes(topo({ xName: '' }))).toContain('exchanges[0].name name-empty');
    expect(codes(topo({ qName: '' }))).toContain('queues[0].name name-empty');
  });

  it('duplicate names', () => {
    expect(codes(topo({ extra: { queues: [{ name: 'q' }] } }))).toContain('queues[1].name duplicate-name');
    expect(codes(topo({ extra: { exchanges: [{ name: 'work', type: 'fanout' }] } }))).toContain(
      'exchanges[1].name duplicate-name',
    );
  });

  it('x-message-ttl: integer 0..2^32-1; rejects 1.5, "5000", -1, 2^32', () => {
    for (const ok of [0, 1, 4294967295]) expect(codes(topo({ qArgs: { 'x-message-ttl': ok } }))).toEqual([]);
    for (const bad of [1.5, '5000', -1, 4294967296, null, true]) {
      const r = validateTopology(topo({ qArgs: { 'x-message-ttl': bad } }));
      expect(r.ok).toBe(false);
      expect(r.errors[0]).toMatchObject({ path: 'queues[0].arguments.x-message-ttl', code: 'ttl-range' });
    }
  });

  it('x-expires >= 1, max-length non-negative ints', () => {
    expect(codes(topo({ qArgs: { 'x-expires': 0 } }))).toContain('queues[0].arguments.x-expires argument-value');
    expect(codes(topo({ qArgs: { 'x-expires': 1 } }))).toEqual([]);
    expect(codes(topo({ qArgs: { 'x-max-length': -1 } }))).toContain('queues[0].arguments.x-max-length argument-value');
    expect(codes(topo({ qArgs: { 'x-max-length-bytes': 2.5 } }))).toContain(
      'queues[0].arguments.x-max-length-bytes argument-value',
    );
    expect(codes(topo({ qArgs: { 'x-max-length': 0, 'x-max-length-bytes': 10 } }))).toEqual([]);
  });

  it('x-overflow values; reject-publish-dlx is classic only', () => {
    expect(codes(topo({ qArgs: { 'x-overflow': 'drop-tail' } }))).toContain(
      'queues[0].arguments.x-overflow argument-value',
    );
    expect(codes(topo({ qArgs: { 'x-overflow': 'reject-publish-dlx' } }))).toEqual([]);
    expect(codes(topo({ qArgs: { 'x-queue-type': 'quorum', 'x-overflow': 'reject-publish-dlx' } }))).toContain(
      'queues[0].arguments.x-overflow overflow-quorum',
    );
  });

  it('dead-letter routing key needs a DLX', () => {
    expect(codes(topo({ qArgs: { 'x-dead-letter-routing-key': 'k' } }))).toContain(
      'queues[0].arguments.x-dead-letter-routing-key dl-routing-key-without-dlx',
    );
    expect(codes(topo({ qArgs: { 'x-dead-letter-routing-key': 'k', 'x-dead-letter-exchange': '' } }))).toEqual([]);
  });

  it('missing DLX is a warning (the broker accepts it, messages are dropped)', () => {
    const r = validateTopology(topo({ qArgs: { 'x-dead-letter-exchange': 'nope' } }));
    expect(r.ok).toBe(true);
    expect(r.warnings.map((w) => w.code)).toContain('missing-dlx');
  });

  it('queue types: classic|quorum|stream, quorum durable, quorum-only and classic-only arguments', () => {
    expect(codes(topo({ qArgs: { 'x-queue-type': 'stream' } }))).toEqual([]);
    expect(codes(topo({ qArgs: { 'x-queue-type': 'log' } }))).toContain(
      'queues[0].arguments.x-queue-type argument-value',
    );
    expect(codes(topo({ qArgs: { 'x-queue-type': 'quorum' }, durable: false }))).toContain(
      'queues[0].durable quorum-not-durable',
    );
    expect(codes(topo({ qArgs: { 'x-delivery-limit': 3 } }))).toContain(
      'queues[0].arguments.x-delivery-limit argument-queue-type',
    );
    expect(codes(topo({ qArgs: { 'x-dead-letter-strategy': 'at-most-once' } }))).toContain(
      'queues[0].arguments.x-dead-letter-strategy argument-queue-type',
    );
    expect(codes(topo({ qArgs: { 'x-queue-type': 'quorum', 'x-max-priority': 3 } }))).toContain(
      'queues[0].arguments.x-max-priority argument-queue-type',
    );
    expect(
      codes(
        topo({ qArgs: { 'x-queue-type': 'quorum', 'x-delivery-limit': 3, 'x-dead-letter-strategy': 'at-most-once' } }),
      ),
    ).toEqual([]);
    expect(codes(topo({ qArgs: { 'x-queue-type': 'quorum', 'x-dead-letter-strategy': 'sometimes' } }))).toContain(
      'queues[0].arguments.x-dead-letter-strategy argument-value',
    );
  });

  it('unknown x- arguments are warnings', () => {
    const r = validateTopology(topo({ qArgs: { 'x-foo': 1 } }));
    expect(r.ok).toBe(true);
    expect(r.warnings[0]).toMatchObject({ path: 'queues[0].arguments.x-foo', code: 'unknown-argument' });
  });

  it('a policy key written as a queue argument ("expires") is a warning that names the argument meant (x-expires)', () => {
    const r = validateTopology(topo({ qArgs: { expires: 5000 } }));
    expect(r.ok).toBe(true);
    expect(r.warnings[0]).toMatchObject({ path: 'queues[0].arguments.expires', code: 'unknown-argument' });
    expect(r.warnings[0]!.message).toContain('the queue argument is "x-expires", so this queue has no expires setting');
    expect(validateTopology(topo({ qArgs: { 'x-foo': 1 } })).warnings[0]!.message).not.toContain('policy key');
  });

  it('x-delayed-message needs x-delayed-type naming a known type', () => {
    const mk = (args: AmqpTable): Topology => ({
      exchanges: [{ name: 'd', type: 'x-delayed-message', arguments: args }],
      queues: [],
      bindings: [],
    });
    expect(codes(mk({}))).toContain('exchanges[0].arguments.x-delayed-type delayed-type-missing');
    expect(codes(mk({ 'x-delayed-type': 'x-delayed-message' }))).toContain(
      'exchanges[0].arguments.x-delayed-type argument-value',
    );
    expect(codes(mk({ 'x-delayed-type': 'direct' }))).toEqual([]);
  });

  it('unknown exchange type, and types the broker lacks', () => {
    const t: Topology = { exchanges: [{ name: 'x', type: 'weird' as never }], queues: [], bindings: [] };
    expect(codes(t)).toContain('exchanges[0].type unknown-exchange-type');
    const d: Topology = { exchanges: [{ name: 'x', type: 'radlx' }], queues: [], bindings: [] };
    expect(validateTopology(d, { exchangeTypes: ['direct', 'fanout', 'topic', 'headers'] }).errors[0]?.code).toBe(
      'exchange-type-unavailable',
    );
  });

  it('bindings naming missing exchanges or queues, or the default exchange', () => {
    expect(
      codes(
        topo({
          extra: { bindings: [{ source: 'nope', destination: 'q', destination_type: 'queue', routing_key: '' }] },
        }),
      ),
    ).toContain('bindings[1].source missing-exchange');
    expect(
      codes(
        topo({
          extra: { bindings: [{ source: 'work', destination: 'nope', destination_type: 'queue', routing_key: '' }] },
        }),
      ),
    ).toContain('bindings[1].destination missing-queue');
    expect(
      codes(
        topo({
          extra: { bindings: [{ source: 'work', destination: 'nope', destination_type: 'exchange', routing_key: '' }] },
        }),
      ),
    ).toContain('bindings[1].destination missing-exchange');
    expect(
      codes(
        topo({ extra: { bindings: [{ source: '', destination: 'q', destination_type: 'queue', routing_key: '' }] } }),
      ),
    ).toContain('bindings[1].source bind-default-exchange');
  });

  it('headers binding x-match values', () => {
    const t = (xm: string): Topology => ({
      exchanges: [{ name: 'h', type: 'headers' }],
      queues: [{ name: 'q' }],
      bindings: [
        {
          source: 'h',
          destination: 'q',
          destination_type: 'queue',
          routing_key: '',
          arguments: { 'x-match': xm, a: 1 },
        },
      ],
    });
    for (const ok of ['all', 'any', 'all-with-x', 'any-with-x']) expect(codes(t(ok))).toEqual([]);
    expect(codes(t('some'))).toContain('bindings[0].arguments.x-match x-match-value');
  });

  it('__proto__ / constructor / prototype keys are rejected anywhere', () => {
    const args = JSON.parse('{"__proto__": {"polluted": true}}');
    expect(codes(topo({ qArgs: args }))).toContain('queues[0].arguments.__proto__ forbidden-key');
    expect(codes(topo({ qArgs: { constructor: 1 } as AmqpTable }))).toContain(
      'queues[0].arguments.constructor forbidden-key',
    );
    expect(codes(topo({ qArgs: { 'x-foo': { prototype: 1 } } as AmqpTable }))).toContain(
      'queues[0].arguments.x-foo.prototype forbidden-key',
    );
    const b = JSON.parse('{"x-match":"all","__proto__":1}');
    expect(
      codes(
        topo({
          extra: {
            bindings: [{ source: 'work', destination: 'q', destination_type: 'queue', routing_key: 'z', arguments: b }],
          },
        }),
      ),
    ).toContain('bindings[1].arguments.__proto__ forbidden-key');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('argument keys longer than 255 bytes', () => {
    expect(codes(topo({ qArgs: { ['x-' + 'k'.repeat(300)]: 1 } }))[0]).toMatch(/key-too-long/);
  });

  it('policies: numeric values and patterns', () => {
    const t: Topology = { ...topo(), policies: [{ name: 'p', pattern: '(', definition: { 'message-ttl': -1 } }] };
    expect(codes(t)).toEqual(
      expect.arrayContaining([
        'policies[0].pattern pattern-invalid',
        'policies[0].definition.message-ttl argument-value',
      ]),
    );
  });

  it('survives garbage without throwing', () => {
    for (const g of [null, 1, 'x', [], { exchanges: 'no' }, { queues: [null, 3] }, { bindings: [{}] }])
      expect(validateTopology(g as unknown as Topology).ok).toBe(false);
  });
});

describe('what the broker accepts, read (issue 29.4)', () => {
  const topo = (queueArgs: Record<string, unknown>, xMatch: unknown, type = 'direct'): Topology => ({
    exchanges: [{ name: 'ex', type: type as Topology['exchanges'][number]['type'] }],
    queues: [{ name: 'q', arguments: queueArgs as Topology['queues'][number]['arguments'] }],
    bindings: [
      {
        source: 'ex',
        destination: 'q',
        destination_type: 'queue',
        routing_key: 'k',
        arguments: { 'x-match': xMatch as string },
      },
    ],
  });

  it('x-match with a value no headers exchange takes, on a direct exchange: a warning (3.10.8 and 4.3.6 store the binding), an error on a headers exchange', () => {
    const direct = validateTopology(topo({}, 'any-with-x-bogus'));
    expect(direct.errors).toEqual([]);
    expect(direct.warnings.find((w) => w.code === 'argument-ignored')?.message).toMatch(
      /not a value a headers exchange accepts.*direct exchange/,
    );
    expect(validateTopology(topo({}, 'any-with-x-bogus', 'headers')).errors.map((e) => e.code)).toEqual([
      'x-match-value',
    ]);
  });

  it('x-ha-policy and x-ha-nodes: obsolete, said so (accepted and ignored)', () => {
    const r = validateTopology(topo({ 'x-ha-policy': 'all', 'x-ha-nodes': ['rabbit@a'] }, 'all'));
    expect(r.errors).toEqual([]);
    expect(r.warnings.filter((w) => w.code === 'argument-obsolete').map((w) => w.path)).toEqual([
      'queues[0].arguments.x-ha-policy',
      'queues[0].arguments.x-ha-nodes',
    ]);
  });
});
