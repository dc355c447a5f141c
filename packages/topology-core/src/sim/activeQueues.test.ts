import { describe, expect, it } from 'vitest';
import { activeQueuesOf } from './messageTrace.js';
import { buildTemplate } from '../templates/registry.js';

describe('activeQueuesOf reads the TTL in effect', () => {
  it('a wait queue whose TTL is set by a policy is active, as with the argument', () => {
    for (const settings of ['arguments', 'policy']) {
      const r = buildTemplate('dlx-ttl-wait-queue', { settings });
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      expect([...activeQueuesOf(r.template.design)].sort()).toEqual(['orders.q', 'orders.wait']);
    }
  });
});
