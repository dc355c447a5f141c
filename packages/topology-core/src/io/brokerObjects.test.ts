import { describe, expect, it } from 'vitest';
import { importDefinitions } from './definitions.js';
import { loadDocument } from './load.js';
import { describeJsonError, jsonErrorOffset } from './jsonSyntax.js';
import { compileExchanges } from '../routing/exchangeIndex.js';
import { route } from '../routing/route.js';

/** A whole-broker export as `rabbitmqctl export_definitions` writes it, with what real brokers hold. */
function brokerFile(vhost = '/'): Record<string, unknown> {
  const q = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    vhost,
    durable: true,
    auto_delete: false,
    arguments: {},
    ...extra,
  });
  return {
    rabbit_version: '3.12.4',
    users: [{ name: 'guest', password_hash: 'x', tags: ['administrator'] }],
    vhosts: [{ name: vhost }],
    permissions: [{ user: 'guest', vhost, configure: '.*', write: '.*', read: '.*' }],
    parameters: [
      { vhost, component: 'shovel', name: 'move-a', value: {} },
      { vhost, component: 'shovel', name: 'move-b', value: {} },
      { vhost, component: 'federation-upstream', name: 'up', value: {} },
    ],
    global_parameters: [{ name: 'cluster_name', value: 'rabbit@x' }],
    queues: [
      q('work', { description: 'the work queue' }),
      q('amq.gen-JzTY20BRgKO-HjmUJj0wLg', { durable: false, auto_delete: true, exclusive: true }),
      q('session', { exclusive: true }),
      q('transient', { durable: false, auto_delete: true }),
    ],
    exchanges: [
      { name: 'orders', vhost, type: 'topic', durable: true, auto_delete: false, internal: false, arguments: {} },
      { name: 'amq.fanout', vhost, type: 'fanout', durable: true, auto_delete: false, internal: false, arguments: {} },
      {
        name: 'hash',
        vhost,
        type: 'x-consistent-hash',
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      },
    ],
    bindings: [
      {
        source: 'orders',
        vhost,
        destination: 'work',
        destination_type: 'queue',
        routing_key: 'order.#',
        arguments: {},
      },
      {
        source: 'amq.fanout',
        vhost,
        destination: 'transient',
        destination_type: 'queue',
        routing_key: '',
        arguments: {},
      },
      {
        source: 'orders',
        vhost,
        destination: 'amq.gen-JzTY20BRgKO-HjmUJj0wLg',
        destination_type: 'queue',
        routing_key: '#',
        arguments: {},
      },
      { source: 'hash', vhost, destination: 'work', destination_type: 'queue', routing_key: '1', arguments: {} },
    ],
  };
}

describe('reading what a broker exports', () => {
  it('never refuses server-named, exclusive, built-in or unknown-type objects: skips them with one note per reason', () => {
    const r = importDefinitions(brokerFile());
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.topology.queues.map((q) => q.name)).toEqual(['work', 'transient']);
    expect(r.topology.queues[1]).toMatchObject({ durable: false, auto_delete: true });
    expect(r.topology.exchanges.map((x) => x.name)).toEqual(['orders']);
    // the built-in amq.fanout stays a binding source; bindings to skipped objects go
    expect(r.topology.bindings.map((b) => `${b.source}>${b.destination}`)).toEqual([
      'orders>work',
      'amq.fanout>transient',
    ]);
    const notes = r.warnings.map((w) => `${w.code}: ${w.message}`);
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^skipped: skipped 1 queue \("amq\.gen-JzTY20BRgKO-HjmUJj0wLg"\): server-named/),
        expect.stringMatching(/^skipped: skipped 1 queue \("session"\): exclusive/),
        expect.stringMatching(/^skipped: skipped 1 exchange \("amq\.fanout"\): built in/),
        expect.stringMatching(
          /^skipped: skipped 1 exchange \("hash"\): of a type the simulator does not model \(x-consistent-hash\)/,
        ),
        expect.stringMatching(/^skipped: skipped 2 bindings .*to or from an object that is skipped/),
        expect.stringMatching(/^field-ignored: field "description" ignored on 1 queue \("work"\)/),
      ]),
    );
  });

  it('lists what it does not model (parameters, global parameters, users, permissions)', () => {
    const r = importDefinitions(brokerFile());
    const note = r.warnings.find((w) => w.code === 'not-imported');
    expect(note?.message).toBe(
      'not imported: 2 shovels ("move-a", "move-b"), 1 federation upstream ("up"), 1 global parameter ("cluster_name"), 1 user ("guest"), 1 permission (not modelled; never written back by any export)',
    );
  });

  it('routes through a built-in exchange it did not declare', () => {
    const r = importDefinitions(brokerFile());
    if (!r.ok) throw new Error('not ok');
    const index = compileExchanges(r.topology);
    expect(index.exchanges.get('amq.fanout')?.match).toBe('fanout');
    expect(
      route(
        index,
        'amq.fanout',
        { routingKeys: ['any'], headers: {}, xDeath: undefined },
        { strictHeaders: false, delayDone: false },
      ).queues,
    ).toEqual(['transient']);
  });

  it('reads the objects of a single non-default vhost, and keeps its name', () => {
    const r = importDefinitions(brokerFile('kleem'));
    expect(r.ok && r.vhost).toBe('kleem');
    expect(r.ok && r.topology.queues.length).toBe(2);
  });

  it('accepts a UTF-8 byte-order mark', () => {
    const r = loadDocument('\ufeff' + JSON.stringify(brokerFile()));
    expect(r.ok).toBe(true);
  });

  it('an empty file, {} and a definitions file with nothing to read are clear errors', () => {
    expect(loadDocument('')).toMatchObject({
      ok: false,
      errors: [{ code: 'json-syntax', message: 'the file is empty (expected a JSON object)' }],
    });
    const empty = loadDocument('{}');
    expect(empty.ok).toBe(false);
    const usersOnly = loadDocument(JSON.stringify({ users: [{ name: 'u' }], vhosts: [{ name: '/' }] }));
    expect(usersOnly).toMatchObject({
      ok: false,
      kind: 'definitions',
      errors: [{ path: 'vhosts', code: 'definitions-empty' }],
    });
    expect(!usersOnly.ok && usersOnly.errors[0]!.message).toBe(
      'the file has no exchanges, queues, bindings or policies (not imported: 1 user ("u") (not modelled; never written back by any export))',
    );
  });
});

