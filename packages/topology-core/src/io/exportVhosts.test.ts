import { describe, expect, it } from 'vitest';
import { loadDocumentVhosts } from './load.js';
import { exportVhosts } from './exportVhosts.js';
import { importDefinitions } from './definitions.js';

/** Two vhosts holding a queue of the same name: their exports must not collide. */
function twoVhosts(): Record<string, unknown> {
  const objs = (vhost: string) => ({
    queues: [
      { name: 'work', vhost, durable: true, auto_delete: false, arguments: { 'x-dead-letter-exchange': 'dlx' } },
    ],
    exchanges: [
      { name: 'dlx', vhost, type: 'fanout', durable: true, auto_delete: false, internal: false, arguments: {} },
    ],
    bindings: [
      { source: 'dlx', vhost, destination: 'work', destination_type: 'queue', routing_key: '', arguments: {} },
    ],
  });
  const a = objs('/');
  const b = objs('tenant-b');
  return {
    vhosts: [{ name: '/' }, { name: 'tenant-b' }],
    queues: [...a.queues, ...b.queues],
    exchanges: [...a.exchanges, ...b.exchanges],
    bindings: [...a.bindings, ...b.bindings],
  };
}

describe('one design per vhost, exported together', () => {
  it('loadDocumentVhosts gives one design per vhost with objects, each named and carrying its vhost', () => {
    const r = loadDocumentVhosts(JSON.stringify(twoVhosts()), { name: 'broker' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.docs.map((d) => [d.design.name, d.design.vhost, d.design.topology.queues.length])).toEqual([
      ['broker (/)', '/', 1],
      ['broker (tenant-b)', 'tenant-b', 1],
    ]);
    const one = loadDocumentVhosts(JSON.stringify(twoVhosts()), { vhost: 'tenant-b' });
    expect(one.ok && one.docs.map((d) => d.vhost)).toEqual(['tenant-b']);
  });

  it('terraform, operator, rabbitmqadmin-v1 and definitions keep every object in its vhost; the others are one-vhost formats', () => {
    const r = loadDocumentVhosts(JSON.stringify(twoVhosts()));
    if (!r.ok) throw new Error('not ok');
    const parts = r.docs.map((d) => ({ vhost: d.vhost!, design: d.design }));
    const tf = exportVhosts(parts, 'terraform')!;
    expect(tf.match(/^resource "rabbitmq_queue" "(\S+)"/gm)).toEqual([
      'resource "rabbitmq_queue" "default__work"',
      'resource "rabbitmq_queue" "tenant-b__work"',
    ]);
    expect(tf).toContain('vhost = rabbitmq_vhost.tenant-b__vhost.name');
    const yaml = exportVhosts(parts, 'operator')!;
    for (const name of [
      'default-exchange-dlx',
      'default-queue-work',
      'default-binding-dlx-work',
      'tenant-b-exchange-dlx',
      'tenant-b-queue-work',
      'tenant-b-binding-dlx-work',
    ])
      expect(yaml).toContain(`name: "${name}"`);
    expect(yaml.match(/^ {2}vhost: "tenant-b"$/gm)).toHaveLength(3);
    expect(exportVhosts(parts, 'rabbitmqadmin-v1')).toContain("rabbitmqadmin -V 'tenant-b' declare queue name='work'");
    // the definitions export reads back to the same vhosts
    const back = importDefinitions(JSON.parse(exportVhosts(parts, 'definitions')!), { vhost: 'tenant-b' });
    expect(back.ok && back.topology.queues.map((q) => q.name)).toEqual(['work']);
    expect(exportVhosts(parts, 'asyncapi')).toBeUndefined();
  });
});

describe('a vhost whose every object is skipped', () => {
  it('is noted, and the other vhosts are read', () => {
    const file = twoVhosts();
    (file.queues as unknown[]).push({
      name: 'amq.gen-abc',
      vhost: 'sessions',
      durable: false,
      auto_delete: true,
      exclusive: true,
      arguments: {},
    });
    const r = loadDocumentVhosts(JSON.stringify(file));
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.docs.map((d) => d.vhost)).toEqual(['/', 'tenant-b']);
    expect(r.docs[0]!.warnings.find((w) => w.code === 'vhost-empty')?.message).toMatch(
      /^vhost "sessions": vhost "sessions" has nothing to import \(everything there is skipped: skipped 1 queue \("amq\.gen-abc"\)/,
    );
  });
});
