// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { upgradeCheck } from '@retry-studio/topology-core/upgrade';
import { loadValue } from '@retry-studio/topology-core/io';
import { buildTemplate } from '@retry-studio/topology-core/templates';
import { marksFromFindings, marksFromVerify, useUpgradeMarks } from './upgradeMarks';
import { useApp } from './store';
import { dlxTtlRetry } from '../fixtures/designs';

/** a 3.13 export: a mirroring policy over the DLQ (refused on 4.x), the work queue dead-lettering into it */
function legacy() {
  const r = loadValue({
    rabbitmq_version: '3.13.7',
    exchanges: [
      {
        name: 'billing.dlx',
        vhost: '/',
        type: 'fanout',
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      },
    ],
    queues: [
      {
        name: 'billing.q',
        vhost: '/',
        durable: true,
        auto_delete: false,
        arguments: { 'x-dead-letter-exchange': 'billing.dlx' },
      },
      { name: 'billing.dlq', vhost: '/', durable: true, auto_delete: false, arguments: {} },
    ],
    bindings: [
      {
        source: 'billing.dlx',
        vhost: '/',
        destination: 'billing.dlq',
        destination_type: 'queue',
        routing_key: '',
        arguments: {},
      },
    ],
    policies: [
      {
        name: 'billing-ha',
        vhost: '/',
        pattern: '^billing\\.dlq$',
        'apply-to': 'queues',
        priority: 0,
        definition: { 'ha-mode': 'all' },
      },
    ],
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.design;
}

describe('upgrade marks', () => {
  it('a refused object is red with its reason and the broker words; nothing else is marked', () => {
    const marks = marksFromFindings(upgradeCheck(legacy(), { from: '3.10', to: '4.3' }).findings);
    expect(marks['queue:billing.dlq']?.tone).toBe('refused');
    expect(marks['queue:billing.dlq']?.reasons.join('\n')).toMatch(/billing-ha.*broker: /s);
    expect(marks['queue:billing.q']).toBeUndefined();
    expect(marks['exchange:billing.dlx']).toBeUndefined();
  });

  it('a changed fate is amber on the queues it names; 4.x (where a nack still counts) marks nothing', () => {
    const built = buildTemplate('quorum-delivery-limit');
    if (!built.ok) throw new Error('template');
    const d = built.template.design;
    const findings = upgradeCheck(d, { from: '3.10', to: '4.3' }).findings;
    const changed = findings.filter((f) => f.kind === 'behaviour-changed').flatMap((f) => f.objects);
    expect(changed.length).toBeGreaterThan(0);
    const marks = marksFromFindings(findings);
    for (const id of changed) expect(marks[id]?.tone).toBe('changed');
    expect(Object.values(marks).some((m) => m.tone === 'refused')).toBe(false);
    expect(marksFromFindings(upgradeCheck(d, { from: '3.10', to: '4.x' }).findings)).toEqual({});
  });

  it('what the broker refused in a verification marks its queue or exchange; bindings and policies have no node', () => {
    const marks = marksFromVerify(
      [
        {
          object: 'queue orders.q',
          accepted: false,
          brokerSaid: "PRECONDITION_FAILED - invalid arg 'x-queue-version'",
          agrees: true,
        },
        { object: 'exchange orders', accepted: true, agrees: true },
        { object: 'binding orders -> orders.q', accepted: false, brokerSaid: 'NOT_FOUND', agrees: true },
        { object: 'policy ha', accepted: false, brokerSaid: 'refused', agrees: true },
      ],
      '4.3.6',
    );
    expect(marks).toEqual({
      'queue:orders.q': {
        tone: 'refused',
        reasons: ["RabbitMQ 4.3.6 refused it: PRECONDITION_FAILED - invalid arg 'x-queue-version'"],
      },
    });
  });

  it('marks leave with the version they were computed for, and with the design', () => {
    useApp.getState().loadDesign(dlxTtlRetry(), { history: false });
    useUpgradeMarks.getState().setMarks('check', { 'queue:work.q': { tone: 'changed', reasons: ['x'] } });
    useUpgradeMarks.getState().setMarks('verify', { 'queue:work.q': { tone: 'refused', reasons: ['y'] } });
    expect(useUpgradeMarks.getState().marks['queue:work.q']).toEqual({ tone: 'refused', reasons: ['x', 'y'] });
    useUpgradeMarks.getState().setMarks('verify', null);
    expect(useUpgradeMarks.getState().marks['queue:work.q']?.tone).toBe('changed');
    const d = useApp.getState().design;
    useApp.getState().setDesign({ ...d, topology: { ...d.topology, queues: d.topology.queues.slice(0, 1) } });
    expect(useUpgradeMarks.getState().marks).toEqual({});
    useUpgradeMarks.getState().setMarks('check', { 'queue:work.q': { tone: 'changed', reasons: ['x'] } });
    useApp.getState().loadDesign(dlxTtlRetry(), { history: false });
    expect(useUpgradeMarks.getState().marks).toEqual({});
  });
});
