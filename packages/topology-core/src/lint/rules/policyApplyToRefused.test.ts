import { describe, expect, it } from 'vitest';
import { lintDesign } from '../lintDesign.js';
import { T } from '../../../testing/builders.js';
import { designOf } from '../../../testing/upgradeFixtures.js';

// measured on 3.10.8 with rabbitmqadmin-ng's 4.0.5 vhost export (corpus/README.md): 400 "apply-to 'classic_queues' unrecognised"
const design = (applyTo: 'classic_queues' | 'quorum_queues' | 'streams' | 'queues') =>
  designOf(
    'p',
    T.topology(T.queue('cq.1'), T.queue('qq.1', { quorum: true }), {
      ...T.policy('limit', '^(cq|qq)', { 'max-length': 10 }),
      'apply-to': applyTo,
    }),
    [],
    [],
    '4.3',
  );
const refused = (applyTo: Parameters<typeof design>[0], profile: '3.10' | '4.3') =>
  lintDesign(design(applyTo), { profile }).filter((f) => f.id === 'policy-apply-to-refused');

describe('policy-apply-to-refused', () => {
  it('--profile 3.10: a per-queue-type apply-to is an error naming the queues it would govern', () => {
    const [f] = refused('classic_queues', '3.10');
    expect(f?.severity).toBe('error');
    expect(f?.message).toContain("apply-to 'classic_queues' unrecognised");
    expect(f?.objects).toEqual(['queue:cq.1']);
    expect(refused('quorum_queues', '3.10')[0]?.objects).toEqual(['queue:qq.1']);
    expect(refused('streams', '3.10')).toHaveLength(1);
  });

  it('4.x knows every apply-to, and 3.10 knows queues', () => {
    expect(refused('classic_queues', '4.3')).toEqual([]);
    expect(refused('queues', '3.10')).toEqual([]);
  });
});
