/**
 * Whole-broker files through the CLI: every command works per vhost and names it, exports keep
 * each object's vhost, `--vhost` / `--source-vhost` pick one, and bad input is a clear error
 * (exit 1) with nothing written.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../cliHarness.js';

/** A broker export with a retry loop in vhost "orders" and a lone queue in "billing"; "/" is empty. */
function wholeBroker(): Record<string, unknown> {
  const q = (vhost: string, name: string, args: Record<string, unknown> = {}) => ({
    name,
    vhost,
    durable: true,
    auto_delete: false,
    arguments: args,
  });
  const x = (vhost: string, name: string, type = 'direct') => ({
    name,
    vhost,
    type,
    durable: true,
    auto_delete: false,
    internal: false,
    arguments: {},
  });
  const b = (vhost: string, source: string, destination: string, routing_key: string) => ({
    source,
    vhost,
    destination,
    destination_type: 'queue',
    routing_key,
    arguments: {},
  });
  return {
    rabbit_version: '3.12.1',
    vhosts: [{ name: '/' }, { name: 'orders' }, { name: 'billing' }],
    users: [{ name: 'ops', password_hash: 'x', tags: [] }],
    parameters: [
      { vhost: 'orders', component: 'shovel', name: 'drain-a', value: {} },
      { vhost: 'orders', component: 'shovel', name: 'drain-b', value: {} },
    ],
    queues: [
      q('orders', 'work', { 'x-dead-letter-exchange': 'retry' }),
      q('orders', 'wait', { 'x-message-ttl': 5000, 'x-dead-letter-exchange': 'in' }),
      q('orders', 'amq.gen-Xy12', {}),
      q('billing', 'invoices'),
    ],
    exchanges: [x('orders', 'in'), x('orders', 'retry'), x('billing', 'bills', 'fanout')],
    bindings: [
      b('orders', 'in', 'work', 'work'),
      b('orders', 'retry', 'wait', 'work'),
      b('billing', 'bills', 'invoices', ''),
    ],
    policies: [
      {
        vhost: 'billing',
        name: 'ttl',
        pattern: '^inv',
        'apply-to': 'queues',
        priority: 0,
        definition: { 'message-ttl': 60000 },
      },
    ],
  };
}

let dir = '';
const cli = (...argv: string[]) => runCliCaptured(dir, argv);

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rs-vhosts-'));
  writeFileSync(path.join(dir, 'broker.json'), JSON.stringify(wholeBroker()));
  const kleem = wholeBroker();
  for (const k of ['queues', 'exchanges', 'bindings', 'policies'] as const)
    kleem[k] = (kleem[k] as { vhost: string }[])
      .filter((o) => o.vhost === 'billing')
      .map((o) => ({ ...o, vhost: 'kleem' }));
  kleem.vhosts = [{ name: 'kleem' }];
  writeFileSync(path.join(dir, 'kleem.json'), JSON.stringify(kleem));
});

