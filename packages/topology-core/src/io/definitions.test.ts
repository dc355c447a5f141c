import { describe, expect, it } from 'vitest';
import brokerExport from '../../testing/fixtures/rabbitmqctl-export-3.10.8.json';
import vhostExport from '../../testing/fixtures/management-vhost-export-3.10.8.json';
import { exportDefinitions, importDefinitions, looksLikeDefinitions } from './definitions.js';
import { loadDocument } from './load.js';
import { readDesignJson, writeDesignJson } from './designJson.js';
import type { Topology } from '../model/definitions.js';
import { T } from '../../testing/builders.js';

describe('importDefinitions', () => {
  it('reads a real `rabbitmqctl export_definitions` file (RabbitMQ 3.10.8), choosing the vhost', () => {
    expect(looksLikeDefinitions(brokerExport)).toBe(true);
    const r = importDefinitions(brokerExport, { vhost: 'rs-fixture' });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.vhost).toBe('rs-fixture');
    expect(r.vhosts).toEqual(expect.arrayContaining(['/', 'rs-fixture']));
    expect(r.rabbitVersion).toBe('3.10.8');
    expect(r.topology.queues.map((q) => q.name).sort()).toEqual([
      'orders.q',
      'orders.qq',
      'orders.unrouted.q',
      'orders.wait',
    ]);
    expect(r.topology.queues.find((q) => q.name === 'orders.qq')?.arguments).toMatchObject({
      'x-queue-type': 'quorum',
      'x-delivery-limit': 5,
    });
    expect(r.topology.exchanges.find((x) => x.name === 'orders.retry')?.arguments).toEqual({
      'alternate-exchange': 'orders.unrouted',
    });
    expect(r.topology.bindings.find((b) => b.destination_type === 'exchange')).toMatchObject({
      source: 'orders',
      destination: 'orders.headers',
    });
    expect(r.topology.policies?.[0]).toMatchObject({
      name: 'retry-ttl',
      definition: { 'message-ttl': 6000 },
      'apply-to': 'queues',
    });
  });

  it('defaults to the vhost that holds objects, never a silent empty "/"', () => {
    const r = importDefinitions(brokerExport);
    expect(r.ok && r.vhost).toBe('rs-fixture');
    expect(r.ok && r.topology.queues.length).toBe(4);
    // "/" is in the file but empty: asking for it is an error that says where the objects are
    const empty = importDefinitions(brokerExport, { vhost: '/' });
    expect(empty).toMatchObject({ ok: false, errors: [{ code: 'vhost-empty', path: 'vhosts' }] });
    expect(!empty.ok && empty.errors[0]!.message).toMatch(/"rs-fixture" \(\d+ exchanges, 4 queues/);
    const missing = importDefinitions(brokerExport, { vhost: 'nope' });
    expect(missing).toMatchObject({ ok: false, errors: [{ code: 'vhost-missing' }] });
    expect(!missing.ok && missing.errors[0]!.message).toContain('"rs-fixture"');
  });

  it('reads a per-vhost management export (no vhost fields)', () => {
    const r = importDefinitions(vhostExport);
    expect(r.ok && r.topology.queues.length).toBe(4);
    // the per-vhost export still names the vhost on policies
    expect(r.ok && r.vhost).toBe('rs-fixture');
    expect(
      importDefinitions({ queues: [{ name: 'q', durable: true, auto_delete: false, arguments: {} }] }),
    ).toMatchObject({ ok: true, vhosts: [] });
  });

  it('errors name the field with the index in the file', () => {
    const bad = {
      queues: [
        { name: 'other', vhost: 'x', durable: true, auto_delete: false, arguments: {} },
        { name: 'q', vhost: '/', durable: true, auto_delete: false, arguments: { 'x-message-ttl': '5000' } },
      ],
    };
    const r = importDefinitions(bad);
    expect(r).toMatchObject({ ok: false, errors: [{ path: 'queues[1].arguments.x-message-ttl', code: 'ttl-range' }] });
    expect(importDefinitions({ queues: 'x' })).toMatchObject({ ok: false, errors: [{ path: 'queues' }] });
    expect(importDefinitions([])).toMatchObject({ ok: false });
  });

  it('reads the 3.13+ queue `type` field', () => {
    const r = importDefinitions({
      queues: [{ name: 'q', type: 'quorum', durable: true, auto_delete: false, arguments: {} }],
    });
    expect(r.ok && r.topology.queues[0]?.arguments).toEqual({ 'x-queue-type': 'quorum' });
  });
});

