/**
 * Policies on both real brokers (TEST_BROKERS), each in a throwaway vhost:
 * - the core's effective-settings choice (which policy, which operator policy, the merged
 *   definition) against what the broker reports in GET /api/queues/{vhost}/{name};
 * - deploy creates the design's policies (rabbitmqctl list_policies shows them), a TTL change
 *   through the policy is an in-place update (plan: policy 'update', queue 'unchanged'), the
 *   waiting messages are kept and the new TTL applies; teardown removes only our policies.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  POLICY_KEY_FOR_ARGUMENT,
  queueEffectiveSettings,
  type Design,
  type PolicyApplyTo,
  type PolicyDef,
  type QueueDef,
} from '@retry-studio/topology-core/model';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { ManagedConnection, ManagementClient, parseAmqpUrl, withVhost } from '../broker/index.js';
import { TEST_BROKERS, type TestBroker } from '../testing/testBrokers.js';
import { useLiveServer } from '../testing/liveServer.js';
import { uniquePrefix } from '../http/testing.js';
import { applyPlan } from './applyPlan.js';
import { Renamer, renameDesign } from './deployTarget.js';
import { Manifest } from './manifest.js';
import { diffTopology, policyFromBroker, readBrokerState } from './planDeploy.js';
import { teardown } from './teardown.js';

const run = promisify(execFile);

/** `rabbitmqctl list_policies` on each test broker (scripts/brokers.sh: 4.3 lives in a chroot). */
async function rabbitmqctlPolicies(b: TestBroker, vhost: string): Promise<string[]> {
  const args = ['list_policies', '-p', vhost, '--formatter', 'json', '--quiet'];
  const { stdout } =
    b.name === '3.10'
      ? await run('rabbitmqctl', args)
      : await run('chroot', ['/var/lib/retry-studio/rabbitmq-4.3', 'rabbitmqctl', '-n', 'rabbit4@localhost', ...args], {
          env: { ...process.env, ERL_EPMD_PORT: '4370', HOME: '/var/lib/rabbitmq' },
        });
  return (JSON.parse(stdout) as { name: string }[]).map((p) => p.name).sort();
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The broker's view of a queue once its stats have caught up with `ready` (stats lag by up to ~5 s). */
async function brokerQueue(
  mgmt: ManagementClient,
  vhost: string,
  name: string,
  ready: (q: Record<string, unknown>) => boolean,
) {
  for (let i = 0; i < 60; i++) {
    const q = (await mgmt.queue(vhost, name)) as Record<string, unknown> | undefined;
    if (q && ready(q)) return q;
    await sleep(500);
  }
  throw new Error(`queue ${name} never reached the expected state`);
}

/** The core's settings keyed back into policy keys (as effective_policy_definition shows them), arguments left out. */
function policyView(q: QueueDef, policies: readonly PolicyDef[], operatorPolicies: readonly PolicyDef[]) {
  const s = queueEffectiveSettings(
    { ...q, arguments: { 'x-queue-type': q.arguments?.['x-queue-type'] ?? 'classic' } },
    { policies, operatorPolicies },
  );
  const definition = Object.fromEntries(
    Object.entries(s.settings)
      .filter(([k]) => k !== 'x-queue-type')
      .map(([k, v]) => [POLICY_KEY_FOR_ARGUMENT[k]?.key ?? k, v.value]),
  );
  return {
    policy: s.policy ?? null,
    operator_policy: s.operatorPolicy ?? null,
    effective_policy_definition: Object.keys(definition).length ? definition : null,
    tied: s.tiedPolicies,
  };
}

describe.each(TEST_BROKERS)('policies on RabbitMQ $name', (b) => {
  const { srv, onCleanup } = useLiveServer({ broker: b });
  const url = parseAmqpUrl(b.amqpUrl);
  // the management URL of this broker, explicitly
  const mgmt = new ManagementClient(url, { baseUrl: b.managementUrl });
  const vhosts: string[] = [];
  const conns: ManagedConnection[] = [];
  const newVhost = async (what: string) => {
    const v = `rs-${what}-${b.name}-${randomBytes(3).toString('hex')}`;
    vhosts.push(v);
    await mgmt.createVhost(v);
    return v;
  };
  afterAll(async () => {
    for (const c of conns) await c.close().catch(() => undefined);
    for (const v of vhosts) await mgmt.deleteVhost(v).catch(() => undefined);
  });

  it('the core picks the policy and operator policy the broker applies, and merges them as it does', async () => {
    const vhost = await newVhost('prec');
    const pol = (
      name: string,
      pattern: string,
      definition: PolicyDef['definition'],
      priority = 0,
      applyTo: PolicyApplyTo = 'queues',
    ): PolicyDef => ({ name, pattern, 'apply-to': applyTo, priority, definition });
    const policies = [
      pol('low', '^prio', { 'message-ttl': 1000 }, 1),
      pol('high', '^prio', { 'message-ttl': 2000, 'max-length': 7 }, 5),
      pol('for-exchanges', '^kind', { 'alternate-exchange': 'ae' }, 9, 'exchanges'),
      pol('for-queues', '^kind', { 'max-length': 3 }, 1),
      pol('p2', '^merge', {
        'message-ttl': 5000,
        'max-length': 10,
        'dead-letter-exchange': 'pdlx',
        overflow: 'reject-publish',
      }),
      pol('twin-a', '^tie', { 'message-ttl': 1 }, 3),
      pol('twin-b', '^tie', { 'message-ttl': 2 }, 3),
      // queue types in apply-to: 3.12+ (3.10 refuses them)
      ...(b.name === '4.3'
        ? [
            pol('only-quorum', '^typed', { 'delivery-limit': 4 }, 0, 'quorum_queues'),
            pol('only-classic', '^typed', { 'max-length': 9 }, 0, 'classic_queues'),
          ]
        : []),
    ];
    const operatorPolicies = [pol('op', '^merge', { 'message-ttl': 4000, 'max-length': 20, expires: 900000 })];
    for (const p of policies)
      await mgmt.putPolicy(vhost, p.name, {
        pattern: p.pattern,
        'apply-to': p['apply-to']!,
        priority: p.priority!,
        definition: { ...p.definition },
      });
    const base = b.managementUrl;
    const auth = 'Basic ' + Buffer.from('guest:guest').toString('base64');
    for (const p of operatorPolicies)
      expect(
        (
          await fetch(`${base}/api/operator-policies/${encodeURIComponent(vhost)}/${p.name}`, {
            method: 'PUT',
            headers: { authorization: auth, 'content-type': 'application/json' },
            body: JSON.stringify({
              pattern: p.pattern,
              'apply-to': p['apply-to'],
              priority: p.priority,
              definition: p.definition,
            }),
          })
        ).ok,
      ).toBe(true);
    // what the broker lists is what we wrote
    expect((await mgmt.listPolicies(vhost)).map(policyFromBroker).sort((x, y) => x.name.localeCompare(y.name))).toEqual(
      [...policies].sort((x, y) => x.name.localeCompare(y.name)),
    );

    const queues: QueueDef[] = [
      { name: 'prio.q', arguments: {} },
      { name: 'kind.q', arguments: {} },
      {
        name: 'merge.q',
        arguments: { 'x-message-ttl': 100000, 'x-dead-letter-exchange': 'adlx', 'x-overflow': 'drop-head' },
      },
      { name: 'tie.q', arguments: {} },
      ...(b.name === '4.3'
        ? [
            { name: 'typed.qq', arguments: { 'x-queue-type': 'quorum' } },
            { name: 'typed.cq', arguments: {} },
          ]
        : []),
    ];
    const conn = new ManagedConnection(withVhost(url, vhost), 'apply');
    conns.push(conn);
    await conn.start();
    const ch = await conn.createChannel();
    for (const q of queues) await ch.assertQueue(q.name, { durable: true, arguments: { ...q.arguments } });
    await ch.close();
    for (const q of queues) {
      const actual = await brokerQueue(
        mgmt,
        vhost,
        q.name,
        (x) => x.policy !== undefined && x.policy !== '' && x.policy !== null,
      );
      const predicted = policyView(q, policies, operatorPolicies);
      const got = {
        policy: actual.policy ?? null,
        operator_policy: actual.operator_policy || null,
        effective_policy_definition: actual.effective_policy_definition ?? null,
      };
      if (predicted.tied.length > 0) {
        // equal priorities: the broker picks one in its own hash order; the core names all of them
        expect([predicted.policy, ...predicted.tied]).toContain(got.policy);
      } else
        expect({ queue: q.name, ...got }).toEqual({
          queue: q.name,
          policy: predicted.policy,
          operator_policy: predicted.operator_policy,
          effective_policy_definition: predicted.effective_policy_definition,
        });
    }
  });

  it('deploys the design policies; a wait-queue TTL change through the policy updates in place and keeps the messages; teardown removes only ours', async () => {
    const vhost = await newVhost('deploy');
    const prefix = 'pt.';
    const target = { vhost, prefix };
    const r = new Renamer(prefix);
    const design = (delayMs: number): Design => {
      const t = buildTemplate('dlx-ttl-wait-queue', { settings: 'policy', delayMs, maxRetries: 2 });
      if (!t.ok) throw new Error(JSON.stringify(t.errors));
      return t.template.design;
    };
    const conn = new ManagedConnection(withVhost(url, vhost), 'apply');
    conns.push(conn);
    await conn.start();
    const record = new Manifest(undefined).open(b.amqpUrl, vhost, prefix, 'policies');
    const plan = async (d: Design) =>
      diffTopology(
        d.topology,
        renameDesign(d, r).topology,
        await readBrokerState(mgmt, vhost),
        target,
        record.policies,
      );
    // someone else's policy in the same vhost: teardown must leave it
    await mgmt.putPolicy(vhost, 'someone-elses', {
      pattern: '^other$',
      'apply-to': 'queues',
      priority: 0,
      definition: { 'max-length': 1 },
    });

    const p1 = await plan(design(60_000));
    expect(p1.items.filter((i) => i.kind === 'policy').map((i) => `${i.name} ${i.status}`)).toEqual([
      'pt.orders.q.settings create',
      'pt.orders.wait.settings create',
    ]);
    const a1 = await applyPlan(p1, conn, mgmt, record);
    expect(a1.ok).toBe(true);
    expect(await rabbitmqctlPolicies(b, vhost)).toEqual([
      'pt.orders.q.settings',
      'pt.orders.wait.settings',
      'someone-elses',
    ]);
    const wait = `${prefix}orders.wait`;
    // the pattern is anchored to the prefixed name and the DLX renamed
    expect((await mgmt.listPolicies(vhost)).find((p) => p.name === 'pt.orders.wait.settings')).toMatchObject({
      pattern: '^pt\\.(?:orders\\.wait$)',
      definition: { 'message-ttl': 60000, 'dead-letter-exchange': 'pt.orders.requeue' },
    });
    await brokerQueue(mgmt, vhost, wait, (q) => q.policy === 'pt.orders.wait.settings');

    // five messages waiting in the wait queue (60 s TTL)
    const ch = await conn.createConfirmChannel();
    for (let i = 0; i < 5; i++)
      ch.publish(`${prefix}orders.retry`, 'orders.q', Buffer.from(`m${i}`), { persistent: true });
    await ch.waitForConfirms();
    expect((await ch.checkQueue(wait)).messageCount).toBe(5);

    // the TTL changes through the policy: an in-place update, nothing redeclared
    const p2 = await plan(design(1000));
    expect(p2.items.filter((i) => i.status !== 'unchanged').map((i) => `${i.kind} ${i.name} ${i.status}`)).toEqual([
      'policy pt.orders.wait.settings update',
    ]);
    expect(p2.items.find((i) => i.name === wait)?.status).toBe('unchanged');
    const upd = p2.items.find((i) => i.kind === 'policy' && i.status === 'update');
    expect(upd).toMatchObject({
      changes: [{ field: 'definition.message-ttl', from: 60000, to: 1000, effect: 'in-place' }],
    });
    const a2 = await applyPlan(p2, conn, mgmt, record);
    expect(a2).toMatchObject({ ok: true, applied: [{ kind: 'policy', name: 'pt.orders.wait.settings' }] });
    await brokerQueue(
      mgmt,
      vhost,
      wait,
      (q) => (q.effective_policy_definition as Record<string, unknown> | undefined)?.['message-ttl'] === 1000,
    );

    // no message lost: the five are still there (they keep the expiry they were enqueued with)
    expect((await ch.checkQueue(wait)).messageCount).toBe(5);
    const bodies: string[] = [];
    for (let i = 0; i < 5; i++) {
      const m = await ch.get(wait, { noAck: true });
      if (m) bodies.push(m.content.toString());
    }
    expect(bodies).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);

    // the new TTL applies: a new message is back in the work queue after about 1 s, not 60 s
    const t0 = Date.now();
    ch.publish(`${prefix}orders.retry`, 'orders.q', Buffer.from('fresh'), { persistent: true });
    await ch.waitForConfirms();
    let back: Awaited<ReturnType<typeof ch.get>> = false;
    while (!back && Date.now() - t0 < 15_000) {
      back = await ch.get(`${prefix}orders.q`, { noAck: true });
      if (!back) await sleep(100);
    }
    expect(back && back.content.toString()).toBe('fresh');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
    expect(Date.now() - t0).toBeLessThan(15_000);
    const death = (back as { properties: { headers: Record<string, unknown> } }).properties.headers['x-death'] as {
      queue: string;
      reason: string;
    }[];
    expect(death[0]).toMatchObject({ queue: wait, reason: 'expired' });
    await ch.close();

    // teardown: our policies go, someone else's stays
    const td = await teardown(record, conn, mgmt, true);
    expect(td.ok && [...td.deleted.policies].sort()).toEqual(['pt.orders.q.settings', 'pt.orders.wait.settings']);
    expect(await rabbitmqctlPolicies(b, vhost)).toEqual(['someone-elses']);
  });

  it('over the HTTP API: plan shows the policies, deploy creates them, teardown removes them', async () => {
    const prefix = uniquePrefix('pol');
    const t = buildTemplate('dlx-ttl-wait-queue', { settings: 'policy' });
    if (!t.ok) throw new Error(JSON.stringify(t.errors));
    const d = t.template.design;
    const plan = await srv.post('/api/plan', { design: d, prefix });
    expect(plan.status).toBe(200);
    expect(plan.body.warnings).toEqual([]);
    expect(
      plan.body.plan.items
        .filter((i: { kind: string }) => i.kind === 'policy')
        .map((i: { name: string; status: string }) => `${i.name} ${i.status}`),
    ).toEqual([`${prefix}orders.q.settings create`, `${prefix}orders.wait.settings create`]);
    const dep = await srv.post('/api/deploy', { design: d, prefix });
    expect(dep.status).toBe(200);
    onCleanup(() => srv.post('/api/teardown', { designName: d.name, prefix, force: true }));
    expect((await mgmt.listPolicies('/')).filter((p) => p.name.startsWith(prefix)).map((p) => p.name)).toEqual([
      `${prefix}orders.q.settings`,
      `${prefix}orders.wait.settings`,
    ]);
    const td = await srv.post('/api/teardown', { designName: d.name, prefix, force: true });
    expect(td.body.deleted.policies.sort()).toEqual([`${prefix}orders.q.settings`, `${prefix}orders.wait.settings`]);
    expect((await mgmt.listPolicies('/')).some((p) => p.name.startsWith(prefix))).toBe(false);
  });
});
