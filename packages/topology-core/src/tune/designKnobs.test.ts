import { describe, expect, it } from 'vitest';
import { buildTemplate } from '../templates/registry.js';
import { designVariant } from './designKnobs.js';

const design = (id: string, params: Record<string, unknown>) => {
  const r = buildTemplate(id, params);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.template.design;
};

describe('designVariant', () => {
  it('scales the wait queue TTL and shifts the retry count, keeping every name', () => {
    const d = design('dlx-ttl-wait-queue', { maxRetries: 3, delayMs: 5000 });
    const v = designVariant(d, 4, 2);
    expect(v.design.topology.queues.map((q) => q.name)).toEqual(d.topology.queues.map((q) => q.name));
    expect(v.design.topology.queues.find((q) => q.name === 'orders.wait')?.arguments?.['x-message-ttl']).toBe(20_000);
    expect(Object.entries(v.params).filter(([, x]) => x === 5)).not.toHaveLength(0);
    expect(v.params['queue orders.wait x-message-ttl']).toBe(20_000);
  });
  it('moves a quorum delivery limit and the 4.3 delayed-retry bounds', () => {
    const d = design('quorum-delayed-retry', { deliveryLimit: 3, minDelayMs: 1000, maxDelayMs: 10_000 });
    const q = designVariant(d, 0.5, 1).design.topology.queues.find((x) => x.name === 'jobs.q')!;
    expect(q.arguments).toMatchObject({
      'x-delivery-limit': 4,
      'x-delayed-retry-min': 500,
      'x-delayed-retry-max': 5000,
    });
  });
  it('scales a tier list carried in a republish curve', () => {
    const d = design('republish-ttl', { maxRetries: 3, initialDelayMs: 1000, multiplier: 2, maxDelayMs: 60_000 });
    const v = designVariant(d, 2, 0);
    expect(JSON.stringify(v.design.consumers)).not.toEqual(JSON.stringify(d.consumers));
    expect(Object.keys(v.params).length).toBeGreaterThan(0);
  });
});
