import { describe, expect, it } from 'vitest';
import { lintDesign } from '../lintDesign.js';
import { T } from '../../../testing/builders.js';
import { designOf } from '../../../testing/upgradeFixtures.js';

// each key measured with PUT /api/policies on 3.10.8 and 4.3.6 (corpus/README.md)
const design = (definition: Record<string, number | string>) =>
  designOf('p', T.topology(T.queue('jobs'), T.policy('tuned', '^jobs$', definition)), [], [], '4.3');
const refused = (d: ReturnType<typeof design>, profile: '3.10' | '4.3') =>
  lintDesign(d, { profile }).filter((f) => f.id === 'policy-key-refused');

describe('policy-key-refused', () => {
  it('--profile 3.10 on a 4.x file: consumer-timeout, target-group-size and stream-filter-size-bytes make 3.10.8 refuse the import', () => {
    for (const key of ['consumer-timeout', 'target-group-size', 'stream-filter-size-bytes']) {
      const [f] = refused(design({ [key]: 60 }), '3.10');
      expect(f?.severity, key).toBe('error');
      expect(f?.message).toContain(`sets ${key} (RabbitMQ 4.x only)`);
      expect(f?.objects).toEqual(['queue:jobs']);
    }
  });

  it('4.3 refuses the classic-mirroring keys; keys both lines know are fine', () => {
    expect(refused(design({ 'ha-mode': 'all' }), '4.3')).toHaveLength(1);
    expect(refused(design({ 'message-ttl': 1000, 'delivery-limit': 5 }), '3.10')).toEqual([]);
    expect(refused(design({ 'consumer-timeout': 60 }), '4.3')).toEqual([]);
  });
});