describe('a whole-broker file with several vhosts', () => {
  it('lint works per vhost and names the vhost in each finding (--json keeps it on every finding)', async () => {
    const r = await cli('lint', 'broker.json');
    expect(r.code).toBe(0);
    expect(r.out).toContain('== vhost "orders"');
    expect(r.out).toContain('== vhost "billing"');
    expect(r.out).not.toContain('== vhost "/"');
    expect(r.out).toMatch(/skipped 1 queue \("amq\.gen-Xy12"\): server-named/);
    expect(r.out).toContain('not imported: 2 shovels ("drain-a", "drain-b")');
    expect(r.out).toMatch(/2 vhosts: /);
    const j = JSON.parse((await cli('lint', 'broker.json', '--json')).out) as {
      vhosts: string[];
      findings: { vhost: string }[];
      validationWarnings: { vhost: string }[];
    };
    expect(j.vhosts).toEqual(['orders', 'billing']);
    expect(j.validationWarnings.every((w) => w.vhost === 'orders' || w.vhost === 'billing')).toBe(true);
    expect(j.findings.every((f) => f.vhost === 'orders' || f.vhost === 'billing')).toBe(true);
  });

  it('lint --previous reads the deployed file per vhost too: a changed argument is found in its own vhost', async () => {
    const prev = wholeBroker();
    prev.queues = (prev.queues as { name: string; vhost: string; arguments: Record<string, unknown> }[]).map((q) =>
      q.vhost === 'billing' ? { ...q, arguments: { ...q.arguments, 'x-max-length': 5 } } : q,
    );
    writeFileSync(path.join(dir, 'deployed.json'), JSON.stringify(prev));
    const j = JSON.parse((await cli('lint', 'broker.json', '--previous', 'deployed.json', '--json')).out) as {
      findings: { id: string; vhost: string }[];
    };
    expect(j.findings.filter((f) => f.id === 'immutable-argument-change').map((f) => f.vhost)).toEqual(['billing']);
  });

  it('import gives one design per vhost, each carrying its vhost; --vhost picks one', async () => {
    const all = await cli('import', 'broker.json');
    expect(all.code).toBe(0);
    const designs = JSON.parse(all.out) as { name: string; vhost: string; topology: { queues: unknown[] } }[];
    expect(designs.map((d) => [d.name, d.vhost, d.topology.queues.length])).toEqual([
      ['broker (orders)', 'orders', 2],
      ['broker (billing)', 'billing', 1],
    ]);
    const files = await cli('import', 'broker.json', '--out', 'imported.json');
    expect(files.err).toContain('wrote imported.orders.json');
    expect(JSON.parse(readFileSync(path.join(dir, 'imported.billing.json'), 'utf8')).vhost).toBe('billing');
    const one = JSON.parse((await cli('import', 'broker.json', '--vhost', 'orders')).out) as { vhost: string };
    expect(one.vhost).toBe('orders');
  });

  it("exports keep each object's vhost: definitions, terraform, operator and rabbitmqadmin-v1 write every vhost; the other formats one, picked by --source-vhost", async () => {
    const defs = JSON.parse((await cli('export', 'broker.json', '--format', 'definitions')).out) as {
      vhosts: { name: string }[];
      queues: { name: string; vhost: string }[];
      parameters: unknown[];
      users: unknown[];
    };
    expect(defs.vhosts).toEqual([{ name: 'orders' }, { name: 'billing' }]);
    expect(defs.queues.map((q) => `${q.vhost}/${q.name}`)).toEqual(['orders/work', 'orders/wait', 'billing/invoices']);
    expect([defs.parameters, defs.users]).toEqual([[], []]);
    const tf = await cli('export', 'broker.json', '--format', 'terraform');
    expect(tf.code).toBe(0);
    expect(tf.out).toContain('resource "rabbitmq_vhost" "orders__vhost"');
    expect(tf.out).toContain('resource "rabbitmq_queue" "billing__invoices"');
    expect(tf.out.match(/required_providers/g)).toHaveLength(1);
    const stream = await cli('export', 'broker.json', '--format', 'operator');
    expect(stream.out).toContain('vhosts "orders", "billing" (spec.vhost on each resource)');
    expect(stream.out).toContain('vhost: "billing"');
    expect(stream.out).toContain('name: "orders-queue-work"');
    expect((await cli('export', 'broker.json', '--format', 'rabbitmqadmin-v1')).out).toContain(
      "-V 'billing' declare queue name='invoices'",
    );
    const admin2 = await cli('export', 'broker.json', '--format', 'rabbitmqadmin');
    expect(admin2.code).toBe(2);
    expect(admin2.err).toContain(
      'has objects in 2 vhosts ("orders", "billing"): the rabbitmqadmin export writes one vhost; pick one with --source-vhost V',
    );
    const billing = await cli('export', 'broker.json', '--format', 'terraform', '--source-vhost', 'billing');
    expect(billing.out).toContain('name = "billing"');
    expect(billing.out).toContain('vhost = rabbitmq_vhost.vhost.name');
    const op = await cli('export', 'broker.json', '--format', 'operator', '--source-vhost', 'orders');
    expect(op.out).toContain('vhost: "orders"');
    const admin = await cli('export', 'broker.json', '--format', 'rabbitmqadmin-v1', '--source-vhost', 'orders');
    expect(admin.out).toContain("-V 'orders'");
  });

  it('a single non-default vhost is exported into that vhost, never into "/"', async () => {
    const defs = JSON.parse((await cli('export', 'kleem.json', '--format', 'definitions')).out) as {
      queues: { vhost: string }[];
    };
    expect(defs.queues.map((q) => q.vhost)).toEqual(['kleem']);
    expect((await cli('export', 'kleem.json', '--format', 'operator')).out).toContain('vhost: "kleem"');
    // --vhost still says where to write
    expect((await cli('export', 'kleem.json', '--format', 'operator', '--vhost', 'prod')).out).toContain(
      'vhost: "prod"',
    );
    const design = JSON.parse((await cli('import', 'kleem.json')).out) as { vhost: string };
    expect(design.vhost).toBe('kleem');
  });

  it('rename renames in every vhost that has the object and keeps the file whole', async () => {
    const r = await cli('rename', 'broker.json', '--queue', 'invoices', 'invoices.v2');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as {
      queues: { name: string; vhost: string }[];
      bindings: { destination: string; vhost: string }[];
    };
    expect(out.queues.map((q) => `${q.vhost}/${q.name}`)).toEqual([
      'orders/work',
      'orders/wait',
      'billing/invoices.v2',
    ]);
    expect(out.bindings.find((b) => b.vhost === 'billing')?.destination).toBe('invoices.v2');
    const none = await cli('rename', 'broker.json', '--queue', 'nope', 'x');
    expect(none.code).toBe(2);
    expect(none.err).toContain('no queue "nope" in any of its vhosts ("orders", "billing")');
  });

  it('simulate runs each vhost the actors fit, naming it', async () => {
    const r = await cli(
      'simulate',
      'broker.json',
      '--publish',
      'in:work',
      '--consumer',
      'work=worker',
      '--fail-first',
      '1',
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain('== vhost "orders"');
    expect(r.err).toContain('vhost "billing": not simulated');
    // without actors, each vhost runs with the consumers and publishers lint assumes, and says so
    const assumed = await cli('simulate', 'broker.json');
    // the assumed worker rejects and the wait queue sends it back: a retry that never ends (exit 1)
    expect(assumed.code).toBe(1);
    expect(assumed.out).toContain('== vhost "orders"');
    expect(assumed.err).toContain(
      'vhost "orders": no consumers or publishers in the file: simulated with the ones lint assumes',
    );
  });
});

describe('bad input: a clear error, exit 1, nothing written', () => {
  it.each([
    [
      'not JSON',
      'tf.json',
      '{\n  "queues": [${queues}]\n}',
      /line 2, column 14: unexpected "\$\{queues\}\]".*looks like a template/,
    ],
    ['an empty file', 'empty.json', '', /the file is empty/],
    [
      '{}',
      'obj.json',
      '{}',
      /an empty JSON object: expected a Retry Studio design .* or a RabbitMQ definitions export/,
    ],
    [
      'a file with users only',
      'users.json',
      '{"users":[{"name":"u"}],"vhosts":[{"name":"/"}]}',
      /the file has no exchanges, queues, bindings or policies \(not imported: 1 user/,
    ],
    [
      'a policy with an invalid pattern',
      'pol.json',
      '{"queues":[{"name":"q","vhost":"/"}],"policies":[{"vhost":"/","name":"p","pattern":"(","definition":{"message-ttl":1}}]}',
      /policies\[0\]\.pattern: pattern "\(" is not a valid regular expression/,
    ],
  ])('%s', async (_what, file, text, says) => {
    writeFileSync(path.join(dir, file), text);
    for (const argv of [
      ['lint', file],
      ['import', file, '--out', `${file}.out`],
      ['export', file, '--format', 'terraform', '--out', `${file}.tf`],
      ['rename', file, '--queue', 'q', 'q2', '--out', `${file}.renamed`],
    ]) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.err).toMatch(says);
      expect(r.err).not.toMatch(/\n\s+at /);
      expect(
        existsSync(path.join(dir, `${file}.out`)) ||
          existsSync(path.join(dir, `${file}.tf`)) ||
          existsSync(path.join(dir, `${file}.renamed`)),
      ).toBe(false);
    }
  });

  it('a vhost that is not in the file lists the vhosts that have objects', async () => {
    for (const argv of [
      ['lint', 'broker.json', '--vhost', 'nope'],
      ['import', 'broker.json', '--vhost', 'nope'],
      ['simulate', 'broker.json', '--vhost', 'nope'],
      ['export', 'broker.json', '--format', 'definitions', '--source-vhost', 'nope'],
      ['rename', 'broker.json', '--queue', 'work', 'w', '--vhost', 'nope'],
    ]) {
      const r = await cli(...argv);
      // the question is wrong (cli/exitCodes.ts)
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain(
        'vhost "nope" is not in the file; its vhosts with objects: "orders" (2 exchanges, 3 queues, 2 bindings), "billing" (1 exchange, 1 queue, 1 binding, 1 policy)',
      );
    }
  });

  it('an empty vhost that is in the file says where the objects are', async () => {
    const r = await cli('import', 'broker.json', '--vhost', '/');
    expect(r.code).toBe(1);
    expect(r.err).toContain('vhost "/" has nothing to import; the file\'s vhosts with objects: "orders"');
  });

  it('a UTF-8 byte-order mark is accepted', async () => {
    writeFileSync(path.join(dir, 'bom.json'), '\ufeff' + JSON.stringify(wholeBroker()));
    expect((await cli('lint', 'bom.json')).code).toBe(0);
  });
});