describe('JSON syntax errors', () => {
  it('give the line and column, with a hint for a template', () => {
    const tf = '{\n  "queues": [\n    { "name": "${queue_name}", "ttl": ${ttl} }\n  ]\n}';
    const e = describeJsonError(tf);
    expect([e.line, e.column]).toEqual([3, 39]);
    expect(e.message).toBe(
      'not valid JSON: line 3, column 39: unexpected "${ttl} }" (the file has ${...} placeholders: it looks like a template, render it first)',
    );
    expect(loadDocument(tf)).toMatchObject({
      ok: false,
      errors: [{ path: '', code: 'json-syntax', message: e.message }],
    });
  });

  it('name a committed merge conflict (RabbitMQ selenium users.json, corpus/README.md)', () => {
    const conflicted =
      '{\n  "vhosts": [\n<<<<<<< HEAD\n    {"name": "/"}\n=======\n    {"name": "other"}\n>>>>>>> 8d7535e0b (a commit)\n  ]\n}\n';
    const e = describeJsonError(conflicted);
    expect([e.line, e.column]).toEqual([3, 1]);
    expect(e.message).toContain('unresolved git merge conflict');
    // an object name with seven = signs inside a valid line is no conflict
    expect(describeJsonError('{"a": "=======",}').message).not.toContain('merge conflict');
  });

  it('find the first offending character, or the end of an unfinished file', () => {
    expect(jsonErrorOffset('{"a": 1,}')).toBe(8);
    expect(jsonErrorOffset('{"a": [1, 2')).toBe(11);
    expect(jsonErrorOffset('{"a": "x\\q"}')).toBe(8);
    expect(jsonErrorOffset('{"a": tru}')).toBe(9);
    expect(jsonErrorOffset('{"a": -}')).toBe(6);
    expect(jsonErrorOffset('{"a": 1} x')).toBe(9);
    expect(jsonErrorOffset('{"a": [1, {"b": null}], "c": -1.5e3}')).toBe(-1);
  });
});

describe('amq.* exchanges that are not in every vhost (corpus: rabbitmq-selenium-system-logging.json)', () => {
  it('a binding from the log exchange amq.rabbitmq.log is skipped and said: 3.10.8 skips it, 4.3.6 refuses it', () => {
    const r = importDefinitions({
      queues: [{ name: 'system-log', durable: true, auto_delete: false, arguments: {} }],
      exchanges: [],
      bindings: [
        { source: 'amq.rabbitmq.log', destination: 'system-log', destination_type: 'queue', routing_key: '#' },
        { source: 'amq.topic', destination: 'system-log', destination_type: 'queue', routing_key: 'kept' },
      ],
    });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.topology.bindings.map((b) => b.source)).toEqual(['amq.topic']);
    expect(r.skippedBindings).toMatchObject([{ source: 'amq.rabbitmq.log', missing: { kind: 'exchange' } }]);
    expect(r.warnings.find((w) => w.code === 'binding-end-undeclared')?.message).toContain(
      'exchange "amq.rabbitmq.log" is not one of the exchanges every vhost has',
    );
  });
});
