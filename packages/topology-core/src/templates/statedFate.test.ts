import { describe, expect, it } from 'vitest';
import { buildTemplate } from './registry.js';
import { statedFate } from './statedFate.js';
import type { BrokerProfileId, Design } from '../model/design.js';

function template(id: string, params: Record<string, unknown>, profile?: BrokerProfileId): Design {
  const r = buildTemplate(id, params);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return profile ? { ...r.template.design, profile } : r.template.design;
}

describe('the fate a template explanation states, from a run on the chosen profile', () => {
  it('quorum-delivery-limit on 3.10: what the text promises (parked in jobs.dead)', () => {
    const f = statedFate(template('quorum-delivery-limit', { deliveryLimit: 2 }));
    expect(f?.contradicts).toBeUndefined();
    expect(f?.sentence).toBe('Simulated on RabbitMQ 3.10, a message that always fails: parked in jobs.dead.');
  });
  it('quorum-delivery-limit on 4.3: a basic.nack never reaches the limit, and the explanation says so instead of promising jobs.dead', () => {
    const f = statedFate(template('quorum-delivery-limit', { deliveryLimit: 2 }, '4.3'));
    expect(f?.outcome.kind).toBe('moving');
    expect(f?.contradicts).toEqual({ writtenFor: '3.10', promised: { kind: 'queue', queue: 'jobs.dead' } });
    expect(f?.sentence).toMatch(
      /^Not as the text above says on RabbitMQ 4\.3 \(it describes RabbitMQ 3\.10\): simulated on 4\.3, a message that always fails is still moving .*attempt [0-9,]+, cycling in jobs\.q; it never ends\.$/,
    );
  });
  it('a design with no publisher states nothing', () =>
    expect(statedFate({ ...template('requeue-once', {}), publishers: [] })).toBeUndefined());
});
