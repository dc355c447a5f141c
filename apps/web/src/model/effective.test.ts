// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Design } from '@retry-studio/topology-core/model';
import { dlxTtlRetry } from '../fixtures/designs';
import { FlowMapper } from '../graph/designToFlow';
import { queueChips } from './describe';
import { designSettings, queueSettings } from './effective';

/** the fixture with wait.q's TTL and dead-letter settings moved from arguments into a policy */
function viaPolicy(): Design {
  const d = dlxTtlRetry();
  const queues = d.topology.queues.map((q) => (q.name === 'wait.q' ? { ...q, arguments: {} } : q));
  const policies = [
    {
      name: 'wait-settings',
      pattern: '^wait\\.q$',
      'apply-to': 'queues' as const,
      priority: 0,
      definition: { 'message-ttl': 5000, 'dead-letter-exchange': 'work', 'dead-letter-routing-key': 'work' },
    },
  ];
  return { ...d, topology: { ...d.topology, queues, policies } };
}

describe('the designer shows the effective settings (arguments and policies)', () => {
  it('a policy TTL and DLX make chips that name the policy, and the dead-letter edge is drawn', () => {
    const d = viaPolicy();
    const chips = queueChips(queueSettings(d, 'wait.q'));
    expect(chips.filter((c) => c.policy).map((c) => [c.label, c.policy])).toEqual([
      ['TTL 5s', 'wait-settings'],
      ['DLX work', 'wait-settings'],
    ]);
    const dl = new FlowMapper().edgesOf(d).find((e) => e.source === 'queue:wait.q' && e.data!.kind === 'deadLetter');
    expect(dl?.target).toBe('exchange:work');
    expect(dl?.data).toMatchObject({ label: 'DL rk: work', policy: 'wait-settings' });
    // without the policy there is no setting and no edge
    const bare = { ...d, topology: { ...d.topology, policies: [] } };
    expect(
      new FlowMapper().edgesOf(bare).some((e) => e.source === 'queue:wait.q' && e.data!.kind === 'deadLetter'),
    ).toBe(false);
  });

  it('an argument wins where RabbitMQ says so, and shows as the argument; a 7-day policy TTL reads 7d', () => {
    const d = dlxTtlRetry();
    expect(queueChips(queueSettings(d, 'wait.q')).find((c) => c.tone === 'ttl')).toMatchObject({
      label: 'TTL 5s',
      title: 'x-message-ttl 5000 (argument x-message-ttl)',
    });
    const dlq = {
      ...d,
      topology: {
        ...d.topology,
        policies: [
          {
            name: 'dlq-ttl',
            pattern: '\\.q$',
            'apply-to': 'queues' as const,
            priority: 0,
            definition: { 'message-ttl': 604_800_000 },
          },
        ],
      },
    };
    expect(queueChips(queueSettings(dlq, 'parking.q')).find((c) => c.tone === 'ttl')).toMatchObject({
      label: 'TTL 7d',
      policy: 'dlq-ttl',
    });
    // min(argument, policy) for the TTL: the argument's 5 s stays
    expect(queueSettings(dlq, 'wait.q')['x-message-ttl']?.value).toBe(5000);
  });

  it('an alternate exchange set by a policy is an edge naming it, and the exchange chip shows it', () => {
    const d = dlxTtlRetry();
    const policies = [
      {
        name: 'ae',
        pattern: '^work$',
        'apply-to': 'exchanges' as const,
        priority: 0,
        definition: { 'alternate-exchange': 'retry' },
      },
    ];
    const withAe = { ...d, topology: { ...d.topology, policies } };
    const m = new FlowMapper();
    const ae = m.edgesOf(withAe).find((e) => e.data!.kind === 'alternate');
    expect(ae).toMatchObject({ source: 'exchange:work', target: 'exchange:retry', data: { policy: 'ae' } });
    const node = m.nodesOf(withAe).find((n) => n.id === 'exchange:work')!;
    expect(node.data.kind === 'exchange' && node.data.settings['alternate-exchange']?.value).toBe('retry');
  });

  it('is computed once per topology (dragging a node reuses it)', () => {
    const d = viaPolicy();
    expect(designSettings({ ...d, layout: {} })).toBe(designSettings(d));
  });
});
