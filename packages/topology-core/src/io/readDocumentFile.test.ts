import { describe, expect, it } from 'vitest';
import { fileStem, readDocumentFile } from './readDocumentFile.js';

/** A whole-broker export: "/" named but empty, two vhosts with objects, a shovel (not modelled) in "b". */
function brokerExport(): Record<string, unknown> {
  const objs = (vhost: string, prefix: string) => ({
    queues: [
      {
        name: `${prefix}.work`,
        vhost,
        durable: true,
        auto_delete: false,
        arguments: { 'x-dead-letter-exchange': `${prefix}.dlx` },
      },
    ],
    exchanges: [
      {
        name: `${prefix}.dlx`,
        vhost,
        type: 'fanout',
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      },
    ],
    bindings: [
      {
        source: `${prefix}.dlx`,
        vhost,
        destination: `${prefix}.work`,
        destination_type: 'queue',
        routing_key: '',
        arguments: {},
      },
    ],
  });
  const a = objs('a', 'orders');
  const b = objs('b', 'billing');
  return {
    rabbitmq_version: '3.13.7',
    vhosts: [{ name: '/' }, { name: 'a' }, { name: 'b' }],
    queues: [...a.queues, ...b.queues],
    exchanges: [...a.exchanges, ...b.exchanges],
    bindings: [...a.bindings, ...b.bindings],
    parameters: [{ vhost: 'b', component: 'shovel', name: 'to-archive', value: {} }],
  };
}

describe('readDocumentFile: the one reader of the CLI and the browser', () => {
  it('lists every vhost with its counts, gives one design per vhost with objects, keeps the notes and the version', () => {
    const r = readDocumentFile(JSON.stringify(brokerExport()), { fileName: 'exports/broker.json' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.vhosts.map((v) => [v.name, v.exchanges, v.queues, v.bindings])).toEqual([
      ['/', 0, 0, 0],
      ['a', 1, 1, 1],
      ['b', 1, 1, 1],
    ]);
    expect(r.docs.map((d) => [d.vhost, d.design.name])).toEqual([
      ['a', 'broker (a)'],
      ['b', 'broker (b)'],
    ]);
    expect(r.rabbitVersion).toBe('3.13.7');
    const notes = r.docs[1]!.warnings.filter((w) => w.code === 'not-imported').map((w) => w.message);
    expect(notes.join('\n')).toMatch(/not imported: .*shovel.*"to-archive"/);
  });

  it('one vhost asked for gives that one only', () => {
    const r = readDocumentFile(JSON.stringify(brokerExport()), { vhost: 'b' });
    expect(r.ok && r.docs.map((d) => d.vhost)).toEqual(['b']);
  });

  it('pasted text (no file name) is named from its content: its vhost, else its first own exchange', () => {
    const several = readDocumentFile(JSON.stringify(brokerExport()));
    expect(several.ok && several.docs.map((d) => d.design.name)).toEqual(['a', 'b']);
    const perVhost = {
      exchanges: [
        { name: 'amq.direct', type: 'direct' },
        { name: 'shop.retry', type: 'direct' },
      ],
      queues: [{ name: 'shop.work', arguments: {} }],
    };
    const one = readDocumentFile(JSON.stringify(perVhost));
    expect(one.ok && one.docs[0]!.design.name).toBe('shop.retry');
    expect(one.ok && one.vhosts.map((v) => v.name)).toEqual([undefined]);
  });

  it('a design keeps its own name; a bad file names the error', () => {
    const bad = readDocumentFile('{"queues": [', { fileName: 'x.json' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.errors[0]!.code).toBe('json-syntax');
    expect(fileStem('C:\\exports\\Orders.JSON')).toBe('Orders');
    expect(fileStem('  .json')).toBeUndefined();
  });
});