describe('exportDefinitions', () => {
  const t: Topology = {
    exchanges: [{ name: 'x', type: 'direct' }],
    queues: [{ name: 'q', arguments: { 'x-message-ttl': 10 } }],
    bindings: [{ source: 'x', destination: 'q', destination_type: 'queue', routing_key: 'k' }],
    policies: [{ name: 'p', pattern: '^q$', definition: { 'max-length': 3 } }],
  };
  it('writes every field the importer needs, and round-trips', () => {
    const out = exportDefinitions(t);
    expect(out.exchanges[0]).toEqual({
      name: 'x',
      type: 'direct',
      durable: true,
      auto_delete: false,
      internal: false,
      arguments: {},
    });
    expect(out.queues[0]).toEqual({ name: 'q', durable: true, auto_delete: false, arguments: { 'x-message-ttl': 10 } });
    const back = importDefinitions(JSON.parse(JSON.stringify(out)));
    expect(back.ok && back.topology.queues[0]?.arguments).toEqual({ 'x-message-ttl': 10 });
    expect(back.ok && back.topology.policies?.[0]?.definition).toEqual({ 'max-length': 3 });
  });
  it('writes a whole-broker file for one vhost', () => {
    const out = exportDefinitions(t, { vhost: 'v1' });
    expect(out.vhosts).toEqual([{ name: 'v1' }]);
    expect(out.queues[0]).toMatchObject({ vhost: 'v1' });
    const back = importDefinitions(JSON.parse(JSON.stringify(out)));
    expect(back.ok && back.vhost).toBe('v1');
  });
});

describe('design JSON and loadDocument', () => {
  it('round-trips a design and rejects broken JSON with a message', () => {
    const d = {
      format: 'retry-studio/design',
      version: 1,
      name: 'n',
      topology: { exchanges: [], queues: [{ name: 'q' }], bindings: [] },
      consumers: [],
      publishers: [],
    } as const;
    const r = readDesignJson(writeDesignJson(d));
    expect(r.ok && r.design.name).toBe('n');
    expect(readDesignJson('{nope')).toMatchObject({ ok: false, errors: [{ code: 'json-syntax' }] });
  });
  it('reads a retry-scenario/1 file as a design (scripts + publishers)', () => {
    const s = {
      format: 'retry-scenario/1',
      name: 'sc',
      topology: {
        exchanges: [{ name: 'x', type: 'direct' }],
        queues: [{ name: 'q' }],
        bindings: [{ source: 'x', destination: 'q', destination_type: 'queue', routing_key: 'k' }],
      },
      consumers: [{ queue: 'q', actions: ['requeue', 'reject'] }],
      steps: [
        { publish: { exchange: 'x', routing_key: 'k', body: 'a' } },
        { wait_ms: 5 },
        { publish: { exchange: 'x', routing_key: 'k', body: 'b' } },
      ],
    };
    const r = loadDocument(JSON.stringify(s));
    expect(r).toMatchObject({ ok: true, kind: 'scenario' });
    expect(r.ok && r.design.consumers[0]).toMatchObject({
      queue: 'q',
      behaviour: { kind: 'script', actions: [{ kind: 'requeue' }, { kind: 'reject' }] },
    });
    expect(r.ok && r.design.publishers).toHaveLength(1);
    expect(loadDocument(JSON.stringify({ ...s, consumers: [{ queue: 'nope', actions: ['ack'] }] }))).toMatchObject({
      ok: false,
      errors: [{ path: 'consumers[0].queue' }],
    });
    expect(loadDocument(JSON.stringify({ ...s, consumers: 3 }))).toMatchObject({
      ok: false,
      errors: [{ path: 'consumers' }],
    });
  });

  it('detects definitions vs design', () => {
    expect(loadDocument(JSON.stringify(vhostExport))).toMatchObject({ ok: true, kind: 'definitions' });
    expect(loadDocument(JSON.stringify({ topology: { queues: [{ name: 'q' }] } }))).toMatchObject({
      ok: true,
      kind: 'design',
    });
    expect(
      loadDocument(
        JSON.stringify({
          format: 'retry-studio/design',
          version: 1,
          name: 'x',
          topology: {},
          consumers: [{ id: 'c', queue: 'missing', behaviour: { kind: 'script', actions: [{ kind: 'ack' }] } }],
          publishers: [],
        }),
      ),
    ).toMatchObject({
      ok: false,
      errors: [{ path: 'consumers[0].queue', code: 'missing-queue' }],
    });
  });
});

