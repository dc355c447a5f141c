import { describe, expect, it } from 'vitest';
import { buildTemplate } from '../templates/registry.js';
import { exportDesign, EXPORT_FORMATS } from './exporters.js';
import { exportRabbitmqadminV1 } from './rabbitmqadminV1.js';
import { shellQuote } from './shellQuote.js';
import { exportRascalConfig } from './rascal.js';
import { compilePortable } from './portable.js';
import { simulate } from '../sim/simulate.js';
import { designToSimulation } from '../sim/designToSimulation.js';
import { activeQueuesOf, traceMessages } from '../sim/messageTrace.js';
import { lintDesign } from '../lint/lintDesign.js';
import type { Design } from '../model/design.js';

const tpl = (id: string, params = {}) => {
  const r = buildTemplate(id, params);
  if (!r.ok) throw new Error(id);
  return r.template;
};

describe('exporters', () => {
  it('every format produces output for every template', () => {
    for (const id of ['dlx-ttl-wait-queue', 'spring-stateless', 'binary-delay-levels', 'radlx-priority-dlq'])
      for (const f of EXPORT_FORMATS) expect(exportDesign(tpl(id).design, f).length).toBeGreaterThan(50);
  });

  it('rabbitmqadmin v1: quoted declare commands, including headers-binding arguments and exchange bindings', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    const out = exportRabbitmqadminV1(
      tpl('binary-delay-levels', { levels: 2, delaysMs: [1000, 3000] }).design.topology,
      { vhost: 'v' },
    );
    expect(out).toContain(`rabbitmqadmin -V 'v' declare exchange name='orders.delay.01' type='topic' durable='true'`);
    expect(out).toContain(
      `declare queue name='orders.delay.01' durable='true' auto_delete='false' arguments='{"x-message-ttl":2000,"x-dead-letter-exchange":"orders.delay.00"}'`,
    );
    expect(out).toContain(
      `declare binding source='orders.delay.01' destination='orders.delay.00' destination_type='exchange' routing_key='0.#'`,
    );
  });

  it('amqplib script declares everything with JSON-quoted names', () => {
    const s = exportDesign(tpl('dlx-ttl-wait-queue').design, 'amqplib');
    expect(s).toContain(
      `await ch.assertQueue("orders.wait", { durable: true, autoDelete: false, arguments: {"x-message-ttl":5000,"x-dead-letter-exchange":"orders.requeue"} });`,
    );
    expect(s).toContain(`await ch.bindQueue("orders.q", "orders.requeue", "orders.q", {});`);
    expect(s).toContain('process.exit(1)');
  });

  it('consumer skeleton turns rules into code', () => {
    const s = exportDesign(tpl('dlx-ttl-wait-queue').design, 'consumers');
    expect(s).toContain(`if (deathCount(msg, "orders.q", "rejected") < 3) {`);
    expect(s).toContain('ch.reject(msg, false);');
    expect(s).toContain(`await republish("", "orders.parking", msg, { ...headers });`);
    const sp = exportDesign(tpl('spring-stateless').design, 'consumers');
    expect(sp).toContain(`'x-exception-stacktrace'`);
    expect(sp).toContain('for (let i = 1; i < 3; i++) {');
  });

  it('rascal config has vhost, exchanges, queues, bindings, publications and subscriptions', () => {
    const c = exportRascalConfig(tpl('delayed-exchange').design, '/') as {
      vhosts: Record<string, Record<string, Record<string, unknown>>>;
    };
    const v = c.vhosts['/']!;
    expect(v.exchanges!['orders.retry']).toEqual({
      type: 'x-delayed-message',
      options: { durable: true, autoDelete: false, internal: false, arguments: { 'x-delayed-type': 'direct' } },
    });
    expect(v.queues!['orders.q']).toBeDefined();
    expect(Object.values(v.bindings!)).toContainEqual({
      source: 'orders.retry',
      destination: 'orders.q',
      destinationType: 'queue',
      bindingKey: 'orders.q',
    });
    expect(v.subscriptions!.worker).toEqual({ queue: 'orders.q', prefetch: 1 });
    expect(v.publications!.publisher).toMatchObject({ exchange: 'orders', routingKey: 'task' });
  });
});

describe('portable compile (delayed-message exchange -> TTL queues)', () => {
  const run = (d: Design, workConsumers: readonly string[]) => {
    const r = simulate({ ...designToSimulation(d, { messages: 1, failure: { kind: 'always' } }), plugins: [] });
    return traceMessages(r, { workConsumers, activeQueues: activeQueuesOf(d) })[0]!;
  };

  it.each(['delayed-exchange', 'dlx-delayed-requeue'])(
    '%s keeps attempts, delays and ending without the plugin',
    (id) => {
      const t = tpl(id);
      const p = compilePortable(t.design);
      if (!p.ok) throw new Error(JSON.stringify(p.errors));
      expect(p.changed).toBe(true);
      expect(p.design.topology.exchanges.some((x) => x.type === 'x-delayed-message')).toBe(false);
      expect(lintDesign(p.design).map((f) => f.id)).not.toContain('plugin-required');
      const tr = run(p.design, t.workConsumers);
      const doc = t.documented[0]!;
      expect({ attempts: tr.attempts, delaysMs: tr.delaysMs, endsIn: tr.endsIn }).toEqual({
        attempts: doc.attempts,
        delaysMs: doc.delaysMs,
        endsIn: doc.endsIn,
      });
      expect(p.changes.join('\n')).toContain('now an ordinary');
    },
  );

  it('names each delay queue and says who publishes where', () => {
    const p = compilePortable(
      tpl('delayed-exchange', { maxRetries: 5, initialDelayMs: 1000, multiplier: 2, maxDelayMs: 4000 }).design,
    );
    expect(p.ok && p.design.topology.queues.map((q) => q.name)).toEqual([
      'orders.q',
      'orders.parking',
      'orders.retry.delay.1000',
      'orders.retry.delay.2000',
      'orders.retry.delay.4000',
    ]);
    expect(p.ok && p.changes.some((c) => c.startsWith('consumer worker: now publish to orders.retry.delay'))).toBe(
      true,
    );
  });

  it('leaves a plugin-free design alone and refuses delays it cannot enumerate', () => {
    expect(compilePortable(tpl('chained-ttl').design)).toMatchObject({ ok: true, changed: false });
    const d = tpl('delayed-exchange').design;
    const c = d.consumers[0]!;
    const b = c.behaviour.kind === 'worker' ? c.behaviour : undefined;
    const broken: Design = {
      ...d,
      consumers: [
        {
          ...c,
          behaviour: {
            ...b!,
            onFailure: [
              {
                then: {
                  kind: 'republish',
                  exchange: 'orders.retry',
                  headers: { 'x-delay': { kind: 'fromHeader', name: 'd' } },
                },
              },
            ],
          },
        },
      ],
    };
    expect(compilePortable(broken)).toMatchObject({
      ok: false,
      errors: [{ path: 'consumers[0].behaviour.onFailure[0].then.headers.x-delay', code: 'portable-delay-unknown' }],
    });
  });
});