describe('a binding to or from an object the file does not declare', () => {
  // what both brokers do with such a file is measured: corpus/README.md (3.10.8 skips it, 4.3.6 answers 400 after loading the rest)
  const file = (bindings: ReturnType<typeof T.bind>[]) =>
    exportDefinitions(T.topology(T.exchange('ex'), T.queue('q1'), T.queue('q2'), ...bindings));

  it('is read past with a note naming it and what each broker line does; the rest is read', () => {
    const r = importDefinitions(
      file([
        T.bind('ex', 'q1', 'a'),
        T.bind('ex', 'missing', 'b'),
        T.bindX('ex', 'gone.x', 'c'),
        T.bind('nosrc', 'q2', 'd'),
        T.bind('amq.direct', 'q2', 'e'),
      ]),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.topology.bindings.map((b) => b.routing_key)).toEqual(['a', 'e']);
    expect(r.skippedBindings.map((b) => [b.index, b.missing.kind, b.missing.name])).toEqual([
      [1, 'queue', 'missing'],
      [2, 'exchange', 'gone.x'],
      [3, 'exchange', 'nosrc'],
    ]);
    const notes = r.warnings.filter((w) => w.code === 'binding-end-undeclared');
    expect(notes.map((w) => w.path)).toEqual(['bindings[1]', 'bindings[2]', 'bindings[3]']);
    expect(notes[0]!.message).toMatch(
      /"ex" -> queue "missing".*skipped: queue "missing" is not declared.*3\.x skips the binding.*4\.x .*400 resources_missing/,
    );
  });

  it('a file with nothing undeclared has no skipped bindings', () => {
    const r = importDefinitions(file([T.bind('ex', 'q1', 'a')]));
    expect(r.ok && r.skippedBindings).toEqual([]);
  });

  it('the loader carries them to the commands (lint prints the note, the upgrade check reads them)', () => {
    const r = loadDocument(JSON.stringify(file([T.bind('ex', 'missing', 'b')])));
    expect(r.ok && r.skippedBindings?.map((b) => b.destination)).toEqual(['missing']);
  });
});

describe('what a file leaves unsaid, said (issue 29.4)', () => {
  const whole = (vhost: string | undefined, extra: Record<string, unknown> = {}) => ({
    ...exportDefinitions(T.topology(T.queue('q')), vhost !== undefined ? { vhost } : {}),
    ...extra,
  });

  it('objects with no vhost field: a per-vhost export, said', () => {
    const r = importDefinitions(whole(undefined));
    expect(r.warnings.find((w) => w.code === 'vhost-scoped-file')?.message).toMatch(
      /per-vhost export.*POST \/api\/definitions\/VHOST/,
    );
    expect(importDefinitions(whole('/')).warnings.some((w) => w.code === 'vhost-scoped-file')).toBe(false);
    // a 4.x single-vhost export names where it came from (rabbitmqadmin-ng's 4.0.5 fixture)
    const named = importDefinitions(
      whole(undefined, { rabbitmq_definition_format: 'single_virtual_host', original_vhost_name: 'vh3' }),
    );
    expect(named.warnings.find((w) => w.code === 'vhost-scoped-file')?.message).toContain(
      '(exported from vhost "vh3": original_vhost_name)',
    );
    expect(r.warnings.find((w) => w.code === 'vhost-scoped-file')?.message).not.toContain('exported from');
  });

  it('objects in a vhost the vhosts list does not declare: the cluster-wide import fails, said', () => {
    const r = importDefinitions(whole('orders', { vhosts: [{ name: '/' }] }));
    expect(r.ok && r.vhost).toBe('orders');
    expect(r.warnings.find((w) => w.code === 'vhost-undeclared')?.message).toMatch(
      /"orders" holds objects.*no_such_vhost/,
    );
    expect(importDefinitions(whole('orders')).warnings.some((w) => w.code === 'vhost-undeclared')).toBe(false);
  });

  it('a password_hash that is not base64 fails the broker import: said; a plain-text password is said too', () => {
    const r = importDefinitions(
      whole('/', {
        users: [
          { name: 'a', password_hash: 'secret', tags: '' },
          { name: 'b', password: 'pw', tags: '' },
          { name: 'c', password_hash: 'J+UiUxNQ3I8uPn6Lo2obWcl93VgXgbw4R+xhl3L5zHwkRFZG', tags: '' },
        ],
      }),
    );
    expect(r.warnings.filter((w) => w.code === 'password-hash-not-base64').map((w) => w.path)).toEqual([
      'users[0].password_hash',
    ]);
    expect(r.warnings.find((w) => w.code === 'password-plain-text')?.message).toContain('"b"');
  });

  it('a design read from "/" exports as a whole-broker file with vhost "/" on every object', async () => {
    const { exportDesign } = await import('./exporters.js');
    const r = loadDocument(JSON.stringify(whole('/')));
    if (!r.ok) throw new Error('load');
    const out = JSON.parse(exportDesign(r.design, 'definitions')) as {
      vhosts?: { name: string }[];
      queues: { vhost?: string }[];
    };
    expect(out.vhosts).toEqual([{ name: '/' }]);
    expect(out.queues[0]!.vhost).toBe('/');
  });
});
